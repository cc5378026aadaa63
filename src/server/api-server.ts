/**
 * `createApiServer`: the daemon's HTTP + WebSocket edge, locked by default. It binds loopback
 * unless told otherwise, authenticates every request and upgrade, checks Host and Origin,
 * accepts JSON only, bounds bodies and messages, and answers every refusal as problem+json.
 * @module
 */
import { isLoopback } from './paths.js';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { ROUTE_LIST, WS_PATH, WS_SUBPROTOCOL, type Pairing, type Scope } from '../protocol/index.js';
import { refuseCredentialInUrl, type Principal, type TokenStore } from './auth.js';
import { Authenticator } from './authenticator.js';
import { builtInHandlers } from './builtin-routes.js';
import { answerClientError, answerRaw, capConnections, DEFAULT_MAX_CONNECTIONS } from './connection-guard.js';
import { SpectermError } from '../protocol/index.js';
import { Operations } from '../ops/executor.js';
import { FailureLimiter, type FailureLimiterOptions } from './failure-limiter.js';
import type { AuditEntry, RouteHandlers, WsHandlers } from '../ops/contracts.js';
import { handleHttp, parseTarget } from './http-pipeline.js';
import { LiveChannels } from './live-channels.js';
import { buildOriginPolicy, checkOrigin, type OriginPolicy } from './origin-guard.js';
import { PairingCodes } from './pairing.js';
import { issuePairing, pairingHandlers } from './pairing-routes.js';
import { toProblem } from './problem.js';
import { RateLimiter, type RateLimitOptions } from '../ops/rate-limiter.js';
import { Router } from './router.js';
import { defaultDashboardDir, isDashboardPath, serveDashboard, StaticFiles } from './static.js';
import { WsHub } from './ws-hub.js';
import { WsTickets } from './ws-tickets.js';

export interface ApiServerOptions {
  /** Address to bind (127.0.0.1). Anything not loopback needs `allowNonLoopback`. */
  host?: string;
  /** Port (0 = any free port; read it back from `port`). */
  port?: number;
  /** Required to bind a non-loopback address: loopback is the only safe default. */
  allowNonLoopback?: boolean;
  /** PEM certificate and key: serve HTTPS/WSS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  tokens: TokenStore;
  /**
   * The operations this server carries (built by the composition root, shared with every other
   * transport). Without it the server builds one from `handlers`, `ws`, `rateLimit` and `audit`.
   */
  operations?: Operations;
  /** The admin token (from `ensureAdminToken`); accepted with the admin scope. */
  adminToken?: string;
  handlers?: RouteHandlers;
  ws?: WsHandlers;
  /** Extra Host header names (`name` for our port, or `name:port`) — e.g. the LAN name when bound to it. */
  allowedHosts?: string[];
  /** Extra browser origins allowed besides same-origin. */
  allowedOrigins?: string[];
  /** Request body limit (1 MiB). */
  maxBodyBytes?: number;
  /** WebSocket message limit (64 KiB: input messages are at most 4 KiB of text). */
  maxWsMessageBytes?: number;
  /** Invalid WebSocket messages before the connection is closed (10). */
  maxInvalidWsMessages?: number;
  /** Unsent bytes a WebSocket or SSE stream may hold before it is dropped (4 MiB; see DEFAULT_MAX_CLIENT_BACKLOG_BYTES). */
  maxClientBacklogBytes?: number;
  /** Connections served at once; beyond it a new one gets 503 TOO_MANY_CONNECTIONS (256; see DEFAULT_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** A request's headers must arrive within this (10 s), or it gets 408 REQUEST_TIMEOUT and its socket closes. */
  headersTimeoutMs?: number;
  /** A whole request must arrive within this (30 s; at least `headersTimeoutMs`). */
  requestTimeoutMs?: number;
  rateLimit?: RateLimitOptions;
  authFailures?: FailureLimiterOptions;
  /** Called for every keystroke-producing command, whatever its outcome. */
  audit?: (entry: AuditEntry) => void;
  /** Where warnings and unexpected errors go (never tokens). */
  log?: (level: 'warn' | 'error', message: string) => void;
  /** The built dashboard served at `/` (`<package>/dist/dashboard`); null serves none. Not built → none. */
  dashboardDir?: string | null;
  /** How long a pairing code stays valid (10 minutes). */
  pairingTtlMs?: number;
  /** The daemon's node name, reported by health. */
  node?: string;
  /** The daemon's version, reported by health and OpenAPI. */
  version?: string;
  now?: () => number;
}

/**
 * What one client may leave unread before it is dropped (4 MiB): well above a terminal
 * snapshot plus the 1 MiB a terminal viewer may fall behind, small enough that a few hundred
 * stalled clients cannot exhaust the daemon.
 */
export const DEFAULT_MAX_CLIENT_BACKLOG_BYTES = 4 * 1024 * 1024;

export interface ApiServer {
  /** `http(s)://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** A one-time pairing code and URL (`…/#pair=CODE`) for a device named `deviceName` with `scope`. */
  createPairing(grant: { deviceName: string; scope: Scope }): Pairing;
  /** Who a bare secret is, for another transport (NATS), counted against the same failure budget as HTTP's. */
  authenticateSecret(secret: string | undefined, address: string): Principal;
  close(): Promise<void>;
}

/** Thrown for a configuration the server refuses to start with. */
export class ServerConfigError extends Error {
  readonly code = 'BIND_NOT_LOOPBACK';
  constructor(message: string) {
    super(message);
    this.name = 'ServerConfigError';
  }
}

