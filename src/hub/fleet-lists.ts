/**
 * The hub's lists: the union over the fleet's nodes (every node in the presence bucket, asked in
 * parallel with a short timeout). A node that does not answer — or whose presence record is
 * stale, so it is not even asked — contributes what the hub last knew of it, each item marked
 * `unreachable: {since}` (when the node was last heard from): a lost node never fails the list.
 * A refusal of the caller (its token, its scope) is the list's answer: every node would say so.
 * @module
 */
import type { RequestContext } from '../ops/contracts.js';
import { SpectermError, type Approval, type RecordingInfo, type SessionDetail, type Task, type TranscriptSearchHit } from '../protocol/index.js';
import type { PresenceRecord } from '../nats/node-link.js';
import type { FleetIndex } from './fleet-index.js';
import { PRESENCE_STALE_MS, type FleetPresence } from './fleet-presence.js';
import type { HubCall } from './hub-call.js';

type Answer<T> = { node: string; items: T[] } | { node: string; lost: { since: number } };

export interface FleetListDeps {
  presence: () => FleetPresence;
  index: FleetIndex;
  call: HubCall;
  now: () => number;
  /** The hub's newest event seq: the list's `event_seq`, where a `sessions` subscription goes on from. */
  eventSeq?: () => number;
}

/** What the caller's own token earns everywhere: not a node's fault, so it is the answer. */
const CALLER_REFUSALS = new Set(['AUTH_REQUIRED', 'AUTH_INVALID', 'AUTH_LOCKED_OUT', 'AUTH_THROTTLED', 'SCOPE_INSUFFICIENT', 'RATE_LIMITED']);

export function fleetListRoutes(d: FleetListDeps) {
  const known = { session: new Map<string, SessionDetail[]>(), approval: new Map<string, Approval[]>(), task: new Map<string, Task[]>(), recording: new Map<string, RecordingInfo[]>() };

  /**
   * Asks every node for `op`'s list under `key` (with `query`); a node that does not answer is
   * `lost`. `last` keeps each node's items for when it does not.
   */
  async function gather<T extends { node?: string }>(op: string, key: string, last: Map<string, T[]> | null, ctx: RequestContext, query?: Record<string, unknown>): Promise<Array<Answer<T>>> {
    const presence = d.presence();
    return await Promise.all(presence.nodes().map(async (node): Promise<Answer<T>> => {
      const record = presence.record(node)!;
      const lost = { node, lost: { since: record.at } };
      if (d.now() - record.at > PRESENCE_STALE_MS) return lost;
      try {
        const answer = await d.call.forward(node, op, { ctx, query });
        const items = ((answer as Record<string, T[]>)[key] ?? []).map((item) => ({ ...item, node: item.node ?? node }));
        last?.set(node, items);
        return { node, items };
      } catch (error) {
        if (error instanceof SpectermError && CALLER_REFUSALS.has(error.code)) throw error;
        return lost;
      }
    }));
  }

  /** The items of every answer, a lost node's last known ones marked unreachable. */
  function union<T>(answers: Array<Answer<T>>, last: Map<string, T[]>, fallback: (node: string) => T[] = () => []): T[] {
    return answers.flatMap((a) => 'items' in a ? a.items : (last.get(a.node) ?? fallback(a.node)).map((item) => ({ ...item, unreachable: a.lost })));
  }

  return {
    listSessions: async (_input: unknown, ctx: RequestContext) => {
      // Read before the nodes are asked: an event that lands meanwhile is replayed, never skipped.
      const eventSeq = d.eventSeq?.();
      const answers = await gather<SessionDetail>('listSessions', 'sessions', known.session, ctx);
      for (const a of answers) if ('items' in a) d.index.noteSessions(a.node, a.items);
      return { ...(eventSeq === undefined ? {} : { event_seq: eventSeq }), sessions: union(answers, known.session, (node) => fromPresence(d.presence().record(node))) };
    },
    listApprovals: async (_input: unknown, ctx: RequestContext) => {
      const answers = await gather<Approval>('listApprovals', 'approvals', known.approval, ctx);
      for (const a of answers) if ('items' in a) d.index.noteApprovals(a.node, a.items);
      return { approvals: union(answers, known.approval) };
    },
    /**
     * Every node's transcripts searched, the hits merged newest first (a hit with no time last)
     * up to the limit; the nodes that did not answer are named, never silently left out.
     */
    searchTranscripts: async (input: { query: { q: string; limit: number } }, ctx: RequestContext) => {
      const answers = await gather<TranscriptSearchHit>('searchTranscripts', 'hits', null, ctx, input.query);
      const hits = answers.flatMap((a) => ('items' in a ? a.items : [])).sort((a, b) => (b.at ?? -Infinity) - (a.at ?? -Infinity));
      const unanswered = answers.flatMap((a) => ('lost' in a ? [{ node: a.node, since: a.lost.since }] : []));
      return { hits: hits.slice(0, input.query.limit), ...(unanswered.length ? { unanswered } : {}) };
    },
    /** Every node's recordings, newest first; a node that does not answer lists its last known ones, marked. */
    listRecordings: async (_input: unknown, ctx: RequestContext) => {
      const answers = await gather<RecordingInfo>('listRecordings', 'recordings', known.recording, ctx);
      for (const a of answers) if ('items' in a) d.index.setAll(a.node, 'recording', a.items.map((r) => r.name));
      return { recordings: union(answers, known.recording).sort((a, b) => Number(b.active) - Number(a.active) || b.created_at - a.created_at) };
    },
    listTasks: async (_input: unknown, ctx: RequestContext) => {
      const answers = await gather<Task>('listTasks', 'tasks', known.task, ctx);
      for (const a of answers) if ('items' in a) d.index.setAll(a.node, 'task', a.items.map((t) => t.id));
      return { tasks: union(answers, known.task).sort((a, b) => b.created_at - a.created_at) };
    },
  };
}

/** A session as a presence record has it (the hub never got a full list from its node). */
function fromPresence(record: PresenceRecord | undefined): SessionDetail[] {
  if (!record) return [];
  return record.sessions.map((s) => ({
    id: s.id, node: record.node, name: s.name, labels: {}, lifecycle: s.lifecycle as SessionDetail['lifecycle'],
    state: s.state === null || s.status === null ? null : { id: s.state, label: s.state, title: null, status: s.status as NonNullable<SessionDetail['state']>['status'] },
    modal: null, controls: [], cwd: '', branch: null, spec: { id: 'unknown', version: null, proven_versions: [] },
    pid: null, cols: 80, rows: 24, exit: null, created_at: 0, started_at: null, exited_at: null, state_since: null,
  }));
}
