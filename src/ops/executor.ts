/**
 * THE operations executor: every call, by any transport, runs here in the order that leaks the
 * least — scope → rate limit (keystroke operations) → input validation (params, query, then the
 * body, read only now) → handler → answer check → audit. Transports only authenticate, route
 * and frame (src/server: HTTP, SSE, WebSocket); whatever they carry, a caller gets the same
 * refusals with the same codes, and every keystroke is audited whatever its outcome.
 * @module
 */
import { scopeAllows, SpectermError } from '../protocol/index.js';
import type { AuditEntry, RequestContext, RouteHandlers, SseHandler, WsHandlers } from './contracts.js';
import { toSpectermError } from './errors.js';
import { OPERATIONS, type OperationDef } from './operations.js';
import { forbiddenScope } from './principal.js';
import { takeOrRefuse, type RateLimiter } from './rate-limiter.js';
import { parseOrThrow } from './validate.js';

type Handler = (input: any, ctx: RequestContext, sink?: any) => unknown;

export interface OperationsOptions {
  /** The request/answer operations, by id. */
  handlers: Record<string, Handler | undefined> | RouteHandlers;
  /** The event stream (`events`). */
  events?: SseHandler;
  /** The live channels' operations. */
  live?: WsHandlers;
  rateLimiter: RateLimiter;
  audit?: (entry: AuditEntry) => void;
  now: () => number;
  /** Where an error no caller should see goes (the daemon log). */
  onUnexpected: (error: unknown) => void;
}

/** A call's raw input as its transport found it; `body` may be read lazily (after the cheap checks). */
export interface RawInput {
  params?: Record<string, unknown>;
  query?: Record<string, string>;
  body?: unknown | (() => Promise<unknown>);
  /** How the caller names what it called, for messages (`POST /api/v1/sessions/d2/messages`). */
  label: string;
  /** Extra input the transport knows, given the validated input (SSE: the resume point from Last-Event-ID or `since`). */
  extra?: (input: OperationInput) => Record<string, unknown>;
}

export interface OperationInput { params: any; query: any; body: any }

export class Operations {
  readonly #options: OperationsOptions;
  readonly #handlers: Record<string, Handler | undefined>;

