/**
 * A real API server on 127.0.0.1:0 for tests: an in-memory TokenStore (the SQLite one is
 * src/store's), handlers that answer valid fixtures for one known session (`s_1`) and 404 for
 * any other id, a virtual clock for lockout and rate limits, and the audit entries collected.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SpectermError } from '../../src/protocol/index.js';
import { createApiServer, type ApiServer, type ApiServerOptions, type AuditEntry, type RouteHandlers, type TokenRecord, type TokenStore } from '../../src/server/index.js';
import type { Scope, SessionDetail, Task } from '../../src/protocol/index.js';

export class MemoryTokenStore implements TokenStore {
  readonly #byHash = new Map<string, TokenRecord>();
  #next = 1;
  constructor(private readonly now: () => number) {}

  create(input: { name: string; scope: Scope }): { token: string; record: TokenRecord } {
    const token = randomBytes(32).toString('base64url');
    const record: TokenRecord = { id: `t_${this.#next++}`, name: input.name, scope: input.scope, createdAt: this.now(), lastUsedAt: null, revokedAt: null };
    this.#byHash.set(createHash('sha256').update(token).digest('hex'), record);
    return { token, record: { ...record } };
  }

  verify(secret: string): TokenRecord | null {
    const hash = createHash('sha256').update(secret).digest();
    for (const [stored, record] of this.#byHash) {
      if (timingSafeEqual(Buffer.from(stored, 'hex'), hash) && record.revokedAt === null) {
        record.lastUsedAt = this.now();
        return { ...record };
      }
    }
    return null;
  }

  list(): TokenRecord[] {
    return [...this.#byHash.values()].map((r) => ({ ...r }));
  }

  revoke(id: string): boolean {
    const record = [...this.#byHash.values()].find((r) => r.id === id && r.revokedAt === null);
    if (!record) return false;
    record.revokedAt = this.now();
    return true;
  }
}

export const KNOWN_SESSION = 's_1';
export const KNOWN_APPROVAL = 'a_1';

export const SESSION: SessionDetail = {
  id: KNOWN_SESSION, name: 'demo', labels: {}, lifecycle: 'running',
  state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null, controls: [],
  cwd: '/tmp', branch: null, spec: { id: 'demo-agent', version: null, proven_versions: [] },
  pid: 42, cols: 120, rows: 40, exit: null, created_at: 1, started_at: 2, exited_at: null, state_since: 3,
};

const TASK: Task = {
  id: 't_1', text: 'run the tests', parent_session_id: null, requested_by: 'admin', worker_session_id: KNOWN_SESSION, status: 'queued',
  result: null, reason: null, timeout_ms: 60000, created_at: 1, updated_at: 1,
};

/** The daemon's refusal for an id that names nothing (`kind`: session, approval). */
export function notFound(kind: 'session' | 'approval', id: string): SpectermError {
  return new SpectermError({
    code: kind === 'session' ? 'SESSION_NOT_FOUND' : 'APPROVAL_NOT_FOUND',
    detail: `no ${kind} has id '${id}'; \`specterm ${kind} list\` lists them`,
    errors: [{ path: '/id', code: 'not_found', message: `no ${kind} '${id}'` }],
  });
}

function session(id: string): SessionDetail {
  if (id !== KNOWN_SESSION) throw notFound('session', id);
  return SESSION;
}

