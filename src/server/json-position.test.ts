import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './json-position.js';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"data": "x",\n "oops" }', 22],
    ['[1,]', 3],
    ['{"a":1', 6],
    ['{"a":tru}', 8],
    ['"tab\there"', 4],
    ['{} x', 3],
    ['', 0],
    ['01', 1],
  ])('finds the break in %j at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('agrees with JSON.parse on whether a text is valid', () => {
    fc.assert(fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
      let valid = true;
      try { JSON.parse(text); } catch { valid = false; }
      const offset = jsonErrorOffset(text);
      if (valid) expect(offset).toBe(text.length);
      else expect(offset).toBeLessThanOrEqual(text.length);
    }), { numRuns: 500 });
  });
});
