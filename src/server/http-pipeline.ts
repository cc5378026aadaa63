/**
 * The HTTP adapter of the operations layer: Host/Origin → no credential in the URL →
 * authentication → route (404/405), then the operation runs in the one executor (scope, rate
 * limit, validation, handler, audit; src/ops/executor.ts), which reads the body (JSON only,
 * bounded) only once the cheap checks passed. Every refusal is answered by the one mapper.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CALLER_SESSION_HEADER, SpectermError, type DaemonEvent } from '../protocol/index.js';
import { callerSessionOf } from '../ops/caller-session.js';
import type { RequestContext, SseSink } from '../ops/contracts.js';
import type { Operations } from '../ops/executor.js';
import { ANONYMOUS_PRINCIPAL, refuseCredentialInUrl } from './auth.js';
import type { Authenticator } from './authenticator.js';
import { readJsonBody } from './body.js';
import type { LiveChannels } from './live-channels.js';
import { checkOrigin, type OriginPolicy } from './origin-guard.js';
import { toProblem } from './problem.js';
import type { Router } from './router.js';

/** SSE comment line interval that keeps proxies from closing an idle stream. */
const SSE_KEEPALIVE_MS = 15_000;

export interface PipelineDeps {
  router: Router;
  origin: () => OriginPolicy;
  auth: Authenticator;
  operations: Operations;
  /** Where an event stream registers as a live channel of its token (revocation ends it). */
  channels: LiveChannels;
  /** Unsent bytes an event stream may hold before it is dropped. */
  maxBacklogBytes: number;
  maxBodyBytes: number;
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
  try {
    const url = parseTarget(req.url);
    pathname = url.pathname;
    checkOrigin(req.headers, deps.origin());
    refuseCredentialInUrl(url);
    // A public route (pairing) takes no credential: its body is one, checked by its handler.
    const principal = deps.router.isPublic(req.method ?? 'GET', pathname) ? ANONYMOUS_PRINCIPAL : deps.auth.authenticate(req, { allowTicket: false });
    const ctx: RequestContext = { principal, requestId, remoteAddress: req.socket.remoteAddress ?? 'unknown', via: 'http', responseHeaders: {}, ...callerSessionOf(req.headers[CALLER_SESSION_HEADER], `the ${CALLER_SESSION_HEADER} header`) };
    const { route, params } = deps.router.match(req.method ?? 'GET', pathname);
    const raw = { params, query: Object.fromEntries(url.searchParams), label: `${route.method} ${pathname}`, body: () => readJsonBody(req, deps.maxBodyBytes) };
    // awaited inside the try: a refusal from the stream's handler must reach the problem mapper.
    if (route.stream === 'sse') return await startSse(req, res, raw, { ...ctx, via: 'sse' }, deps);
    const answer = await deps.operations.call(route.id, raw, ctx);
    send(res, route.status ?? 200, ctx.responseHeaders ?? {}, answer);
  } catch (error) {
    req.resume();
    const problem = toProblem(error, pathname, deps.onUnexpected);
    if (!res.headersSent) send(res, problem.status, problem.headers, problem.body);
    else res.destroy();
  }
}

/** The request target as a URL; 400 when it is not one (an absolute-form target can be anything). */
export function parseTarget(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://placeholder');
  } catch {
    throw new SpectermError({ code: 'URL_INVALID', title: 'Invalid request target', detail: 'the request target is not a valid URL path; send a path such as /api/v1/health' });
  }
}

async function startSse(req: IncomingMessage, res: ServerResponse, raw: Parameters<Operations['call']>[1], ctx: RequestContext, deps: PipelineDeps): Promise<void> {
  const header = req.headers['last-event-id'];
  const lastEventId = header === undefined ? undefined : Number(header);
  if (lastEventId !== undefined && !Number.isSafeInteger(lastEventId)) {
    throw new SpectermError({ code: 'LAST_EVENT_ID_INVALID', title: 'Invalid Last-Event-ID', detail: `Last-Event-ID '${header}' is not an event seq (an integer); drop it to start from now` });
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
    dispose = await deps.operations.open<() => void>('events', { ...raw, extra: (input) => ({ since: lastEventId ?? input.query?.since }) }, ctx, sink);
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
