/**
 * Tests of the ground-truth measure the Qwen Code and pi labs report (lab/lib/lab-kit.mjs): which
 * time is labelled with which status from the server's log and the lab's actions, how much of it the
 * driver got right, and what counts as a flap. Plain values, no CLI.
 */
import { describe, expect, it } from 'vitest';
import { measureSession, percentile } from '../lab/lib/lab-kit.mjs';

const T0 = 1_000_000;
const at = (s: number) => T0 + s * 1000;
/** Driver changes are relative to the session start, in seconds. */
const change = (t: number, status: string) => ({ t, state: status, status });

describe('lab measureSession', () => {
  it('labels an open stream generating, the time after a turn idle, and scores the driver against it', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(10),
      changes: [change(0, 'idle'), change(2.1, 'generating'), change(4.5, 'idle')],
      log: [{ t: at(2), event: 'stream_start' }, { t: at(4), event: 'stream_end' }],
      actions: [{ t: at(1), what: 'ready' }, { t: at(1.9), what: 'submit' }],
    });
    expect(r.intervals).toEqual(expect.arrayContaining([
      { from: 2000, to: 4000, status: 'generating' },
      { from: 1000, to: 1900, status: 'idle' },
      { from: 5500, to: 10000, status: 'idle' },
    ]));
    // Wrong only for the 100 ms before the driver saw the stream.
    expect(r.labelledMs - r.rightMs).toBe(100);
    expect(r.flaps).toBe(0);
  });

  it('labels a start-up gate approval from when the lab saw it until it answered, then idle', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(10),
      changes: [change(0, 'idle'), change(2, 'approval'), change(5, 'idle')],
      log: [],
      actions: [{ t: at(2), what: 'ready_trust' }, { t: at(4), what: 'gate_answered' }],
    });
    expect(r.intervals).toEqual(expect.arrayContaining([
      { from: 2000, to: 4000, status: 'approval' },
      { from: 5500, to: 10000, status: 'idle' },
    ]));
    expect(r.rightMs).toBe(r.labelledMs);
  });

  it('labels approval from the drawn confirmation to the answer, not from the tool call', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(20),
      changes: [change(0, 'idle'), change(1, 'generating'), change(12.05, 'approval'), change(14, 'generating'), change(16, 'idle')],
      log: [{ t: at(1), event: 'stream_start' }, { t: at(1.5), event: 'stream_end', toolCall: 'run_shell_command' }, { t: at(1.5), event: 'tool_call_pending' }],
      actions: [{ t: at(12), what: 'approval_drawn' }, { t: at(13.9), what: 'approve' }],
    });
    expect(r.intervals).toContainEqual({ from: 12000, to: 13900, status: 'approval' });
    // A stream that ended in a tool call is not the end of the turn: no idle is labelled after it.
    expect(r.intervals.filter((iv) => iv.status === 'idle')).toEqual([]);
  });

  it('ends the generating label at the stop key and labels idle after the interrupt', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(10),
      changes: [change(0, 'idle'), change(1, 'generating'), change(3.5, 'idle')],
      log: [{ t: at(1), event: 'stream_start' }, { t: at(3.8), event: 'stream_aborted' }],
      actions: [{ t: at(3), what: 'stop' }],
    });
    expect(r.intervals).toEqual(expect.arrayContaining([{ from: 1000, to: 3000, status: 'generating' }, { from: 4500, to: 10000, status: 'idle' }]));
    expect(r.rightMs).toBe(r.labelledMs);
  });

  it('labels an API error the CLI retries as the turn still working, idle only after the error it gives up on', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(30),
      changes: [change(0, 'idle'), change(1.2, 'generating'), change(20.5, 'idle')],
      // A 429 retried twice (no lab action between the requests), then given up.
      log: [
        { t: at(1), event: 'prompt' }, { t: at(1), event: 'api_error' },
        { t: at(4), event: 'prompt' }, { t: at(4), event: 'api_error' },
        { t: at(20), event: 'prompt' }, { t: at(20), event: 'api_error' },
      ],
      actions: [{ t: at(0), what: 'ready' }, { t: at(0.9), what: 'submit' }],
    });
    expect(r.intervals).toContainEqual({ from: 1000, to: 20000, status: 'generating' });
    expect(r.intervals.filter((iv) => iv.status === 'idle')).toEqual([{ from: 0, to: 900, status: 'idle' }, { from: 21500, to: 30000, status: 'idle' }]);
  });

  it('still labels idle after a single API error that is not retried', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(10),
      changes: [change(0, 'idle')],
      log: [{ t: at(1), event: 'prompt' }, { t: at(1), event: 'api_error' }],
      actions: [{ t: at(0), what: 'ready' }, { t: at(0.9), what: 'submit' }],
    });
    expect(r.intervals.filter((iv) => iv.status === 'generating')).toEqual([]);
    expect(r.intervals).toContainEqual({ from: 2500, to: 10000, status: 'idle' });
  });

  it('counts a status change far from every ground-truth event as a flap', () => {
    const r = measureSession({
      startedAt: T0, endedAt: at(30),
      changes: [change(0, 'idle'), change(15, 'generating'), change(15.5, 'idle')],
      log: [], actions: [{ t: at(0), what: 'ready' }],
    });
    expect(r.flaps).toBe(2);
  });
});

describe('lab percentile', () => {
  it('takes the nearest-rank value and is null for no values', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 95)).toBe(5);
    expect(percentile([], 50)).toBeNull();
  });
});
