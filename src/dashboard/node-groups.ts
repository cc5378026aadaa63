/**
 * The overview of a fleet, grouped by machine: one group per node, in the order of their names
 * (a machine's place never jumps as its agents change state: a person finds "build-01" where it
 * was), each group's sessions in the order they were given (whoever needs a person first). A
 * list with one node — or none, an old daemon — is one group without a heading: a fleet of one
 * looks exactly like a single daemon's dashboard.
 * @module
 */
import type { SessionDetail } from '../protocol/sessions.js';
import { badgeOf } from './attention.js';

export interface NodeGroup<S extends Pick<SessionDetail, 'node'> = SessionDetail> {
  /** The node's name; null for the one group of a single machine. */
  node: string | null;
  sessions: S[];
}

/** Groups `sessions` (already sorted) by node; one unnamed group when they all share one. */
export function groupByNode<S extends Pick<SessionDetail, 'node'>>(sessions: readonly S[]): NodeGroup<S>[] {
  const byNode = new Map<string, S[]>();
  for (const session of sessions) {
    const node = session.node ?? '';
    const list = byNode.get(node);
    if (list) list.push(session);
    else byNode.set(node, [session]);
  }
  if (byNode.size <= 1) return [{ node: null, sessions: [...sessions] }];
  return [...byNode.keys()].sort((a, b) => a.localeCompare(b)).map((node) => ({ node, sessions: byNode.get(node)! }));
}

/** "3 sessions · 1 needs approval": a group's heading, so a collapsed glance still says where to look. */
export function groupSummary(sessions: readonly SessionDetail[]): string {
  const waiting = sessions.filter((s) => badgeOf(s) === 'approval').length;
  const count = `${sessions.length} session${sessions.length === 1 ? '' : 's'}`;
  return waiting > 0 ? `${count} · ${waiting} need${waiting === 1 ? 's' : ''} approval` : count;
}