/** Handlers for every non-built-in route: valid answers for `s_1`, 404 for other ids. */
export function fixtureHandlers(): RouteHandlers {
  return {
    listSessions: () => ({ sessions: [SESSION] }),
    createSession: ({ body }) => ({ ...SESSION, name: body.name ?? null, cwd: body.cwd, cols: body.cols, rows: body.rows }),
    getSession: ({ params }) => session(params.id),
    removeSession: ({ params }) => (session(params.id), { ok: true }),
    killSession: ({ params }) => ({ ...session(params.id), lifecycle: 'exited', exit: { code: null, signal: 'SIGTERM' } }),
    restartSession: ({ params }) => session(params.id),
    sendMessage: ({ params, body }) => (session(params.id), { message_id: 'm_1', delivery: body.wait === 'accepted' ? 'queued' : 'turn_started', reason: null, duplicate: false }),
    getScreen: ({ params, query }) => (session(params.id), { format: query.format, content: '> ', cols: 120, rows: 40, cursor: { x: 2, y: 0 }, title: null, seq: 0 }),
    getTranscript: ({ params }) => (session(params.id), { session_id: params.id, transcript: null }),
    searchTranscripts: () => ({ hits: [] }),
    resumeSession: ({ params }) => (session(params.id), SESSION),
    createTask: ({ body }) => ({ ...TASK, text: body.text }),
    listTasks: () => ({ tasks: [TASK] }),
    getTask: () => TASK,
    cancelTask: () => ({ ...TASK, status: 'cancelled' as const }),
    sendKeys: ({ params, body }) => (session(params.id), { written_bytes: Buffer.byteLength(body.data) }),
    resizeSession: ({ params, body }) => (session(params.id), body),
    muteSession: ({ params, body }) => ({ ...session(params.id), muted: body.muted }),
    pressControl: ({ params }) => (session(params.id), { ok: true }),
    getHistory: ({ params }) => (session(params.id), { entries: [], next_before: null }),
    getDebug: ({ params }) => (session(params.id), { state: 'idle' }),
    explainState: ({ params, query }) => (session(params.id), { at: query.at ?? 0, state: null, matched_rules: [], transitions: [] }),
    getLiveDebug: ({ params }) => (session(params.id), {
      server_now: 1_000_000, state: { id: 'idle', label: 'Idle', status: 'idle' }, state_entered_at: 999_000, transitions: [], sections: [],
      cursor: { row: 0, col: 2 }, rows: 40, eval_count: 1, last_edge: null,
    }),
    getSpecGraph: ({ params }) => (session(params.id), { spec_id: 'demo-agent', nodes: [], edges: [], missing: [] }),
    getDebugMoments: ({ params }) => (session(params.id), { history: [], snapshots: [] }),
    startRecording: ({ params, body }) => (session(params.id), { ...{ name: 'greeting', session_id: KNOWN_SESSION, spec_id: 'demo-agent', active: true, bytes: 0, created_at: 1_000_000, duration_ms: null }, name: body.name ?? 'greeting' }),
    stopRecording: ({ params }) => (session(params.id), { ...{ name: 'greeting', session_id: KNOWN_SESSION, spec_id: 'demo-agent', active: true, bytes: 0, created_at: 1_000_000, duration_ms: null }, active: false, bytes: 10, duration_ms: 5 }),
    listRecordings: () => ({ recordings: [] }),
    getRecordingCast: ({ params }) => ({ name: params.name, file_name: `${params.name}.cast`, content: '{"version":2,"width":80,"height":24}\n' }),
    getRecordingTimeline: ({ params }) => ({ name: params.name, spec_id: 'demo-agent', end_ms: 0, states: [] }),
    explainRecording: ({ query }) => ({
      at_ms: query.at_ms ?? 0, end_ms: query.at_ms ?? 0, state: { id: 'idle', label: 'Idle', status: 'idle' }, state_age_ms: 0, screen: [], cursor_row: 0, sections: [], transitions: [], text: '',
    }),
    getSessionSpec: ({ params }) => (session(params.id), { text: '{}', path: '/specs/demo-agent/spec.json', builtin: true, override: false }),
    validateSessionSpec: ({ params }) => (session(params.id), { ok: true, errors: [], warnings: [] }),
    listSpecs: () => ({ specs: [{ id: 'demo-agent' }] }),
    getSpecSchema: () => ({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }),
    previewSpecCondition: ({ params }) => (session(params.id), { result: true, cond: { kind: 'matches', result: true, detail: '', window_ms: null, due_at: null, matched_text: null, children: [] } }),
    saveSessionSpec: ({ params }) => (session(params.id), { path: '/state/spec-overrides/s.json', override: true, reloaded: true, validation: { ok: true, errors: [], warnings: [] } }),
    listApprovals: () => ({ approvals: [] }),
    answerApproval: ({ params, body }) => {
      if (params.id !== KNOWN_APPROVAL) throw notFound('approval', params.id);
      return { approval_id: params.id, button: { index: typeof body.button === 'number' ? body.button : 0, label: 'Yes' }, result: 'cleared' };
    },
    attachImage: ({ params, body }) => (session(params.id), { attached_bytes: Buffer.from(body.data, 'base64').length, control_id: 'attach' }),
    getPushKey: () => ({ public_key: 'B'.padEnd(87, 'A') }),
    subscribePush: ({ body }) => ({ id: 'push_1', endpoint_origin: new URL(body.endpoint).origin, device: 'admin', created_at: 1 }),
    listPushSubscriptions: () => ({ subscriptions: [] }),
    unsubscribePush: () => ({ removed: false }),
  };
}

export interface TestServer {
  server: ApiServer;
  url: string;
  adminToken: string;
  tokens: MemoryTokenStore;
  audit: AuditEntry[];
  warnings: string[];
  clock: { now: number };
  /** A fresh token of `scope`. */
  tokenFor(scope: Scope): string;
  /** `fetch` against the server with a Bearer token (admin unless `token` is given). */
  api(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
}

export async function startTestServer(overrides: Partial<ApiServerOptions> = {}): Promise<TestServer> {
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  const tokens = new MemoryTokenStore(now);
  const adminToken = randomBytes(32).toString('base64url');
  const audit: AuditEntry[] = [];
  const warnings: string[] = [];
  const server = await createApiServer({
    tokens, adminToken, now, handlers: fixtureHandlers(), audit: (e) => audit.push(e), version: '0.1.0-test',
    log: (level, message) => warnings.push(`${level}: ${message}`), ...overrides,
  });
  return {
    server, url: server.url, adminToken, tokens, audit, warnings, clock,
    tokenFor: (scope) => tokens.create({ name: `${scope}-device`, scope }).token,
    api: (path, init = {}) => {
      const { token = adminToken, headers, ...rest } = init;
      const h = new Headers(headers);
      if (token !== null) h.set('authorization', `Bearer ${token}`);
      if (rest.body !== undefined && !h.has('content-type')) h.set('content-type', 'application/json');
      return fetch(server.url + path, { ...rest, headers: h });
    },
  };
}

/** The most `backlog()` read, sampled every 5 ms until `done()` (15 s at most): what a server held unsent for a stalled client. */
export async function sampleMaxBacklog(backlog: () => number, done: () => boolean): Promise<number> {
  let max = 0;
  const deadline = Date.now() + 15_000;
  while (!done() && Date.now() < deadline) {
    max = Math.max(max, backlog());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return max;
}
