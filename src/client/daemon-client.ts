/**
 * A typed HTTP client of the daemon over the protocol's route table: it finds the daemon by the
 * state file `serve` writes in the runtime dir, and authenticates with `$SPECTERM_TOKEN` or the
 * admin token file in the state dir. Every refusal is a `ClientError` with a stable code.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { API_PREFIX, CALLER_SESSION_HEADER, PROTOCOL_VERSION, ROUTES, type RouteId, type RouteOutput, type Routes } from '../protocol/index.js';
import type { z } from 'zod';
import { createTrustedFetch, readDaemonTrust, type FetchLike } from './trusted-fetch.js';

/** Why a client call failed; `code` is stable (the daemon's problem code, or one of the client's own). */
export class ClientError extends Error {
  readonly code: string;
  readonly status: number | null;
  /** The problem document the daemon answered, when it did. */
  readonly problem: Record<string, unknown> | null;
  constructor(code: string, message: string, status: number | null = null, problem: Record<string, unknown> | null = null) {
    super(message);
    this.name = 'ClientError';
    this.code = code;
    this.status = status;
    this.problem = problem;
  }
}

export interface DiscoverOptions {
  runtimeDir: string;
  stateDir: string;
  env: Record<string, string | undefined>;
}

type Input<K extends RouteId> = {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: z.input<NonNullable<Routes[K]['body']>>;
};

export class DaemonClient {
  readonly url: string;
  readonly #token: string;
  readonly #fetch: FetchLike;
  readonly #callerSession: string | undefined;

  /**
   * @param options.ca - the CAs an HTTPS daemon's certificate must chain to (default: the system's).
   * @param options.callerSession - the agent session this client acts for (`specterm mcp` inside an
   *   agent): sent as `X-Specterm-Caller-Session`, so the daemon applies the rules for agents and audits it.
   */
  constructor(url: string, token: string, options: { ca?: readonly string[]; callerSession?: string } = {}) {
    this.url = url.replace(/\/+$/, '');
    this.#token = token;
    this.#callerSession = options.callerSession;
    this.#fetch = options.ca && this.url.startsWith('https:') ? createTrustedFetch(options.ca) : fetch;
  }

  /** The daemon named by `<runtime>/daemon.json`, with the token from the environment or the admin-token file. */
  static discover(options: DiscoverOptions & { callerSession?: string }): DaemonClient {
    const endpoint = DaemonClient.discoverEndpoint(options);
    return new DaemonClient(endpoint.url, endpoint.token, { ca: endpoint.ca, callerSession: options.callerSession });
  }

  /** Where the daemon listens and the token to use (for clients that open their own sockets, e.g. `attach`). */
  static discoverEndpoint(options: DiscoverOptions): { url: string; token: string; ca?: string[] } {
    const stateFile = path.join(options.runtimeDir, 'daemon.json');
    let state: { url?: unknown; protocol_version?: unknown; pid?: unknown; state_dir?: unknown };
    try {
      state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as typeof state;
    } catch {
      throw new ClientError('DAEMON_NOT_RUNNING', `no daemon is running (no readable ${stateFile}); start one with \`specterm serve\``);
    }
    if (typeof state.url !== 'string') throw new ClientError('DAEMON_NOT_RUNNING', `${stateFile} names no url; restart \`specterm serve\``);
    if (state.protocol_version !== PROTOCOL_VERSION) {
      throw new ClientError('PROTOCOL_MISMATCH', `the daemon speaks protocol ${String(state.protocol_version)}, this client ${PROTOCOL_VERSION}; restart \`specterm serve\` from this version`);
    }
    // The admin token of another state dir would only earn AUTH_INVALID: say which daemon this is.
    if (!options.env.SPECTERM_TOKEN && typeof state.state_dir === 'string' && !isSameDir(state.state_dir, options.stateDir)) {
      throw new ClientError('DAEMON_STATE_DIR_MISMATCH', `the daemon in ${options.runtimeDir} (pid ${String(state.pid)}) serves the state dir ${state.state_dir}, not ${options.stateDir}; set SPECTERM_STATE_DIR to ${state.state_dir} to use it, or SPECTERM_RUNTIME_DIR to the runtime dir of the daemon you mean`);
    }
    const url = state.url.replace(/\/+$/, '');
    // `serve --lan` serves HTTPS with a self-signed certificate kept in the state dir.
    const ca = url.startsWith('https:') ? readDaemonTrust(options.stateDir) : undefined;
    return { url, token: readToken(options), ...(ca ? { ca } : {}) };
  }

  /** Calls route `id` and resolves with its typed answer. */
  async call<K extends RouteId>(id: K, input: Input<K> = {}): Promise<RouteOutput<K>> {
    const route = ROUTES[id];
    let target = route.path.replace(/:([a-z_]+)/g, (_m, name: string) => encodeURIComponent(input.params?.[name] ?? ''));
    const query = Object.entries(input.query ?? {}).filter(([, v]) => v !== undefined);
    if (query.length) target += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`;
    let response: Response;
    try {
      response = await this.#fetch(`${this.url}${target}`, {
        method: route.method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(this.#callerSession ? { [CALLER_SESSION_HEADER]: this.#callerSession } : {}),
        },
        body: input.body !== undefined ? JSON.stringify(input.body) : undefined,
      });
    } catch (error) {
      throw new ClientError('DAEMON_NOT_RUNNING', `the daemon at ${this.url} does not answer (${(error as Error).cause ? String((error as { cause: unknown }).cause) : (error as Error).message}); start it with \`specterm serve\``);
    }
    const text = await response.text();
    let body: unknown = null;
    try { body = text ? JSON.parse(text) : null; } catch {}
    if (!response.ok) {
      const problem = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      const code = typeof problem.code === 'string' ? problem.code : `HTTP_${response.status}`;
      const detail = typeof problem.detail === 'string' ? problem.detail : text.slice(0, 200);
      throw new ClientError(code, `${code}: ${detail}`, response.status, problem);
    }
    return body as RouteOutput<K>;
  }

  /** Opens the SSE stream of events (from `since`); yields each parsed event. */
  async *events(options: { since?: number; sessionId?: string; signal?: AbortSignal } = {}): AsyncGenerator<Record<string, unknown>> {
    const query = new URLSearchParams();
    if (options.since !== undefined) query.set('since', String(options.since));
    if (options.sessionId) query.set('session_id', options.sessionId);
    const response = await this.#fetch(`${this.url}${API_PREFIX}/events${query.size ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${this.#token}` }, signal: options.signal });
    if (!response.ok || !response.body) throw new ClientError(`HTTP_${response.status}`, `the event stream was refused (${response.status})`, response.status);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
        if (data) yield JSON.parse(data) as Record<string, unknown>;
      }
    }
  }
}

function isSameDir(a: string, b: string): boolean {
  const real = (dir: string) => { try { return fs.realpathSync(dir); } catch { return path.resolve(dir); } };
  return real(a) === real(b);
}

function readToken(options: DiscoverOptions): string {
  const fromEnv = options.env.SPECTERM_TOKEN;
  if (fromEnv) return fromEnv.trim();
  const file = path.join(options.stateDir, 'admin-token');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new ClientError('TOKEN_MISSING', `no token: set SPECTERM_TOKEN, or run as the user whose daemon wrote ${file}`);
  }
}
