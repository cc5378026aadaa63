import { describe, expect, it } from 'vitest';
import { countCaptureGroups, describeCompileError, describeFlagProblem, hasBareLineAnchor } from './regex-lint.js';

describe('describeFlagProblem', () => {
  it('accepts distinct flags from dgimsuyv', () => {
    expect(describeFlagProblem('')).toBeNull();
    expect(describeFlagProblem('dgimsuy')).toBeNull();
    expect(describeFlagProblem('v')).toBeNull();
  });

  it('names unknown, repeated and conflicting flags', () => {
    expect(describeFlagProblem('ix')).toBe('unknown regex flag "x"');
    expect(describeFlagProblem('gg')).toBe('regex flag "g" is repeated');
    expect(describeFlagProblem('uv')).toBe('regex flags "u" and "v" cannot be combined');
  });
});

describe('describeCompileError', () => {
  it('returns the engine message for a bad pattern and null for a good one', () => {
    expect(describeCompileError('a(', '')).toMatch(/Unterminated group/);
    expect(describeCompileError('a', 'i')).toBeNull();
  });
});

describe('countCaptureGroups', () => {
  it('counts groups, ignoring non-capturing ones, and -1 when it does not compile', () => {
    expect(countCaptureGroups('^\\s*(?:[❯›>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$', 'gm')).toBe(2);
    expect(countCaptureGroups('(?<i>\\d)(x)?', 'y')).toBe(2);
    expect(countCaptureGroups('(', '')).toBe(-1);
  });
});

describe('hasBareLineAnchor (the reference lint)', () => {
  it('flags unescaped ^ or $ outside classes', () => {
    expect(hasBareLineAnchor('^Working')).toBe(true);
    expect(hasBareLineAnchor('done$')).toBe(true);
    expect(hasBareLineAnchor('(?:^|\\n)a|^b')).toBe(true);
  });

  it('ignores the sanctioned idioms, escapes and character classes', () => {
    for (const idiom of ['(?:^|\\n)', '(?:\\n|^)', '(?=\\n|$)', '(?=$|\\n)', '(?:\\n|$)', '(?:$|\\n)']) {
      expect(hasBareLineAnchor(`${idiom}x`), idiom).toBe(false);
    }
    expect(hasBareLineAnchor('\\$\\^')).toBe(false);
    expect(hasBareLineAnchor('[^$]')).toBe(false);
    expect(hasBareLineAnchor('[\\]^]x')).toBe(false);
  });
});
