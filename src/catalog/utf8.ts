/**
 * Strict UTF-8 decoding for files we interpret (specs). `readFileSync(p, 'utf8')` turns every
 * invalid byte into U+FFFD without a word, so a spec saved as Latin-1 loads and its patterns
 * quietly stop matching (issue 12, item 9); here such a file is refused with the byte offset.
 */
import { isUtf8 } from 'node:buffer';

/** Where the first invalid byte sits: 0-based byte offset, 1-based line and column (in characters). */
export interface Utf8Fault {
  offset: number;
  line: number;
  column: number;
  /** The offending byte, e.g. 0xE9 for a Latin-1 "é". */
  byte: number;
}

export type Utf8Decoding = { ok: true; text: string } | { ok: false; fault: Utf8Fault };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes `bytes` as UTF-8, refusing any invalid sequence (overlong forms, surrogates,
 * truncated sequences, code points past U+10FFFF). A BOM is kept (callers strip it).
 *
 * @example decodeUtf8Strict(Buffer.from([0x7b, 0xe9, 0x7d])) // { ok: false, fault: { offset: 1, line: 1, column: 2, byte: 0xe9 } }
 */
export function decodeUtf8Strict(bytes: Uint8Array): Utf8Decoding {
  // isUtf8 is a native scan, so the valid case (every real spec) costs one pass.
  if (isUtf8(bytes)) return { ok: true, text: decoder.decode(bytes) };
  const offset = findInvalidUtf8(bytes);
  return { ok: false, fault: locateByte(bytes, offset < 0 ? bytes.length : offset) };
}

/** Length of a well-formed sequence starting at `i`, or 0 when the bytes there are not UTF-8 (RFC 3629 table 3-7). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    // E0 needs A0.. (no overlongs); ED stops at 9F (no UTF-16 surrogates).
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    // F0 needs 90.. (no overlongs); F4 stops at 8F (nothing past U+10FFFF).
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n === 0) return i;
    i += n;
  }
  return -1;
}

/** Line and column of a byte offset; the bytes before it are valid UTF-8, so they decode. */
function locateByte(bytes: Uint8Array, offset: number): Utf8Fault {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  // Columns count characters (code points), as an editor's status bar does.
  const before = decoder.decode(bytes.subarray(lineStart, offset));
  return { offset, line, column: [...before].length + 1, byte: bytes[offset] ?? -1 };
}
