import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';

type StateView = NonNullable<SessionDetail['state']>;
import { RECONCILE_MS, RELOAD_DEBOUNCE_MS, reconcileDelay, SessionListFeed, SessionListSync } from './session-list.js';

const base: SessionDetail = {
  id: 's_a', name: null, labels: {}, lifecycle: 'running', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null,
  controls: [], cwd: '/tmp', branch: 'main', spec: { id: 'demo-agent', version: null, proven_versions: [] }, pid: 1, cols: 80, rows: 24,
  exit: null, created_at: 0, started_at: 0, exited_at: null, state_since: 100,
};
const s = (id: string, over: Partial<SessionDetail> = {}): SessionDetail => ({ ...base, id, ...over });
const busy: StateView = { id: 'busy', label: 'Working', title: null, status: 'generating' };
const idle: StateView = { id: 'idle', label: 'Idle', title: null, status: 'idle' };
const modal = { approval_id: 'a_1', fingerprint: 'f', title: 'Run?', buttons: [{ index: 1, label: 'Yes', current: true }], kind: 'approval' as const };
let seq = 0;
const stateEvent = (id: string, state: StateView, at: number, more: { modal?: typeof modal | null; node?: string } = {}): DaemonEvent =>
  ({ seq: ++seq, type: 'session.state', session_id: id, at, state, modal: more.modal ?? null, ...(more.node ? { node: more.node } : {}) });

function loadedWith(list: SessionDetail[]): SessionListSync {
  const sync = new SessionListSync();
  sync.loaded(sync.loading(), list);
  return sync;
}

describe('the session list patched by events', () => {
  it('patches a state change into its session and leaves the others as they were', () => {
    const sync = loadedWith([s('s_a'), s('s_b')]);
    const before = sync.sessions!;
    expect(sync.event(stateEvent('s_a', busy, 500))).toBe('later');
    const after = sync.sessions!;
    expect(after).not.toBe(before); // a new array: the page's signal sees the change
    expect(after[0]).toMatchObject({ state: busy, state_since: 500, branch: 'main' });
    expect(after[1]).toBe(before[1]);
  });

  it('keeps the time in a state when only the modal or the cursor changed', () => {
    const sync = loadedWith([s('s_a', { state: busy, state_since: 300 })]);
    sync.event(stateEvent('s_a', busy, 900, { modal }));
    expect(sync.sessions![0]).toMatchObject({ state: busy, state_since: 300, modal });
    sync.event(stateEvent('s_a', busy, 950, { modal: null }));
    expect(sync.sessions![0]!.modal).toBeNull();
  });

  it('marks a starting session running when its first state comes', () => {
    const sync = loadedWith([s('s_a', { lifecycle: 'starting', state: null, state_since: null })]);
    sync.event(stateEvent('s_a', idle, 700));
    expect(sync.sessions![0]).toMatchObject({ lifecycle: 'running', state: idle, state_since: 700 });
  });

  it('asks for a reload on what it cannot patch: a new, removed or ended session, an approval, an unknown session', () => {
    const sync = loadedWith([s('s_a'), s('s_gone', { lifecycle: 'exited', exited_at: 50 })]);
    const list = sync.sessions;
    const events: DaemonEvent[] = [
      { seq: ++seq, type: 'session.created', session_id: 's_new', at: 1, session: s('s_new') },
      { seq: ++seq, type: 'session.removed', session_id: 's_a', at: 1 },
      { seq: ++seq, type: 'session.exited', session_id: 's_a', at: 1, code: 0, signal: null },
      { seq: ++seq, type: 'approval.answered', session_id: 's_a', at: 1, approval_id: 'a_1', button: 'Yes', by: 'admin' },
      stateEvent('s_unknown', busy, 1),
      stateEvent('s_gone', busy, 1), // an ended session is not brought back by a late event
      stateEvent('s_a', busy, 1, { node: 'other-node' }), // the same id on another node is another session
    ];
    for (const event of events) expect(sync.event(event), event.type).toBe('now');
    expect(sync.sessions).toBe(list);
  });

  it('ignores what is not in the list and reconciles, never reloads at once, on a finished turn', () => {
    const sync = loadedWith([s('s_a')]);
    const list = sync.sessions;
    const turn = { index: 0, native_session_id: null, user: null, items: [], usage: null, model: null, started_at: null, ended_at: 1 };
    expect(sync.event({ seq: ++seq, type: 'transcript.turn', session_id: 's_a', at: 1, turn })).toBe('none');
    expect(sync.event({ seq: ++seq, type: 'turn.finished', session_id: 's_a', at: 1, state: idle, duration_ms: 5 })).toBe('later');
    expect(sync.sessions).toBe(list);
  });

  it('keeps a state patched while a load was in flight, which the load did not see', () => {
    const sync = loadedWith([s('s_a')]);
    const ticket = sync.loading();
    sync.event(stateEvent('s_a', busy, 500)); // after the daemon answered the load
    sync.loaded(ticket, [s('s_a', { state: idle, state_since: 100 }), s('s_b')]);
    expect(sync.sessions!.map((x) => [x.id, x.state?.id, x.state_since])).toEqual([['s_a', 'busy', 500], ['s_b', 'idle', 100]]);
  });

  it('ends on the newest state whichever of two overlapping loads answers last', () => {
    const sync = loadedWith([s('s_a')]);
    const older = sync.loading();
    sync.event(stateEvent('s_a', busy, 500));
    const newer = sync.loading();
    sync.event(stateEvent('s_a', idle, 800));
    sync.loaded(newer, [s('s_a', { state: busy, state_since: 500 })]);
    expect(sync.sessions![0]).toMatchObject({ state: idle, state_since: 800 });
    sync.loaded(older, [s('s_a', { state: idle, state_since: 100 })]);
    expect(sync.sessions![0]).toMatchObject({ state: idle });
    // Nothing in flight: a later load is taken as it is.
    sync.loaded(sync.loading(), [s('s_a', { state: busy, state_since: 900 })]);
    expect(sync.sessions![0]).toMatchObject({ state: busy, state_since: 900 });
  });

  it('does not replay an event the load already reflects over a newer state it brought', () => {
    const sync = loadedWith([s('s_a')]);
    sync.event(stateEvent('s_a', busy, 500)); // before the load began: the load reflects it
    const ticket = sync.loading();
    sync.loaded(ticket, [s('s_a', { state: idle, state_since: 800 })]);
    expect(sync.sessions![0]).toMatchObject({ state: idle, state_since: 800 });
  });

  it('keeps the patched list when a load fails, and shows nothing after a sign-out', () => {
    const sync = loadedWith([s('s_a')]);
    const ticket = sync.loading();
    sync.event(stateEvent('s_a', busy, 500));
    sync.failed(ticket);
    expect(sync.sessions![0]!.state).toEqual(busy);
    sync.clear();
    expect(sync.sessions).toBeNull();
    expect(sync.event(stateEvent('s_a', idle, 600))).toBe('now');
  });

  it('reconciles at most once per RECONCILE_MS', () => {
    expect(reconcileDelay(1000, 1000)).toBe(RECONCILE_MS);
    expect(reconcileDelay(1000, 1000 + RECONCILE_MS - 1)).toBe(1);
    expect(reconcileDelay(1000, 1000 + RECONCILE_MS * 3)).toBe(0);
  });
});

