import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8Strict, findInvalidUtf8 } from './utf8.js';

describe('decodeUtf8Strict', () => {
  it('decodes any well-formed text exactly as TextDecoder does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const r = decodeUtf8Strict(Buffer.from(s, 'utf8'));
        expect(r).toEqual({ ok: true, text: s });
      }),
    );
  });

  it('finds the first invalid byte exactly where a fatal TextDecoder stops accepting the prefix', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const at = findInvalidUtf8(bytes);
        let valid = true;
        try {
          fatal.decode(bytes);
        } catch {
          valid = false;
        }
        expect(at === -1).toBe(valid);
        if (at !== -1) {
          // Everything before the fault decodes; the fault byte does not start a sequence that completes.
          expect(() => fatal.decode(bytes.subarray(0, at))).not.toThrow();
        }
      }),
    );
  });

  it('locates a Latin-1 byte by line and character column', () => {
    const bytes = Buffer.concat([Buffer.from('{\n  "a": "→ caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]);
    const r = decodeUtf8Strict(bytes);
    expect(r).toEqual({ ok: false, fault: { offset: 17, line: 2, column: 14, byte: 0xe9 } });
  });

  it('keeps a leading BOM for the caller to strip', () => {
    const r = decodeUtf8Strict(Buffer.from('\uFEFF{}', 'utf8'));
    expect(r).toEqual({ ok: true, text: '\uFEFF{}' });
  });
});
