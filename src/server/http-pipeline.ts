/**
 * One HTTP request, in the order that leaks the least: Host/Origin → no credential in the URL
 * → authentication → route (404/405) → scope → rate limit (keystroke routes) → body (JSON
 * only, bounded) → schema validation → handler → response validation. Every refusal is an
 * `ApiError` answered by the one mapper; keystroke routes are audited whatever the outcome.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { scopeAllows, type DaemonEvent, type RouteDef } from '../protocol/index.js';
import { ANONYMOUS_PRINCIPAL, forbiddenScope, refuseCredentialInUrl } from './auth.js';
import type { Authenticator } from './authenticator.js';
import { readJsonBody } from './body.js';
import { ApiError, notImplemented } from './errors.js';
import type { AuditEntry, RequestContext, SseHandler, SseSink } from './handlers.js';
import type { LiveChannels } from './live-channels.js';
import { checkOrigin, type OriginPolicy } from './origin-guard.js';
import { toProblem } from './problem.js';
import { takeOrRefuse, type RateLimiter } from './rate-limiter.js';
import type { Router } from './router.js';
import { parseOrThrow } from './validate.js';

/** SSE comment line interval that keeps proxies from closing an idle stream. */
const SSE_KEEPALIVE_MS = 15_000;

export interface PipelineDeps {
  router: Router;
  origin: () => OriginPolicy;
  auth: Authenticator;
  rateLimiter: RateLimiter;
  handlers: Record<string, ((input: any, ctx: RequestContext) => unknown) | undefined>;
  sse?: SseHandler;
  /** Where an event stream registers as a live channel of its token (revocation ends it). */
  channels: LiveChannels;
  /** Unsent bytes an event stream may hold before it is dropped. */
  maxBacklogBytes: number;
  maxBodyBytes: number;
  audit?: (entry: AuditEntry) => void;
  now: () => number;
  onUnexpected: (error: unknown) => void;
}

const SECURITY_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function handleHttp(req: IncomingMessage, res: ServerResponse, deps: PipelineDeps): Promise<void> {
  const requestId = randomUUID();
  // Only the parsed path is ever echoed (as `instance`): the raw target may carry a query.
  let pathname = '/';
  let ctx: RequestContext | undefined;
  let route: RouteDef | undefined;
  let params: Record<string, unknown> = {};
  let body: unknown;
  try {
    const url = parseTarget(req.url);
    pathname = url.pathname;
    checkOrigin(req.headers, deps.origin());
    refuseCredentialInUrl(url);
    // A public route (pairing) takes no credential: its body is one, checked by its handler.
    const principal = deps.router.isPublic(req.method ?? 'GET', pathname) ? ANONYMOUS_PRINCIPAL : deps.auth.authenticate(req, { allowTicket: false });
    ctx = { principal, requestId, remoteAddress: req.socket.remoteAddress ?? 'unknown', responseHeaders: {} };
    const match = deps.router.match(req.method ?? 'GET', pathname);
    route = match.route;
    params = match.params;
    if (!scopeAllows(principal.scope, route.scope)) throw forbiddenScope(principal, route.scope, `${route.method} ${route.path}`);
    if (route.keystrokes) takeOrRefuse(deps.rateLimiter, principal.tokenId, principal.name);
    const context = `${route.method} ${pathname}`;
    const input = {
      params: route.params ? parseOrThrow(route.params, match.params, 'path', context) : undefined,
      query: route.query ? parseOrThrow(route.query, Object.fromEntries(url.searchParams), 'query', context) : refuseQuery(url, context),
      body: undefined as unknown,
    };
    body = await readJsonBody(req, deps.maxBodyBytes);
    if (route.body) input.body = parseOrThrow(route.body, body ?? {}, 'body', context);
    else if (body !== undefined) throw new ApiError({ status: 422, code: 'BODY_NOT_EXPECTED', title: 'This route takes no body', detail: `${context} takes no body; send none` });
    // awaited inside the try: a refusal from the stream's handler must reach the problem mapper.
    if (route.stream === 'sse') return await startSse(req, res, input, ctx, deps);
    const handler = deps.handlers[route.id];
    if (!handler) throw notImplemented(`${route.method} ${route.path} (${route.id})`);
    const result = await handler(input, ctx);
    const checked = route.response.safeParse(result);
    if (!checked.success) throw new Error(`handler ${route.id} answered outside its schema: ${checked.error.message}`);
    send(res, route.status ?? 200, ctx.responseHeaders ?? {}, checked.data);
    audit(deps, route, ctx, params, body, route.status ?? 200, null);
  } catch (error) {
    req.resume();
    const problem = toProblem(error, pathname, deps.onUnexpected);
    if (!res.headersSent) send(res, problem.status, problem.headers, problem.body);
    else res.destroy();
    if (route && ctx) audit(deps, route, ctx, params, body, problem.status, problem.body.code);
  }
}

