/**
 * Every operation specterm serves, whatever carries it: the route table's (which also names
 * their HTTP binding) and the ones only live channels carry today (a terminal's input, resize
 * and lease, a topic subscription). One entry = id, scope, rate-limit class, input schemas,
 * answer schema; the executor runs them all the same way.
 * @module
 */
import { z } from 'zod';
import { InputMessage, LeaseMessage, ResizeMessage, ROUTES, SubscribeMessage, type Scope } from '../protocol/index.js';

/** What the executor needs of an operation (a `RouteDef` is one). */
export interface OperationDef {
  readonly id: string;
  /** The least scope a caller needs. */
  readonly scope: Scope;
  /** It types into an agent: rate-limited (per token) and audited, whatever the outcome. */
  readonly keystrokes?: boolean;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The answer's schema: an answer outside it is the daemon's bug, never sent. */
  readonly response?: z.ZodType;
  /** The success status the audit records (200 unless said). */
  readonly status?: number;
  /** Its answer is a stream (SSE events, a topic's messages), opened with `Operations.open`. */
  readonly stream?: 'sse' | 'topic';
}

const LeaseAnswer = z.enum(['you', 'other', 'none']);

/** The operations only live channels carry: their input is the channel's message. */
export const LIVE_OPERATIONS = {
  subscribeTopic: { id: 'subscribeTopic', scope: 'read', body: SubscribeMessage, stream: 'topic' },
  terminalInput: { id: 'terminalInput', scope: 'input', keystrokes: true, body: InputMessage, response: z.undefined() },
  terminalResize: { id: 'terminalResize', scope: 'input', body: ResizeMessage, response: z.undefined() },
  terminalLease: { id: 'terminalLease', scope: 'input', body: LeaseMessage, response: LeaseAnswer },
} as const satisfies Record<string, OperationDef>;

export const OPERATIONS: Readonly<Record<string, OperationDef>> = { ...ROUTES, ...LIVE_OPERATIONS };

export type LiveOperationId = keyof typeof LIVE_OPERATIONS;
