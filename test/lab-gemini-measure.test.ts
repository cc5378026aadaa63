/**
 * The Gemini lab's ground truth (lab/gemini/measure.mjs): labelled intervals never overlap, so no
 * time is counted twice in the accuracy figures. Plain values, no CLI.
 */
import { describe, expect, it } from 'vitest';
import { measureSession, type LabelledInterval } from '../lab/gemini/measure.mjs';

const T0 = 1_000_000;
const at = (s: number) => T0 + s * 1000;
const change = (t: number, status: string) => ({ t, state: status, status });

function overlapMs(intervals: LabelledInterval[]): number {
  let ms = 0;
  for (let i = 0; i < intervals.length; i++) {
    for (let k = i + 1; k < intervals.length; k++) {
      const a = intervals[i]!;
      const b = intervals[k]!;
      ms += Math.max(0, Math.min(a.to, b.to) - Math.max(a.from, b.from));
    }
  }
  return ms;
}

describe('Gemini lab measureSession', () => {
  // The loop-detection session's shape: Gemini stops reading the repeating stream and opens its
  // dialog at once, the server logs the stream's end again when it finishes writing it, the person
  // answers the dialog: three quiet points before one next action (none).
  const session = {
    startedAt: T0, endedAt: at(30),
    changes: [change(0, 'idle'), change(5.1, 'generating'), change(7.2, 'approval'), change(9.2, 'idle')],
    log: [{ t: at(5), event: 'stream_start' }, { t: at(7), event: 'stream_end' }, { t: at(7.5), event: 'stream_end' }],
    actions: [{ t: at(1), what: 'ready' }, { t: at(4.9), what: 'submit' }, { t: at(7.001), what: 'modal_shown' }, { t: at(9), what: 'modal_answered' }],
  };

  it('labels the time after several quiet points before one next action idle once, never over a dialog', () => {
    const r = measureSession(session);
    expect(overlapMs(r.intervals)).toBe(0);
    const idleAfter = r.intervals.filter((iv) => iv.status === 'idle' && iv.from > 5000);
    expect(idleAfter).toHaveLength(1);
    expect(idleAfter[0]!.from).toBeGreaterThanOrEqual(9000);
    expect(idleAfter[0]!.to).toBe(30_000);
    expect(r.intervals).toEqual(expect.arrayContaining([{ from: 7001, to: 9000, status: 'approval' }, { from: 1000, to: 4900, status: 'idle' }]));
  });

  it('counts each labelled millisecond once', () => {
    const r = measureSession(session);
    const sum = r.intervals.reduce((a, iv) => a + (iv.to - iv.from), 0);
    expect(r.labelledMs).toBeLessThanOrEqual(sum + 20 * r.intervals.length);
    expect(r.labelledMs).toBeGreaterThanOrEqual(sum);
    expect(r.labelledMs).toBeLessThan(30_000);
  });
});
