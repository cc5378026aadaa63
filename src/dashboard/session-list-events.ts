/**
 * What one `sessions` event does to the overview's session list, worked out from the event alone
 * where the daemon (src/daemon/managed-session.ts) says exactly what changed, else "read the list
 * again". Only `session.state` changes a listed session in place: the daemon appends it with the
 * state and the modal it keeps, and sets `state_since` to the event's time exactly when the state
 * id or status moved. Everything else a session summary holds (lifecycle, pid, exit, started_at…)
 * moves with an event that cannot say all of it — a session created, exited, failed or removed —
 * so those are read again; events that change no field of the list change nothing.
 *
 * The list does not keep `controls` (the spec's buttons per state, which no event carries and the
 * overview never shows: the session page reads its own): a state event would otherwise need a read.
 * @module
 */
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';

/** A session as the overview keeps it: `GET /sessions`' answer less its `controls`. */
export type SessionSummary = Omit<SessionDetail, 'controls'>;

/** The list as the overview keeps it, from one answer of `GET /sessions`. */
export function summariesOf(sessions: readonly SessionDetail[]): SessionSummary[] {
  return sessions.map(({ controls: _controls, ...summary }) => summary);
}

/** What an event does to the list: nothing, a new list, or read it again (`why`, for debugging). */
export type ListChange =
  | { kind: 'same' }
  | { kind: 'changed'; list: SessionSummary[] }
  | { kind: 'reload'; why: string };

const SAME: ListChange = { kind: 'same' };
const reload = (why: string): ListChange => ({ kind: 'reload', why });

/** `event` applied to `list` (never changed in place: a changed list is a new array with a new entry). */
export function applySessionEvent(list: readonly SessionSummary[], event: DaemonEvent): ListChange {
  switch (event.type) {
    case 'session.state': return applyState(list, event);
    // Text, tasks and notifications: no field of a session summary. An approval that opens or
    // closes comes with its own `session.state` (the modal), right after.
    case 'transcript.turn':
    case 'task.updated':
    case 'turn.finished':
    case 'approval.needed':
    case 'approval.answered':
      return SAME;
    // Created, removed, exited, failed, a spec error — and any type added later: read again.
    default: return reload(event.type);
  }
}

function applyState(list: readonly SessionSummary[], event: Extract<DaemonEvent, { type: 'session.state' }>): ListChange {
  const at = list.findIndex((s) => s.id === event.session_id);
  if (at < 0) return reload('a state of a session the list does not have');
  const session = list[at]!;
  // Not running as listed: the run started (or restarted) since, with a pid and times no event carries.
  if (session.lifecycle !== 'running') return reload(`a state of a session listed as ${session.lifecycle}`);
  const previous = session.state;
  const moved = previous === null || previous.id !== event.state.id || previous.status !== event.state.status;
  const next = [...list];
  next[at] = { ...session, state: event.state, modal: event.modal, state_since: moved ? event.at : session.state_since };
  return { kind: 'changed', list: next };
}
