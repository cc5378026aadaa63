import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requiredLiteral } from './required-literal.js';

describe('requiredLiteral', () => {
  it('finds the longest top-level literal run', () => {
    expect(requiredLiteral('(?:^|\\n)\\s*[❯›>]\\s*1\\.\\s*\\S', '')).toBe('1.');
    expect(requiredLiteral('esc to interrupt', '')).toBe('esc to interrupt');
    expect(requiredLiteral('Do you want to proceed\\?', 'm')).toBe('Do you want to proceed?');
    expect(requiredLiteral('Working \\(\\d+s', '')).toBe('Working (');
  });

  it('gives up where no literal is required or case folding applies', () => {
    expect(requiredLiteral('abc|xyz', '')).toBeNull();
    expect(requiredLiteral('esc to interrupt', 'i')).toBeNull();
    expect(requiredLiteral('a?b?c?', '')).toBeNull();
    expect(requiredLiteral('(?:foo)+', '')).toBeNull();
  });

  const PATTERNS = ['ab', 'ab+c', 'a?bc', 'x(ab)?cd', 'ab{2}cd', 'a|bc', '(a|b)cd', 'ab.cd', 'a\\.b', 'a[bc]de', 'abc*d', '\\d+ab', 'ab(?=c)', '(?:^|\\n)ab', 'a\\sbc', 'ab\\??cd'];
  it('never claims a literal that a match can lack', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), fc.stringMatching(/^[abcd. \n?x1]{0,12}$/), (src, hay) => {
        const lit = requiredLiteral(src, '');
        if (lit === null) return;
        if (new RegExp(src).test(hay)) expect(hay.includes(lit)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
