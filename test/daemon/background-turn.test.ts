/**
 * A live daemon over the real Demo Agent (issue 29 item 4): `/bg 8` starts a job of the agent's
 * own that outlives its answer. The session goes idle with the job still running — reported on
 * the state, in `specterm ls` — and "turn finished" waits until the job has ended.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { runCli, startDaemonWithIdleSession, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterAll(stopAll, 60_000);

type Seen = Extract<DaemonEvent, { type: 'session.state' | 'turn.finished' }>;

describe('turn finished waits for the agent\'s background work (live daemon)', () => {
  it('idle with 1 background job first, turn.finished only once the job is gone', async () => {
    const { dirs, daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS);
    const seen: Seen[] = [];
    const abort = new AbortController();
    const reading = (async () => {
      for await (const e of daemon.client.events({ sessionId, signal: abort.signal })) {
        const event = e as DaemonEvent;
        if (event.type === 'session.state' || event.type === 'turn.finished') seen.push(event);
      }
    })().catch(() => {});
    try {
      await daemon.client.call('sendMessage', { params: { id: sessionId }, body: { text: '/bg 8' } });
      const idleWithJob = (e: Seen) => e.type === 'session.state' && e.state.status === 'idle' && e.state.background?.what === '1 background job';
      await waitFor(() => seen.some(idleWithJob), WAIT_MS, 'idle with the job still running');
      const ls = await runCli(dirs, ['ls']);
      expect(ls.out, ls.out).toMatch(/\b(?:done|idle) · 1 background job\b/); // the demo's states of status idle
      await waitFor(() => seen.some((e) => e.type === 'turn.finished'), WAIT_MS, 'turn.finished');
      const order = seen.map((e) => (e.type === 'turn.finished' ? 'finished' : idleWithJob(e) ? 'idle+job' : e.state.status === 'idle' && !e.state.background ? 'idle' : e.state.status));
      const finishedAt = order.indexOf('finished');
      // The turn ended with the job running; the notification came only after the job was gone.
      expect(order.indexOf('idle+job')).toBeGreaterThan(order.indexOf('generating'));
      expect(order.slice(order.indexOf('idle+job'), finishedAt)).not.toContain('finished');
      expect(order[finishedAt - 1]).toBe('idle');
      const finished = seen[finishedAt] as Extract<DaemonEvent, { type: 'turn.finished' }>;
      expect(finished.state.background).toBeUndefined();
      expect(finished.duration_ms).toBeGreaterThan(7000); // the job ran 8 s from the message
    } finally {
      abort.abort();
      await reading;
    }
  }, 120_000);
});
