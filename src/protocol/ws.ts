/**
 * The WebSocket at `/api/v1/ws`: client messages (JSON text frames) and server messages.
 * Terminal bytes travel as binary frames (see `terminal-frame.ts`).
 * @module
 */
import { z } from 'zod';
import { ByteSeq, Cols, Id, Rows } from './common.js';
import { DaemonEvent } from './events.js';
import { ScopeSchema } from './tokens.js';

/**
 * A topic: `sessions` (the session list and every event), `session/<id>` (one session's events)
 * or `terminal/<id>` (one session's terminal: a snapshot, then raw bytes).
 */
export const Topic = z.string().regex(/^(sessions|(?:session|terminal|transcript)\/[A-Za-z0-9_-]{1,64})$/,
  'a topic is "sessions", "session/<id>", "transcript/<id>" or "terminal/<id>"');
export type Topic = z.infer<typeof Topic>;

/**
 * Close codes the server uses. The dashboard signs out on POLICY (a revoked token) and
 * reconnects, resuming with `since`, on any other.
 */
export const WS_CLOSE = {
  /** The server is shutting down. */
  GOING_AWAY: 1001,
  /** A message the protocol forbids: an `ack` beyond the bytes the subscription sent. */
  PROTOCOL_ERROR: 1002,
  /** Policy: the token was revoked, or too many invalid messages. */
  POLICY: 1008,
  /** A message over `max_message_bytes`. */
  MESSAGE_TOO_BIG: 1009,
  /** The client reads too slowly: its unsent backlog passed the server's bound. Reconnect and resume with `since`. */
  TOO_SLOW: 4001,
} as const;

/** A client-chosen correlation id, echoed on the answer (or the error). */
const ref = z.string().max(64).optional();

export const SubscribeMessage = z.strictObject({ type: z.literal('subscribe'), ref, topic: Topic, since: ByteSeq.optional().meta({ description: 'resume after this seq (event seq or byte seq)' }) });
export const InputMessage = z.strictObject({ type: z.literal('input'), ref, session_id: Id, data: z.string().min(1).max(4096) });
export const ResizeMessage = z.strictObject({ type: z.literal('resize'), ref, session_id: Id, cols: Cols, rows: Rows });
export const LeaseMessage = z.strictObject({ type: z.literal('lease'), ref, session_id: Id, action: z.enum(['acquire', 'release']) });

export const ClientMessage = z.discriminatedUnion('type', [
  SubscribeMessage,
  z.strictObject({ type: z.literal('unsubscribe'), ref, topic: Topic }),
  z.strictObject({ type: z.literal('ack'), topic: Topic, bytes: ByteSeq.meta({ description: 'the byte seq the client has rendered up to' }) }),
  InputMessage,
  ResizeMessage,
  LeaseMessage,
  z.strictObject({ type: z.literal('ping'), ref }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export type ClientMessageType = ClientMessage['type'];

export const ServerMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('hello'), protocol_version: z.number().int().positive(), scope: ScopeSchema, max_message_bytes: z.number().int().positive(),
    /** The caller's token (additive): the dashboard marks "this browser" among the devices. */
    device: z.strictObject({ id: z.string(), name: z.string() }).optional(),
  }),
  z.strictObject({ type: z.literal('subscribed'), ref, topic: Topic }),
  z.strictObject({ type: z.literal('unsubscribed'), ref, topic: Topic }),
  z.strictObject({ type: z.literal('snapshot'), topic: Topic, seq: ByteSeq, data: z.string(), cols: Cols, rows: Rows }),
  z.strictObject({ type: z.literal('event'), topic: Topic, event: DaemonEvent }),
  z.strictObject({ type: z.literal('lease'), ref, session_id: Id, holder: z.enum(['you', 'other', 'none']) }),
  z.strictObject({ type: z.literal('ok'), ref }),
  z.strictObject({ type: z.literal('pong'), ref }),
  z.strictObject({
    type: z.literal('error'), ref, code: z.string(), message: z.string(),
    errors: z.array(z.strictObject({ path: z.string(), code: z.string(), message: z.string() })),
  }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