describe('the feed: the reloads the list asks for, scheduled', () => {
  afterEach(() => { vi.useRealTimers(); });

  /** A feed on the virtual clock whose reads answer `answer()` (or throw it) and are counted. */
  function feedOn(answer: () => SessionDetail[] | Error) {
    vi.useFakeTimers({ now: 1_000_000 });
    const reads: number[] = [];
    const changes: Array<'patched' | 'loaded'> = [];
    const errors: unknown[] = [];
    const feed = new SessionListFeed({
      read: async () => { reads.push(Date.now()); const a = answer(); if (a instanceof Error) throw a; return a; },
      onChange: (_list, how) => { changes.push(how); },
      onLoadError: (error) => { errors.push(error); },
    });
    return { feed, reads, changes, errors };
  }

  it('reads once per burst of events that cannot be patched', async () => {
    const { feed, reads, changes } = feedOn(() => [s('s_a'), s('s_b')]);
    await feed.load();
    expect(changes).toEqual(['loaded']);
    for (let i = 0; i < 5; i++) {
      feed.event({ seq: ++seq, type: 'session.created', session_id: `s_n${i}`, at: 1, session: s(`s_n${i}`) });
      await vi.advanceTimersByTimeAsync(RELOAD_DEBOUNCE_MS / 2);
    }
    expect(reads).toHaveLength(1); // the burst is still going
    await vi.advanceTimersByTimeAsync(RELOAD_DEBOUNCE_MS);
    expect(reads).toHaveLength(2);
    feed.stop();
  });

  it('patches state changes at once and reconciles them at most once per RECONCILE_MS', async () => {
    const { feed, reads, changes } = feedOn(() => [s('s_a')]);
    await feed.load();
    const start = reads[0]!;
    for (let t = 0; t < 25_000; t += 500) {
      feed.event(stateEvent('s_a', t % 1000 === 0 ? busy : idle, Date.now()));
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(changes.filter((c) => c === 'patched')).toHaveLength(50);
    // 25 s of state changes: the first load, then one reconciling read per 10 s.
    expect(reads.map((t) => t - start)).toEqual([0, RECONCILE_MS + RELOAD_DEBOUNCE_MS, 2 * RECONCILE_MS + 2 * RELOAD_DEBOUNCE_MS]);
    feed.stop();
  });

  it('keeps the patched list when a read fails, and says why', async () => {
    let fail = false;
    const { feed, errors } = feedOn(() => (fail ? new Error('offline') : [s('s_a')]));
    await feed.load();
    feed.event(stateEvent('s_a', busy, 2_000));
    fail = true;
    await feed.load();
    expect(errors).toEqual([new Error('offline')]);
    expect(feed.sessions![0]!.state).toEqual(busy);
  });

  it('reads nothing more once stopped or cleared', async () => {
    const { feed, reads } = feedOn(() => [s('s_a')]);
    await feed.load();
    feed.event({ seq: ++seq, type: 'session.removed', session_id: 's_a', at: 1 });
    feed.event(stateEvent('s_a', busy, 2_000));
    feed.clear();
    await vi.advanceTimersByTimeAsync(3 * RECONCILE_MS);
    expect(reads).toHaveLength(1);
    expect(feed.sessions).toBeNull();
  });
});
