import { describe, expect, it } from 'vitest';
import { memoizeByPattern } from './pattern-memo.js';

describe('memoizeByPattern', () => {
  it('computes once per (source, flags) pair, telling flags apart, and remembers falsy answers', () => {
    const calls: string[] = [];
    const memo = memoizeByPattern(16, (source, flags) => {
      calls.push(`${flags}/${source}`);
      return source === 'bad' ? null : `${flags}:${source}`;
    });
    expect(memo('a', '')).toBe(':a');
    expect(memo('a', 'i')).toBe('i:a');
    expect(memo('a', '')).toBe(':a');
    expect(memo('bad', '')).toBeNull();
    expect(memo('bad', '')).toBeNull();
    expect(calls).toEqual(['/a', 'i/a', '/bad']);
  });

  it('empties itself at its bound and keeps answering', () => {
    let computed = 0;
    const memo = memoizeByPattern(3, (source) => {
      computed += 1;
      return source.length;
    });
    for (const s of ['a', 'bb', 'ccc']) memo(s, '');
    expect(computed).toBe(3);
    expect(memo('dddd', 'g')).toBe(4); // the fourth entry empties the memo first
    expect(computed).toBe(4);
    expect(memo('dddd', 'g')).toBe(4);
    expect(computed).toBe(4);
    expect(memo('a', '')).toBe(1); // forgotten: computed again
    expect(computed).toBe(5);
  });
});
