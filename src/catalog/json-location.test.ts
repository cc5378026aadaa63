import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonErrorOffset, findJsonFault, locateOffset } from './json-location.js';

describe('findJsonErrorOffset', () => {
  it('returns -1 for valid JSON, whatever its shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(findJsonErrorOffset(JSON.stringify(v, null, 2))).toBe(-1);
      }),
    );
  });

  it('agrees with JSON.parse about validity on mangled text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\n'), (v, at, junk) => {
        const text = JSON.stringify(v);
        const mangled = text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1));
        let valid = true;
        try {
          JSON.parse(mangled);
        } catch {
          valid = false;
        }
        expect(findJsonErrorOffset(mangled) === -1).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });

  it('points at the offending character', () => {
    expect(findJsonErrorOffset('{"a":1,}')).toBe(7);
    expect(findJsonErrorOffset('{"a": tru}')).toBe(6);
    expect(findJsonErrorOffset('[1 2]')).toBe(3);
    expect(findJsonErrorOffset('{"a":1} x')).toBe(8);
    expect(findJsonErrorOffset('"a\\qb"')).toBe(2);
    expect(findJsonErrorOffset('[1,')).toBe(3);
    expect(findJsonErrorOffset('')).toBe(0);
  });

  it('says what it expected at the fault, in its own words (never the input\'s characters)', () => {
    const expected = (text: string) => findJsonFault(text)?.expected;
    expect(expected('{"a":1,}')).toMatch(/^expected a property name in double quotes after ','; no trailing commas/);
    expect(expected('[1,]')).toMatch(/^expected a value .* after ','; no trailing commas/);
    expect(expected('{"a" 1}')).toBe("expected ':' after the property name");
    expect(expected('{"a":1 "b":2}')).toBe("expected ',' or '}' after the property value");
    expect(expected('[1 2]')).toBe("expected ',' or ']' after the array element");
    expect(expected('{"a":1} x')).toMatch(/^expected the end of the text/);
    expect(expected('"a\\qb"')).toMatch(/^an invalid escape/);
    expect(expected('"a\nb"')).toMatch(/^a control character/);
    expect(expected('[1,')).toMatch(/^the text ends before the JSON value is complete/);
    expect(expected(' ')).toMatch(/^the text is empty/);
    expect(expected('secret')).toBe('expected a value (an object, array, string, number, true, false or null)');
    expect(findJsonFault('{"a":[1,2]}')).toBeNull();
  });

  it('handles very deep nesting without recursion', () => {
    expect(findJsonErrorOffset('['.repeat(200_000) + ']'.repeat(200_000))).toBe(-1);
  });
});

describe('locateOffset', () => {
  it('converts an offset to a 1-based line and column', () => {
    expect(locateOffset('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(locateOffset('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(locateOffset('ab\n', 3)).toEqual({ line: 2, column: 1 });
  });
});
