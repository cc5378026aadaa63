/**
 * The NATS adapter of the operations layer: a request on `specterm.<node>.ops` is one call of
 * the one executor (src/ops/executor.ts) — the same scopes, rate limits and audit (`via: nats`)
 * as HTTP. The request is JSON `{op, token, params?, query?, body?}` (plus `subscription`: a
 * terminal's lease and resize run as the topic subscription it names); the reply is
 * `{ok: true, answer}` or `{ok: false, error: {code, title, detail, errors}}`. The token is a
 * device token of this node (or the fleet's, once the hub issues them); it travels in the
 * message body, never in a subject, and is never logged.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { callerSessionOf } from '../ops/caller-session.js';
import type { RequestContext } from '../ops/contracts.js';
import type { Operations } from '../ops/executor.js';
import { OPERATIONS } from '../ops/operations.js';
import type { Principal } from '../ops/principal.js';
import { SpectermError } from '../protocol/index.js';
import { refusalReply } from './wire-error.js';

/** Operations that exist only for one transport: the browser's tickets and cookies, streams. */
const NOT_OVER_NATS = new Set(['createWsTicket', 'pair', 'signOut', 'events', 'subscribeTopic', 'openapi']);

export interface OpsRequest { op: string; token?: string; caller_session?: string; subscription?: string; params?: Record<string, unknown>; query?: Record<string, string>; body?: unknown }

export interface OpsServiceDeps {
  operations: Operations;
  authenticate: (secret: string | undefined, address: string) => Principal | Promise<Principal>;
  onUnexpected: (error: unknown) => void;
  /**
   * The context of one of the caller's topic subscriptions (./topic-bridge.ts): a terminal's
   * lease and resize belong to the viewer that asks, so a request naming `subscription` runs as it.
   */
  subscriptionContext?: (subscription: string, principal: Principal) => RequestContext;
}

/** Answers one request's bytes; never throws. */
export async function answerOpsRequest(data: Uint8Array, deps: OpsServiceDeps): Promise<string> {
  try {
    const request = parseRequest(data);
    const principal = await deps.authenticate(request.token, 'nats');
    const ctx: RequestContext = request.subscription !== undefined && deps.subscriptionContext
      ? deps.subscriptionContext(request.subscription, principal)
      : { principal, requestId: randomUUID(), remoteAddress: 'nats', via: 'nats', ...callerSessionOf(request.caller_session, '"caller_session"') };
    const answer = await deps.operations.call(request.op, { params: request.params, query: request.query, body: request.body, label: `the NATS operation ${request.op}` }, ctx);
    return JSON.stringify({ ok: true, answer: answer ?? null });
  } catch (error) {
    return refusalReply(error, deps.onUnexpected);
  }
}

function parseRequest(data: Uint8Array): OpsRequest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(data));
  } catch {
    throw new SpectermError({ code: 'BODY_MALFORMED_JSON', detail: 'the NATS request is not JSON; send {"op": "<operation id>", "token": "…", "params": {…}, "body": {…}}' });
  }
  const r = value as Partial<OpsRequest> | null;
  if (!r || typeof r !== 'object' || Array.isArray(r) || typeof r.op !== 'string') {
    throw new SpectermError({ code: 'VALIDATION_FAILED', detail: 'a NATS request is an object {"op": "<operation id>", "token": "…", …}; "op" is missing', errors: [{ path: '/op', code: 'required', message: 'name the operation, e.g. "listSessions"' }] });
  }
  if (!(r.op in OPERATIONS) || NOT_OVER_NATS.has(r.op)) {
    throw new SpectermError({ code: 'OPERATION_UNKNOWN', detail: `'${r.op.slice(0, 64)}' is not an operation served over NATS; the operations are the route table's ids (GET /api/v1/openapi.json, operationId), e.g. listSessions, sendMessage`, errors: [{ path: '/op', code: 'unknown', message: `unknown operation '${r.op.slice(0, 64)}'` }] });
  }
  for (const key of ['params', 'query'] as const) {
    const v = r[key];
    if (v !== undefined && (typeof v !== 'object' || v === null || Array.isArray(v))) {
      throw new SpectermError({ code: 'VALIDATION_FAILED', detail: `"${key}" must be an object of names to values`, errors: [{ path: `/${key}`, code: 'invalid_type', message: `"${key}" must be an object` }] });
    }
  }
  if (r.subscription !== undefined && typeof r.subscription !== 'string') {
    throw new SpectermError({ code: 'VALIDATION_FAILED', detail: '"subscription" must be the id a topic subscription was opened with (specterm.<node>.topics answers it)', errors: [{ path: '/subscription', code: 'invalid_type', message: '"subscription" must be a string' }] });
  }
  if (r.token !== undefined && typeof r.token !== 'string') {
    throw new SpectermError({ code: 'VALIDATION_FAILED', detail: '"token" must be a string: a device token of this node', errors: [{ path: '/token', code: 'invalid_type', message: '"token" must be a string' }] });
  }
  return r as OpsRequest;
}
