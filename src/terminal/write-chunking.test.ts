import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkPreservingSurrogates } from './write-chunking.js';

const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

describe('chunkPreservingSurrogates', () => {
  it('splits plain text into chunks of at most maxUnits', () => {
    expect(chunkPreservingSurrogates('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });

  it('returns no chunks for the empty string', () => {
    expect(chunkPreservingSurrogates('', 5)).toEqual([]);
  });

  it('returns the whole text as one chunk when it fits', () => {
    expect(chunkPreservingSurrogates('hello', 1024)).toEqual(['hello']);
  });

  it('moves the cut before a surrogate pair that would straddle it', () => {
    expect(chunkPreservingSurrogates('ab😀c', 3)).toEqual(['ab', '😀c']);
  });

  it('keeps a surrogate pair together as a 2-unit chunk when maxUnits is 1', () => {
    expect(chunkPreservingSurrogates('a😀b', 1)).toEqual(['a', '😀', 'b']);
  });

  it('keeps lone surrogates as ordinary units', () => {
    expect(chunkPreservingSurrogates('\udc00\ud800x', 1)).toEqual(['\udc00', '\ud800', 'x']);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects maxUnits %s with a RangeError naming the value', (bad) => {
    expect(() => chunkPreservingSurrogates('abc', bad)).toThrow(RangeError);
    expect(() => chunkPreservingSurrogates('abc', bad)).toThrow(/maxUnits must be an integer >= 1/);
  });

  it('satisfies the chunking properties for arbitrary UTF-16 input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 1, max: 40 }), (text, max) => {
        const chunks = chunkPreservingSurrogates(text, max);
        expect(chunks.join('')).toBe(text);
        let offset = 0;
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0);
          const isSinglePair = chunk.length === 2 && isHigh(chunk.charCodeAt(0)) && isLow(chunk.charCodeAt(1));
          expect(chunk.length <= max || (max === 1 && isSinglePair)).toBe(true);
          // A chunk may start with a low surrogate only when it is a lone one (no high before it).
          if (offset > 0 && isLow(chunk.charCodeAt(0))) {
            expect(isHigh(text.charCodeAt(offset - 1))).toBe(false);
          }
          offset += chunk.length;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never starts a chunk with a low surrogate for well-formed text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (text, max) => {
        for (const chunk of chunkPreservingSurrogates(text, max)) {
          expect(isLow(chunk.charCodeAt(0))).toBe(false);
          expect(isHigh(chunk.charCodeAt(chunk.length - 1))).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
