import { describe, expect, it } from 'vitest';
import { compileRegex, execAll, execRegex, testRegex } from './regex-cache.js';

describe('compileRegex', () => {
  it('returns the same RegExp object for the same source and flags', () => {
    const a = compileRegex('Working \\(', 'i');
    expect(a).toBeInstanceOf(RegExp);
    expect(compileRegex('Working \\(', 'i')).toBe(a);
    expect(compileRegex('Working \\(', 'm')).not.toBe(a);
  });

  it('returns null for invalid syntax, bad flags or non-string input', () => {
    expect(compileRegex('(', '')).toBeNull();
    expect(compileRegex('a', 'gg')).toBeNull();
    expect(compileRegex('a', 'z')).toBeNull();
    expect(compileRegex(5 as unknown as string, '')).toBeNull();
    expect(compileRegex('a', undefined as unknown as string)).toBeNull();
  });

  it('keeps working after more distinct patterns than the cache holds', () => {
    for (let i = 0; i < 1500; i += 1) expect(compileRegex(`p${i}`, '')!.test(`p${i}`)).toBe(true);
    expect(compileRegex('p0', '')!.source).toBe('p0');
  });
});

describe('testRegex / execRegex', () => {
  it('never carries lastIndex state between uses of a g-flagged regex', () => {
    const re = compileRegex('x', 'g')!;
    expect(testRegex(re, 'x')).toBe(true);
    expect(testRegex(re, 'x')).toBe(true);
    re.lastIndex = 5;
    expect(execRegex(re, 'ax')?.index).toBe(1);
  });

  it('treats a sticky regex as anchored at 0 every time', () => {
    const re = compileRegex('a', 'y')!;
    expect(testRegex(re, 'ab')).toBe(true);
    expect(testRegex(re, 'ab')).toBe(true);
    expect(testRegex(re, 'ba')).toBe(false);
  });
});

describe('execAll', () => {
  it('returns every match in order', () => {
    const ms = execAll(compileRegex('\\d', 'g')!, 'a1b2c3');
    expect(ms.map((m) => m[0])).toEqual(['1', '2', '3']);
  });

  it('terminates on patterns that match the empty string', () => {
    const ms = execAll(compileRegex('x*', 'g')!, 'ab');
    expect(ms.length).toBe(3);
  });

  it('steps over a whole surrogate pair after an empty match in unicode mode', () => {
    const ms = execAll(compileRegex('(?:)', 'gu')!, '😀');
    expect(ms.map((m) => m.index)).toEqual([0, 2]);
  });

  it('returns only the first match for a non-global regex', () => {
    expect(execAll(compileRegex('\\d', '')!, '12').length).toBe(1);
  });
});
