import { describe, expect, it } from 'vitest';
import { extractVersion, satisfiesRange } from './semver-range.js';

describe('satisfiesRange', () => {
  it.each([
    ['2.1.3', '>=2.1.0', true],
    ['2.0.9', '>=2.1.0', false],
    ['1.9.9', '<2', true],
    ['2.0.0', '<2', false],
    ['1.4.0', '^1.2', true],
    ['2.0.0', '^1.2', false],
    ['0.2.9', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['1.2.9', '~1.2', true],
    ['1.3.0', '~1.2', false],
    ['1.5.0', '>=1.0.0 <2.0.0', true],
    ['2.5.0', '>=1.0.0 <2.0.0', false],
    ['3.1.0', '<2 || >=3', true],
    ['2.5.0', '<2 || >=3', false],
    ['1.2.7', '1.2', true],
    ['1.2.3', '>= 1.2.3', true],
    ['9.9.9', '*', true],
  ])('%s in "%s" is %s', (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });

  it('returns null for a range it cannot read', () => {
    expect(satisfiesRange('1.0.0', '>=banana')).toBeNull();
  });
});

describe('extractVersion', () => {
  it('finds the version in --version output', () => {
    expect(extractVersion('2.0.14 (Claude Code)')).toBe('2.0.14');
    expect(extractVersion('codex-cli 0.46.0\n')).toBe('0.46.0');
    expect(extractVersion('v20.19')).toBe('20.19.0');
    expect(extractVersion('no digits here')).toBeNull();
  });
});
