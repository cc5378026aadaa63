/**
 * Where each object of the fleet lives. Ids are unique only within a node, so the hub names an
 * object either by its node's id (`s_7f3a9c`: what every answer carries, with `node`) when only
 * one node has it, or by its **fleet id** `<node>_<id>` (`build-01_s_7f3a9c`), which is never
 * ambiguous: node names hold no `_`, so the first `_` ends the node. A bare id two nodes share is
 * refused (SESSION_AMBIGUOUS, naming both fleet ids), never guessed. The index learns from the
 * presence records, from every list the hub gathers and from the event stream.
 * @module
 */
import { SpectermError, type Approval, type DaemonEvent, type ErrorCode, type SessionDetail } from '../protocol/index.js';
import type { PresenceRecord } from '../nats/node-link.js';

export type ObjectKind = 'session' | 'approval' | 'task' | 'recording';

/** An object's place: its node and its id there. */
export interface Placed { node: string; id: string }

const NOT_FOUND: Record<ObjectKind, ErrorCode> = { session: 'SESSION_NOT_FOUND', approval: 'APPROVAL_NOT_FOUND', task: 'TASK_NOT_FOUND', recording: 'RECORDING_NOT_FOUND' };
const LIST: Record<ObjectKind, string> = { session: 'GET /api/v1/sessions', approval: 'GET /api/v1/approvals', task: 'GET /api/v1/tasks', recording: 'GET /api/v1/recordings' };

/** The fleet id of `id` on `node`. */
export function fleetId(node: string, id: string): string {
  return `${node}_${id}`;
}

/** A fleet id of `node` as that node's own id; any other id as it is. */
export function ownIdOn(node: string, ref: string): string {
  return ref.startsWith(`${node}_`) ? ref.slice(node.length + 1) : ref;
}

export class FleetIndex {
  readonly #byNode = new Map<string, Record<ObjectKind, Set<string>>>();

  /** The nodes known (from presence, lists or events). */
  nodes(): string[] {
    return [...this.#byNode.keys()].sort();
  }

  /** Replaces what `node` has of `kind` (a fresh list from it). */
  setAll(node: string, kind: ObjectKind, ids: Iterable<string>): void {
    this.#of(node)[kind] = new Set(ids);
  }

  add(node: string, kind: ObjectKind, id: string): void {
    this.#of(node)[kind].add(id);
  }

  /** A node's presence record (its sessions are its, until a list says otherwise); null: the node left the bucket. */
  notePresence(node: string, record: PresenceRecord | null): void {
    if (record === null) this.#byNode.delete(node);
    else for (const s of record.sessions) this.#of(node).session.add(s.id);
  }

  noteSessions(node: string, sessions: readonly SessionDetail[]): void {
    this.setAll(node, 'session', sessions.map((s) => s.id));
  }

  noteApprovals(node: string, approvals: readonly Approval[]): void {
    this.setAll(node, 'approval', approvals.map((a) => a.id));
  }

  /** Keeps up with one node's event. */
  noteEvent(node: string, event: DaemonEvent): void {
    const of = this.#of(node);
    if (event.type === 'session.created') of.session.add(event.session_id);
    else if (event.type === 'session.removed') of.session.delete(event.session_id);
    else if (event.type === 'approval.needed') of.approval.add(event.approval.id);
    else if (event.type === 'task.updated') of.task.add(event.task.id);
  }

  /**
   * The place of `ref` (a node's id or a fleet id), or throws: not found (the kind's code) or
   * ambiguous (SESSION_AMBIGUOUS). A fleet id whose node is known goes to that node even when
   * the index has not seen the id yet: the node answers for itself.
   */
  place(kind: ObjectKind, ref: string): Placed {
    const candidates: Placed[] = [];
    for (const [node, of] of this.#byNode) if (of[kind].has(ref) || (kind === 'approval' && ownsApproval(of, ref))) candidates.push({ node, id: ref });
    const cut = ref.indexOf('_');
    const prefixed = cut > 0 && this.#byNode.has(ref.slice(0, cut)) ? { node: ref.slice(0, cut), id: ref.slice(cut + 1) } : null;
    if (prefixed) {
      const of = this.#byNode.get(prefixed.node)!;
      if (of[kind].has(prefixed.id) || (kind === 'approval' && ownsApproval(of, prefixed.id)) || candidates.length === 0) candidates.push(prefixed);
    }
    if (candidates.length === 1) return candidates[0]!;
    if (candidates.length > 1) {
      throw new SpectermError({
        code: 'SESSION_AMBIGUOUS', title: 'More than one node has that id',
        detail: `the ${kind} id '${ref}' names one on each of ${candidates.map((c) => `'${c.node}'`).join(', ')}; use its fleet id: ${candidates.map((c) => fleetId(c.node, c.id)).join(' or ')}`,
        extensions: { candidates: candidates.map((c) => fleetId(c.node, c.id)) },
      });
    }
    const nodes = this.nodes();
    throw new SpectermError({
      code: NOT_FOUND[kind],
      detail: `no node of this fleet (${nodes.length ? nodes.join(', ') : 'none linked yet'}) has the ${kind} '${ref}'; list them with ${LIST[kind]}, and name one by its ${kind === 'recording' ? 'name' : 'id'} or its fleet id <node>_${kind === 'recording' ? '<name>' : '<id>'}`,
    });
  }

  #of(node: string): Record<ObjectKind, Set<string>> {
    let of = this.#byNode.get(node);
    if (!of) this.#byNode.set(node, of = { session: new Set(), approval: new Set(), task: new Set(), recording: new Set() });
    return of;
  }
}

/** An approval's wire id starts with its session's id and a dash (`<session>-<seq>-<fingerprint>`). */
function ownsApproval(of: Record<ObjectKind, Set<string>>, approvalId: string): boolean {
  for (const session of of.session) if (approvalId.startsWith(`${session}-`)) return true;
  return false;
}
