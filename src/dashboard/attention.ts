/**
 * Which session needs a person first: a modal up (approval, picker, confirm) before an idle
 * agent waiting for its next prompt, before one still working, before exited ones; within a
 * rank, the one waiting longest first. The badge each session shows comes from the same place.
 * A modal the person opened (`opened_by: "person"`) waits for nobody and ranks as idle.
 * @module
 */
import type { SessionDetail } from '../protocol/sessions.js';

export type Badge = 'approval' | 'idle' | 'generating' | 'waiting' | 'starting' | 'exited' | 'failed';

/** Whether a person opened the modal themselves (nobody waits on it). */
export function isOpenedByPerson(modal: { opened_by?: 'person' | 'agent' }): boolean {
  return modal.opened_by === 'person';
}

/**
 * The one status word a session shows. A modal the person opened themselves (the model picker
 * after `/model`) waits for nobody: it badges the session as idle, never as needing approval.
 */
export function badgeOf(session: SessionDetail): Badge {
  if (session.lifecycle === 'exited') return 'exited';
  if (session.lifecycle === 'failed') return 'failed';
  const personsOwn = session.modal !== null && isOpenedByPerson(session.modal);
  if (!personsOwn && (session.modal !== null || session.state?.status === 'approval')) return 'approval';
  if (session.lifecycle === 'starting' || session.state === null) return 'starting';
  if (session.state.status === 'waiting_external') return 'waiting';
  return session.state.status === 'approval' ? 'idle' : session.state.status;
}

const RANK: Record<Badge, number> = { approval: 0, idle: 1, failed: 2, waiting: 3, generating: 4, starting: 5, exited: 6 };

/** A new array: whoever needs a person first, longest waiting first, then by name/id (stable). */
export function sortByAttention(sessions: readonly SessionDetail[]): SessionDetail[] {
  return [...sessions].sort((a, b) =>
    RANK[badgeOf(a)] - RANK[badgeOf(b)]
    || (a.state_since ?? a.created_at) - (b.state_since ?? b.created_at)
    || (a.name ?? a.id).localeCompare(b.name ?? b.id));
}

/** "12 s", "4 min", "3 h", "2 d": how long a session has been in its state. */
export function durationLabel(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}
