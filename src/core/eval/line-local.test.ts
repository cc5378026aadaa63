import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLineLocal } from './line-local.js';

describe('isLineLocal', () => {
  it('accepts the line idioms and patterns that cannot match a line feed', () => {
    for (const [src, flags] of [
      ['esc to interrupt', 'i'], ['(?:^|\\n)[✻✶✢·✳✽*][^\\n]*…', ''], ['^❯ ', 'm'], ['[❯›>] ?1\\.', 'i'],
      ['Working \\(\\d+s', 'i'], ['(?:^|\\n)\\S+ for \\d+s(?=\\n|$)', ''], ['\\bYes\\b', 'gi'],
    ] as const) {
      expect(isLineLocal(src, flags), src).toBe(true);
    }
  });

  it('refuses what can cross lines or anchors to the whole text', () => {
    for (const [src, flags] of [
      ['a\\sb', 'i'], ['[❯›>]\\s?1\\.', 'i'], ['a\\nb', ''], ['a[^x]b', ''], ['^Working', 'i'], ['done$', ''], ['a.b', 's'],
      ['[\\x00-\\x1f]', ''], ['\\Wfoo', ''], ['\\p{Cc}', 'u'], ['x', 'y'], ['[\\s\\S]', ''],
    ] as const) {
      expect(isLineLocal(src, flags), src).toBe(false);
    }
  });

  const PATTERNS = [
    'ab', 'a.b', 'a\\sb', '^a', 'b$', '(?:^|\\n)a', 'a(?=\\n|$)', '^a$', '[^x]+', '[^\\n]*b', 'a\\b', '\\Bb',
    '(?<=a)b', '(?<!a)b', 'b(?!a)', '(a)\\1', 'a*', '^', '$', '\\w+ \\w+', '[a-c]{2}', '\\S\\S', '(?:^|\\n)\\s*b',
  ];
  const FLAGS = ['', 'i', 'm', 'g', 'im', 'gm'];

  it('is only claimed when testing lines one by one equals testing the joined text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PATTERNS),
        fc.constantFrom(...FLAGS),
        fc.array(fc.stringMatching(/^[ab x]{0,6}$/), { minLength: 1, maxLength: 5 }),
        (src, flags, lines) => {
          if (!isLineLocal(src, flags)) return;
          const re = new RegExp(src, flags);
          const whole = (re.lastIndex = 0, re.test(lines.join('\n')));
          const perLine = lines.some((l) => (re.lastIndex = 0, re.test(l)));
          expect(perLine).toBe(whole);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
