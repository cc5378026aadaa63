import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { applySessionEvent, summariesOf, type SessionSummary } from './session-list-events.js';

const detail: SessionDetail = {
  id: 's_a', name: 'a', labels: {}, lifecycle: 'running', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null,
  controls: [{ id: 'model', label: 'Model', action_type: 'open_picker' }], cwd: '/tmp', branch: null,
  spec: { id: 'demo-agent', version: null, proven_versions: [] }, pid: 42, cols: 120, rows: 40,
  exit: null, created_at: 10, started_at: 20, exited_at: null, state_since: 100, muted: false,
};
const [a] = summariesOf([detail]) as [SessionSummary];
const b: SessionSummary = { ...a, id: 's_b', name: 'b' };
const busy = { id: 'busy', label: 'Generating', title: null, status: 'generating' as const };
const idle = { id: 'idle', label: 'Idle', title: null, status: 'idle' as const };
const modal = {
  approval_id: 'a_1', fingerprint: 'f1', title: 'Run npm test?', kind: 'approval' as const, opened_by: 'agent' as const,
  buttons: [{ index: 1, label: 'Yes', current: true }, { index: 2, label: 'No', current: false }],
};
const stateEvent = (over: Partial<Extract<DaemonEvent, { type: 'session.state' }>> = {}): DaemonEvent =>
  ({ seq: 7, at: 500, session_id: 's_a', type: 'session.state', state: busy, modal: null, ...over });
/** Events whose payload does not matter here (only their type is read). */
const bare = (type: DaemonEvent['type']) => ({ seq: 8, at: 600, session_id: 's_a', type }) as unknown as DaemonEvent;

describe('summariesOf', () => {
  it('keeps every field of GET /sessions but controls (no event carries them; the overview does not show them)', () => {
    const { controls: _controls, ...rest } = detail;
    expect(summariesOf([detail])).toEqual([rest]);
    expect(a).not.toHaveProperty('controls');
  });
});

describe('applySessionEvent: session.state', () => {
  it('sets the state, the modal and the time it moved, in a new list with a new entry; the others and the input stay', () => {
    const list = [a, b];
    const change = applySessionEvent(list, stateEvent());
    expect(change).toEqual({ kind: 'changed', list: [{ ...a, state: busy, modal: null, state_since: 500 }, b] });
    if (change.kind !== 'changed') return;
    expect(change.list).not.toBe(list);
    expect(change.list[1]).toBe(b);
    expect(list).toEqual([a, b]);
  });

  it('keeps state_since when the state id and status stay (a modal, its cursor or background work changed)', () => {
    const background = { count: 1, what: '1 background shell', items: [{ id: 'shell', count: 1 }] };
    const withWork = applySessionEvent([a], stateEvent({ state: { ...idle, background }, modal }));
    expect(withWork).toEqual({ kind: 'changed', list: [{ ...a, state: { ...idle, background }, modal, state_since: 100 }] });
  });

  it('moves state_since when only the status changed, or when the list had no state yet', () => {
    const sameIdOtherStatus = applySessionEvent([a], stateEvent({ state: { ...idle, status: 'waiting_external' } }));
    expect(sameIdOtherStatus).toMatchObject({ kind: 'changed', list: [{ state_since: 500 }] });
    const none = applySessionEvent([{ ...a, state: null, state_since: null }], stateEvent({ state: idle }));
    expect(none).toMatchObject({ kind: 'changed', list: [{ state: idle, state_since: 500 }] });
  });

  it('clears the modal the event no longer has', () => {
    expect(applySessionEvent([{ ...a, modal }], stateEvent({ state: idle, modal: null }))).toMatchObject({ kind: 'changed', list: [{ modal: null }] });
  });

  it('reads again for a session the list does not have', () => {
    expect(applySessionEvent([b], stateEvent())).toMatchObject({ kind: 'reload' });
  });

  it('reads again for a session listed as not running: its run started since (pid, times, lifecycle)', () => {
    for (const lifecycle of ['starting', 'exited', 'failed'] as const) {
      expect(applySessionEvent([{ ...a, lifecycle }], stateEvent())).toMatchObject({ kind: 'reload' });
    }
  });
});

describe('applySessionEvent: the other events', () => {
  it('reads again when a session is created, removed, exits or fails, or its spec errs', () => {
    const created: DaemonEvent = { seq: 9, at: 600, session_id: 's_c', type: 'session.created', session: { ...detail, id: 's_c' } };
    const exited: DaemonEvent = { seq: 9, at: 600, session_id: 's_a', type: 'session.exited', code: 0, signal: null };
    for (const event of [created, exited, bare('session.removed'), bare('session.error'), bare('spec.error')]) {
      expect(applySessionEvent([a, b], event), event.type).toEqual({ kind: 'reload', why: event.type });
    }
  });

  it('changes nothing for text, tasks and notifications (an approval comes with its own session.state)', () => {
    for (const type of ['transcript.turn', 'task.updated', 'turn.finished', 'approval.needed', 'approval.answered'] as const) {
      expect(applySessionEvent([a, b], bare(type)), type).toEqual({ kind: 'same' });
    }
  });

  it('reads again for an event type it does not know (a newer daemon)', () => {
    expect(applySessionEvent([a], bare('session.renamed' as DaemonEvent['type']))).toEqual({ kind: 'reload', why: 'session.renamed' });
  });
});
