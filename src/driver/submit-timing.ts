/**
 * Submit timing and send identity (spec-format §10.2): how long to wait between writing a
 * body and writing the submit key, and how to recognise a repeated body.
 */

/** Floor under every submit delay: TUIs need a beat between a paste and its Enter. */
export const SUBMIT_DELAY_FLOOR_MS = 200;
/** Extra wait per newline (multi-line pastes are re-rendered line by line), capped. */
const PER_NEWLINE_MS = 80;
const NEWLINE_BONUS_CAP_MS = 800;
/** Extra wait per 1000 characters, capped. */
const PER_KILOCHAR_MS = 200;
const SIZE_BONUS_CAP_MS = 800;

function countNewlines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) n += 1;
  return n;
}

/**
 * `max(spec delay if > 0, manifest delay if > 0, 200 + min(800, newlines·80) + min(800, ⌊len/1000⌋·200))`.
 * Examples: "hi" with spec 200 → 200; 2 500 chars → 600; 10 newlines + 3 000 chars → 1600.
 */
export function resolveSubmitDelayMs(specBeforeSubmitMs: number | undefined, text: string, manifestDelayMs?: number): number {
  const spec = typeof specBeforeSubmitMs === 'number' && Number.isFinite(specBeforeSubmitMs) && specBeforeSubmitMs > 0 ? specBeforeSubmitMs : 0;
  const manifest = typeof manifestDelayMs === 'number' && Number.isFinite(manifestDelayMs) && manifestDelayMs > 0 ? manifestDelayMs : 0;
  const sizeBased = SUBMIT_DELAY_FLOOR_MS
    + Math.min(NEWLINE_BONUS_CAP_MS, countNewlines(text) * PER_NEWLINE_MS)
    + Math.min(SIZE_BONUS_CAP_MS, Math.floor(text.length / 1000) * PER_KILOCHAR_MS);
  return Math.max(spec, manifest, sizeBased);
}

/** djb2 over UTF-16 units, combined with the length: cheap identity for the duplicate gate. */
export function hashBody(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i += 1) h = ((h << 5) + h + text.charCodeAt(i)) | 0;
  return `${(h >>> 0).toString(16)}:${text.length}`;
}

/** Removes all whitespace: TUIs re-wrap and pad what they echo. */
export function normalizeForEcho(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Echo-gate probes: the last and first 16 non-space chars of the body. */
export function echoProbes(text: string): { head: string; tail: string } {
  const n = normalizeForEcho(text);
  return { head: n.slice(0, 16), tail: n.slice(-16) };
}

/** Splits `"/model\r"` into `["/model", "\r"]`; null when there is no non-empty prefix or no trailing CR/LF. */
export function splitTrailingEnter(keys: string): [string, string] | null {
  const m = /^([\s\S]*?)([\r\n]+)$/.exec(keys);
  if (!m || !m[1]) return null;
  return [m[1], m[2]!];
}
