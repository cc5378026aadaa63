/**
 * Splitting long writes into bounded chunks without breaking UTF-16 surrogate pairs
 * (spec-format §10.2, win32 body writes: ≤ 1024 units per chunk, 8 ms apart).
 *
 * @module
 */

/** Chunk size the reference uses for win32 body writes (ConPTY drops input beyond its buffer). */
export const WIN32_BODY_CHUNK_UNITS = 1024;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Splits `text` into chunks of at most `maxUnits` UTF-16 code units, never separating the two
 * halves of a surrogate pair (an emoji split across two PTY writes can arrive as two U+FFFD).
 *
 * When `maxUnits` is 1 a surrogate pair cannot fit, so it becomes one chunk of 2 units: the pair
 * is never split, which is the property that matters. Lone surrogates are kept as single units.
 * The empty string yields no chunks (nothing to write).
 *
 * @param text - the body to split.
 * @param maxUnits - maximum UTF-16 code units per chunk; an integer ≥ 1.
 * @returns chunks whose concatenation equals `text`.
 * @throws RangeError when `maxUnits` is not an integer ≥ 1.
 * @example chunkPreservingSurrogates('ab😀c', 3) // ['ab', '😀c']
 */
export function chunkPreservingSurrogates(text: string, maxUnits: number): string[] {
  if (!Number.isInteger(maxUnits) || maxUnits < 1) {
    throw new RangeError(
      `chunkPreservingSurrogates: maxUnits must be an integer >= 1, got ${String(maxUnits)}; pass e.g. ${WIN32_BODY_CHUNK_UNITS}`,
    );
  }
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + maxUnits, text.length);
    // If the cut lands between a high and a low surrogate, move it so the pair stays together:
    // back by one when that still leaves a non-empty chunk, otherwise forward past the pair.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) {
      end = end - 1 > start ? end - 1 : end + 1;
    }
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
