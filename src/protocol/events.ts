/**
 * Events a subscriber receives (SSE `GET /api/v1/events` and WS topics). Every event has a
 * daemon-wide `seq` (the SSE id, the resume point) and a namespaced `type`.
 * @module
 */
import { z } from 'zod';
import { EpochMs, Id } from './common.js';
import { NodeName } from './node.js';
import { Turn } from './transcripts.js';
import { Task } from './tasks.js';
import { Approval } from './approvals.js';
import { KilledBy, ModalView, SessionDetail, StateView } from './sessions.js';

const base = {
  seq: z.number().int().positive(), at: EpochMs, session_id: Id, node: NodeName.optional(),
  node_seq: z.number().int().positive().optional().meta({ description: 'served by a hub: the seq the event has on its node (`seq` is the hub\'s own)' }),
};
/** On a notification event: the session was muted when it happened, so no sink interrupts anyone with it. */
const muted = { muted: z.literal(true).optional().meta({ description: 'the session is muted: shown where it belongs, but no toast, push, desktop notification or webhook' }) };

/** The notification events (issue 15 item 9) plus the session-list changes a UI needs. */
export const DaemonEvent = z.discriminatedUnion('type', [
  z.strictObject({ ...base, type: z.literal('session.created'), session: SessionDetail }),
  z.strictObject({ ...base, type: z.literal('session.removed') }),
  z.strictObject({ ...base, type: z.literal('session.state'), state: StateView, modal: ModalView.nullable() }),
  z.strictObject({ ...base, type: z.literal('approval.needed'), ...muted, approval: Approval }),
  z.strictObject({ ...base, type: z.literal('approval.answered'), approval_id: Id, button: z.string(), by: z.string() }),
  z.strictObject({ ...base, type: z.literal('turn.finished'), ...muted, state: StateView, duration_ms: z.number().int().nonnegative() }),
  z.strictObject({ ...base, type: z.literal('session.exited'), ...muted, code: z.number().int().nullable(), signal: z.string().nullable(), killed_by: KilledBy.optional() }),
  z.strictObject({ ...base, type: z.literal('session.error'), ...muted, code: z.string(), message: z.string() }),
  z.strictObject({ ...base, type: z.literal('spec.error'), ...muted, errors: z.array(z.string()) }),
  z.strictObject({ ...base, type: z.literal('transcript.turn'), turn: Turn }),
  z.strictObject({ ...base, type: z.literal('task.updated'), task: Task }),
]);
export type DaemonEvent = z.infer<typeof DaemonEvent>;
/** Whether `event` comes from a muted session: shown where it belongs, but it interrupts nobody. */
export function isMutedEvent(event: DaemonEvent): boolean {
  return 'muted' in event && event.muted === true;
}

/** Every event type, for filters and docs. */
export type DaemonEventType = DaemonEvent['type'];

/** `GET /api/v1/events` query: resume is by the `Last-Event-ID` header (or `since` for non-browser clients). */
export const EventsQuery = z.strictObject({
  since: z.coerce.number().int().nonnegative().optional(),
  session_id: Id.optional(),
});
