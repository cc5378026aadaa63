import { describe, expect, it } from 'vitest';
import { formatDidYouMean, formatKnownNames, suggestName } from './suggest.js';

describe('suggestName', () => {
  it('finds the closest name within a few edits', () => {
    expect(suggestName('budy', ['starting', 'idle', 'busy', 'approval'])).toBe('busy');
    expect(suggestName('aproval', ['idle', 'approval'])).toBe('approval');
    expect(suggestName('stauts', ['status', 'label'])).toBe('status');
  });

  it('prefers a case-insensitive equal and accepts a truncated name', () => {
    expect(suggestName('IDLE', ['idle', 'idler'])).toBe('idle');
    expect(suggestName('stable', ['matches', 'stable_ms'])).toBe('stable_ms');
  });

  it('suggests nothing for unrelated, empty or exact names', () => {
    expect(suggestName('zzz', ['idle', 'busy'])).toBeUndefined();
    expect(suggestName('', ['idle'])).toBeUndefined();
    expect(suggestName('idle', ['idle'])).toBeUndefined();
  });
});

describe('formatting', () => {
  it('renders a did-you-mean suffix or nothing', () => {
    expect(formatDidYouMean('budy', ['busy'])).toBe('; did you mean "busy"?');
    expect(formatDidYouMean('qqqq', ['busy'])).toBe('');
  });

  it('shortens long name lists', () => {
    expect(formatKnownNames(['a', 'b'])).toBe('a, b');
    expect(formatKnownNames([])).toBe('none');
    const many = Array.from({ length: 20 }, (_, i) => `s${i}`);
    expect(formatKnownNames(many)).toBe('s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, … (+8 more)');
  });
});