  constructor(options: OperationsOptions) {
    this.#options = options;
    const live = options.live ?? {};
    // A live operation's input is its channel's message (the body); its handler takes that.
    const onMessage = (handler: ((message: any, ctx: RequestContext, sink?: any) => unknown) | undefined): Handler | undefined =>
      handler && ((input, ctx, sink) => handler(input.body, ctx, sink));
    this.#handlers = {
      ...(options.handlers as Record<string, Handler | undefined>),
      events: options.events as Handler | undefined,
      subscribeTopic: onMessage(live.subscribe),
      terminalInput: onMessage(live.input),
      terminalResize: onMessage(live.resize),
      terminalLease: onMessage(live.lease),
    };
  }

  /** The same executor (rate limits, audit) with more handlers: a transport's own operations (tokens, pairing). */
  with(handlers: Record<string, Handler | undefined>): Operations {
    return new Operations({ ...this.#options, handlers: { ...this.#handlers, ...handlers } });
  }

  /** Whether a handler serves `id`. */
  serves(id: string): boolean {
    return this.#handlers[id] !== undefined;
  }

  /** Runs a request/answer operation; resolves to its checked answer, rejects with a `SpectermError`. */
  async call(id: string, raw: RawInput, ctx: RequestContext): Promise<unknown> {
    const def = definitionOf(id);
    let input: OperationInput | undefined;
    let body: unknown;
    try {
      this.#admit(def, ctx, raw.label);
      input = validateAddress(def, raw);
      body = typeof raw.body === 'function' ? await (raw.body as () => Promise<unknown>)() : raw.body;
      input.body = validateBody(def, body, raw.label);
      const answer = await this.#handler(def, raw.label)(input, ctx);
      const checked = def.response ? def.response.safeParse(answer) : { success: true as const, data: answer };
      if (!checked.success) throw new Error(`operation ${def.id} answered outside its schema: ${checked.error.message}`);
      this.#audit(def, ctx, raw.params, body, def.status ?? 200, null);
      return checked.data;
    } catch (error) {
      const refusal = toSpectermError(error, this.#options.onUnexpected);
      this.#audit(def, ctx, raw.params, body, refusal.status, refusal.code);
      throw refusal;
    }
  }

  /**
   * Opens a streaming operation (the event stream, a topic): the same checks, then the handler
   * writes to `sink` until the returned subscription is disposed.
   */
  async open<T>(id: string, raw: RawInput, ctx: RequestContext, sink: unknown): Promise<T> {
    const def = definitionOf(id);
    try {
      this.#admit(def, ctx, raw.label);
      const input = validateAddress(def, raw);
      input.body = validateBody(def, typeof raw.body === 'function' ? await (raw.body as () => Promise<unknown>)() : raw.body, raw.label);
      return await this.#handler(def, raw.label)({ ...input, ...raw.extra?.(input) }, ctx, sink) as T;
    } catch (error) {
      throw toSpectermError(error, this.#options.onUnexpected);
    }
  }

  #admit(def: OperationDef, ctx: RequestContext, label: string): void {
    const { principal } = ctx;
    if (!scopeAllows(principal.scope, def.scope)) throw forbiddenScope(principal, def.scope, label);
    if (def.keystrokes) takeOrRefuse(this.#options.rateLimiter, principal.tokenId, principal.name);
  }

  #handler(def: OperationDef, label: string): Handler {
    const handler = this.#handlers[def.id];
    if (handler) return handler;
    if (def.stream === 'topic') throw new SpectermError({ code: 'TOPIC_UNAVAILABLE', detail: `${label}: no topic is served by this daemon` });
    throw new SpectermError({ code: 'NOT_IMPLEMENTED', detail: `${label} (${def.id}) is part of the protocol but this daemon has no handler for it yet; upgrade the daemon` });
  }

  #audit(def: OperationDef, ctx: RequestContext, params: Record<string, unknown> | undefined, body: unknown, status: number, code: string | null): void {
    // Keystrokes always; everything an agent does through another session's tools too (its MCP server names it).
    if ((!def.keystrokes && !ctx.callerSession) || !this.#options.audit) return;
    this.#options.audit({
      at: this.#options.now(), who: ctx.principal.name, tokenId: ctx.principal.tokenId, remoteAddress: ctx.remoteAddress, via: ctx.via ?? 'http',
      ...(ctx.callerSession ? { callerSession: ctx.callerSession } : {}),
      what: def.id, params: params ?? {}, body, status, code, outcome: status < 400 ? 'ok' : status < 500 ? 'refused' : 'error',
    });
  }
}

function definitionOf(id: string): OperationDef {
  const def = OPERATIONS[id];
  if (!def) throw new Error(`no operation '${id}' in the table (src/ops/operations.ts)`);
  return def;
}

/** Params and query: validated by their schemas; an operation without a query schema takes none. */
function validateAddress(def: OperationDef, raw: RawInput): OperationInput {
  return {
    params: def.params ? parseOrThrow(def.params, raw.params ?? {}, 'path', raw.label) : undefined,
    query: def.query ? parseOrThrow(def.query, raw.query ?? {}, 'query', raw.label) : refuseQuery(raw.query, raw.label),
    body: undefined,
  };
}

function validateBody(def: OperationDef, body: unknown, label: string): unknown {
  if (def.body) return parseOrThrow(def.body, body ?? {}, 'body', label);
  if (body !== undefined) throw new SpectermError({ code: 'BODY_NOT_EXPECTED', title: 'This route takes no body', detail: `${label} takes no body; send none` });
  return undefined;
}

function refuseQuery(query: Record<string, string> | undefined, label: string): undefined {
  const names = Object.keys(query ?? {});
  if (names.length === 0) return undefined;
  throw new SpectermError({
    code: 'VALIDATION_FAILED', title: 'The request query does not match the schema',
    detail: `${label} takes no query parameters; remove ${names.map((n) => `'${n}'`).join(', ')}`,
    errors: names.map((n) => ({ path: `/query/${n}`, code: 'unrecognized_keys', message: `unknown query parameter '${n}'; remove it` })),
  });
}