export { isLoopback };

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? ((level, message) => console.error(`specterm serve: ${level}: ${message}`));
  if (!isLoopback(host)) {
    if (!options.allowNonLoopback) {
      throw new ServerConfigError(`refusing to bind ${host}: only loopback is safe by default (loopback is private to this machine; ${host} is not). Pass the explicit non-loopback option (and --tls-cert/--tls-key) to expose the API.`);
    }
    if (!options.tls) log('warn', `binding ${host} without TLS: tokens and terminal contents cross the network in clear text; use --tls-cert/--tls-key`);
  }
  const now = options.now ?? Date.now;
  const onUnexpected = (error: unknown) => log('error', `unexpected: ${(error as Error)?.stack ?? String(error)}`);
  const tickets = new WsTickets({ now });
  const auth = new Authenticator({ tokens: options.tokens, adminToken: options.adminToken, failures: new FailureLimiter({ now, ...options.authFailures }), tickets });
  const maxWsMessageBytes = options.maxWsMessageBytes ?? 64 * 1024;
  // The Host allowlist needs the bound port, known only after listen(); nothing is served before.
  const bound: { policy?: OriginPolicy } = {};
  const origin = () => bound.policy!;
  const maxBacklogBytes = options.maxClientBacklogBytes ?? DEFAULT_MAX_CLIENT_BACKLOG_BYTES;
  const channels = new LiveChannels();
  const { events, ...routeHandlers } = options.handlers ?? {};
  const base = options.operations ?? new Operations({
    handlers: routeHandlers, events, live: options.ws, rateLimiter: new RateLimiter({ now, ...options.rateLimit }), audit: options.audit, now, onUnexpected,
  });
  // Revoking a token also ends what it holds: unused tickets, open sockets and event streams.
  const revoke = (tokenId: string): boolean => {
    if (!options.tokens.revoke(tokenId)) return false;
    tickets.forgetToken(tokenId);
    channels.endToken(tokenId);
    return true;
  };
  const baseUrl = { value: '' };
  const pairing = { codes: new PairingCodes({ ttlMs: options.pairingTtlMs, now }), baseUrl: () => baseUrl.value };
  // The server's own operations (health, tokens, tickets, pairing) run in the same executor.
  const operations = base.with({
    ...builtInHandlers({ tokens: options.tokens, tickets, version: options.version ?? '0.0.0', node: options.node, revoke }),
    ...pairingHandlers({ ...pairing, tokens: options.tokens, auth, secure: options.tls !== undefined, revoke }),
  } as never);
  const hub = new WsHub({
    operations, maxMessageBytes: maxWsMessageBytes, maxInvalidMessages: options.maxInvalidWsMessages ?? 10, maxSubscriptions: 256, maxBacklogBytes, channels, onUnexpected,
  });
  const deps = {
    router: new Router(ROUTE_LIST), origin, auth, operations, channels, maxBacklogBytes, onUnexpected,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
  };
  const dashboard = options.dashboardDir === null ? null : StaticFiles.open(options.dashboardDir ?? defaultDashboardDir());
  const listener: http.RequestListener = (req, res) => {
    if (isRefused(req.socket)) return;
    if (dashboard && isDashboardPath(pathOf(req.url))) return serveDashboard(req, res, dashboard, origin(), onUnexpected);
    handleHttp(req, res, deps).catch(onUnexpected);
  };
  // Slow-loris bounds: a client must send its headers within 10 s and a whole request within 30 s.
  const headersTimeoutMs = options.headersTimeoutMs ?? 10_000;
  const timeouts = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: Math.max(headersTimeoutMs, options.requestTimeoutMs ?? 30_000),
    // Node checks the timeouts only every connectionsCheckingInterval (30 s by default), which
    // let a slow client hold its socket ~30 s whatever headersTimeout said: check 4× per timeout.
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 4)),
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key, ...timeouts }, listener)
    : http.createServer(timeouts, listener);
  const isRefused = capConnections(server, { max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, secure: options.tls !== undefined });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxWsMessageBytes,
    // Select our protocol; the ticket "protocol" is only a carrier and is never echoed.
    handleProtocols: (offered) => (offered.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
  });
  server.on('upgrade', (req, socket: Socket, head) => {
    // After 'upgrade' the socket is ours: a client reset must not become an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    if (isRefused(socket)) return;
    let pathname = '/';
    try {
      const url = parseTarget(req.url);
      pathname = url.pathname;
      if (url.pathname !== WS_PATH) throw new SpectermError({ code: 'ROUTE_NOT_FOUND', title: 'No such WebSocket endpoint', detail: `the only WebSocket endpoint is ${WS_PATH}` });
      checkOrigin(req.headers, origin());
      refuseCredentialInUrl(url);
      const principal = auth.authenticate(req, { allowTicket: true });
      wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws, { principal, requestId: randomUUID(), remoteAddress: req.socket.remoteAddress ?? 'unknown', via: 'ws' }));
    } catch (error) {
      answerRaw(socket, toProblem(error, pathname, onUnexpected));
    }
  });
  server.on('clientError', (error, socket) => (isRefused(socket as Socket) ? socket.destroy() : answerClientError(error, socket as Socket, headersTimeoutMs)));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;
  const boundHost = isLoopback(host) ? [] : [host.includes(':') ? `[${host}]` : host];
  bound.policy = buildOriginPolicy(port, [...boundHost, ...(options.allowedHosts ?? [])], options.allowedOrigins);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  baseUrl.value = `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`;
  return {
    url: baseUrl.value,
    port,
    createPairing: (grant) => issuePairing(pairing, grant),
    authenticateSecret: (secret, address) => auth.authenticateSecret(secret, address),
    close: () => new Promise<void>((resolve) => {
      hub.closeAll();
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The path of a request target; an unparsable one counts as an API path (the pipeline answers its 400). */
function pathOf(target: string | undefined): string {
  try {
    return parseTarget(target).pathname;
  } catch {
    return '/api/';
  }
}