/** The request target as a URL; 400 when it is not one (an absolute-form target can be anything). */
export function parseTarget(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://placeholder');
  } catch {
    throw new ApiError({ status: 400, code: 'URL_INVALID', title: 'Invalid request target', detail: 'the request target is not a valid URL path; send a path such as /api/v1/health' });
  }
}

/** A route without a query schema takes no query parameters. */
function refuseQuery(url: URL, context: string): undefined {
  const names = [...url.searchParams.keys()];
  if (names.length === 0) return undefined;
  throw new ApiError({
    status: 422, code: 'VALIDATION_FAILED', title: 'The request query does not match the schema',
    detail: `${context} takes no query parameters; remove ${names.map((n) => `'${n}'`).join(', ')}`,
    errors: names.map((n) => ({ path: `/query/${n}`, code: 'unrecognized_keys', message: `unknown query parameter '${n}'; remove it` })),
  });
}

function audit(deps: PipelineDeps, route: RouteDef, ctx: RequestContext, params: Record<string, unknown>, body: unknown, status: number, code: string | null): void {
  if (!route.keystrokes || !deps.audit) return;
  deps.audit({
    at: deps.now(), who: ctx.principal.name, tokenId: ctx.principal.tokenId, remoteAddress: ctx.remoteAddress,
    what: route.id, params, body, status, code, outcome: status < 400 ? 'ok' : status < 500 ? 'refused' : 'error',
  });
}

async function startSse(req: IncomingMessage, res: ServerResponse, input: { query: any }, ctx: RequestContext, deps: PipelineDeps): Promise<void> {
  if (!deps.sse) throw notImplemented('GET /api/v1/events (events)');
  const header = req.headers['last-event-id'];
  const lastEventId = header === undefined ? undefined : Number(header);
  if (lastEventId !== undefined && !Number.isSafeInteger(lastEventId)) {
    throw new ApiError({ status: 400, code: 'LAST_EVENT_ID_INVALID', title: 'Invalid Last-Event-ID', detail: `Last-Event-ID '${header}' is not an event seq (an integer); drop it to start from now` });
  }
  let closed = false;
  let dispose: (() => void) | undefined;
  let keepAlive: NodeJS.Timeout | undefined = undefined;
  // A revoked token's stream ends at once, like its sockets; registered before the handler
  // runs, so a revocation during it is not missed.
  const unregister = deps.channels.open(ctx.principal.tokenId, () => res.destroy());
  // Listening from the start: a client gone before the handler returned still disposes it.
  res.on('close', () => {
    closed = true;
    clearInterval(keepAlive);
    unregister();
    dispose?.();
  });
  // Events the handler sends before it returns (its replay) wait until the headers are out, so a
  // handler that refuses (unknown session) still answers a problem.
  let pending: string[] | null = [];
  // A client that reads nothing is dropped rather than buffered for: it resumes with Last-Event-ID.
  const write = (text: string) => {
    if (res.writableLength > deps.maxBacklogBytes) res.destroy();
    else res.write(text);
  };
  const sink: SseSink = {
    get closed() { return closed || res.destroyed; },
    get bufferedBytes() { return res.writableLength; },
    send(event: DaemonEvent) {
      if (sink.closed) return;
      const frame = `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
      if (pending) pending.push(frame);
      else write(frame);
    },
  };
  try {
    dispose = await deps.sse({ ...input, since: lastEventId ?? input.query?.since } as never, ctx, sink);
  } catch (error) {
    unregister();
    throw error;
  }
  if (closed) return dispose();
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' });
  res.write(': specterm events\n\n' + pending.join(''));
  pending = null;
  keepAlive = setInterval(() => write(': keep-alive\n\n'), SSE_KEEPALIVE_MS);
}
