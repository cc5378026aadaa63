import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { RELOAD_DEBOUNCE_MS, SessionListFeed } from './session-list-feed.js';
import { summariesOf, type SessionSummary } from './session-list-events.js';

const detail = (id: string, over: Partial<SessionDetail> = {}): SessionDetail => ({
  id, name: id, labels: {}, lifecycle: 'running', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null,
  controls: [], cwd: '/tmp', branch: null, spec: { id: 'demo-agent', version: null, proven_versions: [] }, pid: 42, cols: 120, rows: 40,
  exit: null, created_at: 10, started_at: 20, exited_at: null, state_since: 100, ...over,
});
const busy = { id: 'busy', label: 'Generating', title: null, status: 'generating' as const };
const idle = { id: 'idle', label: 'Idle', title: null, status: 'idle' as const };
const stateEvent = (id: string, state: typeof busy | typeof idle, at: number): DaemonEvent =>
  ({ seq: at, at, session_id: id, type: 'session.state', state, modal: null });
const removed = (id: string, at: number): DaemonEvent => ({ seq: at, at, session_id: id, type: 'session.removed' });

/** A feed over a list in memory, a virtual timer and reads the test answers by hand. */
function harness(initial: SessionSummary[] | null) {
  let list = initial;
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const reads: { answer: (sessions: SessionDetail[] | null) => Promise<void> }[] = [];
  const feed = new SessionListFeed({
    read: () => list,
    write: (next) => { list = next; },
    load: () => new Promise((resolve) => {
      reads.push({ answer: async (sessions) => { resolve(sessions); await new Promise((r) => setTimeout(r, 0)); } });
    }),
    after: (ms, fn) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => { timers = timers.filter((t) => t !== timer); };
    },
  });
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) t.fn();
  };
  return { feed, list: () => list, reads, advance };
}

describe('SessionListFeed', () => {
  it('applies a state event to the list without reading it', () => {
    const h = harness(summariesOf([detail('s_a'), detail('s_b')]));
    h.feed.apply(stateEvent('s_a', busy, 500));
    h.advance(10 * RELOAD_DEBOUNCE_MS);
    expect(h.reads).toHaveLength(0);
    expect(h.list()?.map((s) => [s.id, s.state?.id, s.state_since])).toEqual([['s_a', 'busy', 500], ['s_b', 'idle', 100]]);
  });

  it('reads once per burst of events it cannot apply, 100 ms after the last', async () => {
    const h = harness(summariesOf([detail('s_a'), detail('s_b')]));
    h.feed.apply(removed('s_a', 500));
    h.advance(RELOAD_DEBOUNCE_MS - 1);
    h.feed.apply(removed('s_b', 501));
    h.advance(RELOAD_DEBOUNCE_MS - 1);
    expect(h.reads).toHaveLength(0);
    h.advance(1);
    expect(h.reads).toHaveLength(1);
    await h.reads[0]!.answer([]);
    expect(h.list()).toEqual([]);
  });

  it('applies the events that arrived during a read over its answer, which may predate them', async () => {
    const h = harness(null);
    void h.feed.reload();
    h.feed.apply(stateEvent('s_a', busy, 500));
    h.feed.apply(stateEvent('s_a', idle, 700));
    h.feed.apply(stateEvent('s_b', busy, 710));
    // Read before any of them: both sessions idle since 100.
    await h.reads[0]!.answer([detail('s_a'), detail('s_b')]);
    expect(h.list()?.map((s) => [s.id, s.state?.id, s.state_since])).toEqual([['s_a', 'idle', 700], ['s_b', 'busy', 710]]);
    h.advance(10 * RELOAD_DEBOUNCE_MS);
    expect(h.reads).toHaveLength(1);
  });

  it('leaves the list as it is when the answer already had those events', async () => {
    const h = harness(null);
    void h.feed.reload();
    h.feed.apply(stateEvent('s_a', busy, 500));
    h.feed.apply(stateEvent('s_a', idle, 700));
    await h.reads[0]!.answer([detail('s_a', { state: idle, state_since: 700 })]);
    expect(h.list()).toEqual(summariesOf([detail('s_a', { state: idle, state_since: 700 })]));
  });

  it('reads again after an answer an event during the read could not be applied to', async () => {
    const h = harness(null);
    void h.feed.reload();
    h.feed.apply(stateEvent('s_new', busy, 500));
    await h.reads[0]!.answer([detail('s_a')]);
    h.advance(RELOAD_DEBOUNCE_MS);
    expect(h.reads).toHaveLength(2);
    await h.reads[1]!.answer([detail('s_a'), detail('s_new', { state: busy, state_since: 500 })]);
    expect(h.list()?.map((s) => s.id)).toEqual(['s_a', 's_new']);
  });

  it('reads one at a time: asked during a read, it reads once more after it', async () => {
    const h = harness(null);
    void h.feed.reload();
    void h.feed.reload();
    void h.feed.reload();
    expect(h.reads).toHaveLength(1);
    await h.reads[0]!.answer([detail('s_a')]);
    expect(h.reads).toHaveLength(2);
    await h.reads[1]!.answer([detail('s_a'), detail('s_b')]);
    expect(h.reads).toHaveLength(2);
    expect(h.list()?.map((s) => s.id)).toEqual(['s_a', 's_b']);
  });

  it('keeps the list when a read fails, and reads for an event before the first answer', async () => {
    const h = harness(summariesOf([detail('s_a')]));
    void h.feed.reload();
    await h.reads[0]!.answer(null);
    expect(h.list()?.map((s) => s.id)).toEqual(['s_a']);
    const empty = harness(null);
    empty.feed.apply(stateEvent('s_a', busy, 500));
    empty.advance(RELOAD_DEBOUNCE_MS);
    expect(empty.reads).toHaveLength(1);
  });

  it('stop() cancels the read asked for', () => {
    const h = harness(summariesOf([detail('s_a')]));
    h.feed.reloadSoon();
    h.feed.stop();
    h.advance(10 * RELOAD_DEBOUNCE_MS);
    expect(h.reads).toHaveLength(0);
  });
});
