/**
 * The Codex lab's key-script labels: the intervals written beside a recording (its `.labels.json`)
 * must not count the same time twice, or the accuracy figures weigh that prompt double.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs lab tooling without type declarations.
import { keyLabels, mergeLabels } from '../lab/codex/key-script.mjs';

interface Label { from: number; to: number; status: string }

describe('lab codex key-script labels', () => {
  it('joins overlapping intervals of one status and keeps the others apart, sorted', () => {
    const got = mergeLabels([
      { from: 9483, to: 11071, status: 'approval' },
      { from: 7352, to: 9284, status: 'idle' },
      { from: 10284, to: 11071, status: 'approval' },
      { from: 11150, to: 11529, status: 'generating' },
    ]) as Label[];
    expect(got).toEqual([
      { from: 7352, to: 9284, status: 'idle' },
      { from: 9483, to: 11071, status: 'approval' },
      { from: 11150, to: 11529, status: 'generating' },
    ]);
  });

  it('a question asked by the model is labelled once: the server interval and the key interval become one', () => {
    const marks = [
      { what: 'key', t: 1000, state: 'idle' },
      { what: 'key', t: 5000, state: 'picker' },
      { what: 'key', t: 8000, state: 'idle' },
    ];
    const fromKeys = keyLabels(marks, 12_000, [{ start: 8100, end: 8600 }]) as Label[];
    const all = mergeLabels([...fromKeys, { from: 5200, to: 8000, status: 'approval' }]) as Label[];
    const approval = all.filter((l) => l.status === 'approval');
    expect(approval).toEqual([{ from: 5200, to: 8000, status: 'approval' }]);
    // No two intervals overlap at all.
    for (let i = 1; i < all.length; i++) expect(all[i].from).toBeGreaterThanOrEqual(all[i - 1].to);
  });

  it('leaves the input untouched', () => {
    const input = [{ from: 0, to: 10, status: 'idle' }, { from: 5, to: 20, status: 'idle' }];
    mergeLabels(input);
    expect(input).toEqual([{ from: 0, to: 10, status: 'idle' }, { from: 5, to: 20, status: 'idle' }]);
  });
});
