/**
 * The daemon's composition root (`specterm serve`): finds or starts the PTY host, opens the store
 * in the state dir, ensures the admin token, re-attaches to the sessions the host still runs,
 * serves the API, and writes a private state file (pid, port, url, protocol version — never the
 * token) in the runtime dir so clients find it.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION, type Pairing, type Scope } from '../protocol/index.js';
import { createApiServer, ensureAdminToken, ensurePrivateDir, type ApiServer, type AuditEntry, type WsHandlers } from '../server/index.js';
import { openStore, type Store } from '../store/index.js';
import { writePrivateFile } from '../fs/private-file.js';
import { ApprovalTracker } from './approval.js';
import { ApprovalAnswers } from './approval-answers.js';
import { findJsonFault, locateOffset } from '../catalog/json-location.js';
import { DaemonError } from './errors.js';
import { acquireDaemonLocks, type DaemonLocks, DEFAULT_PORT } from './daemon-lock.js';
import { HostSupervisor } from './host-supervisor.js';
import { openEnvSeal } from './env-seal.js';
import { EventLog } from './event-log.js';
import { TerminalStream } from './terminal-topic.js';
import { startNotificationSinks, type NotificationSinks } from './notification-sinks.js';
import { approvalRoutes } from './routes/approval-routes.js';
import { pushRoutes } from './routes/push-routes.js';
import { PushKeysError } from './push-keys.js';
import { startPushService, type PushService } from './push-service.js';
import { eventsRoute, eventTopics } from './routes/event-routes.js';
import { imageRoutes } from './routes/image-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { debugRoutes } from './routes/debug-routes.js';
import { recordingRoutes } from './routes/recording-routes.js';
import { Recordings } from './recordings.js';
import { specRoutes } from './routes/spec-routes.js';
import { SessionSpecFiles } from './spec-files.js';
import { asApiError } from './routes/api-errors.js';
import { SessionManager } from './session-manager.js';

/** The file clients find the daemon by (in the runtime dir). */
export const DAEMON_STATE_FILE = 'daemon.json';
export { DEFAULT_PORT };

/** What the state file holds; `state_dir` lets a client tell a daemon of another state dir (whose token it lacks). */
export interface DaemonStateFile { pid: number; port: number; url: string; protocol_version: number; started_at: number; state_dir: string }

export interface DaemonOptions {
  runtimeDir: string;
  stateDir: string;
  host?: string;
  port?: number;
  allowNonLoopback?: boolean;
  tls?: { cert: string | Buffer; key: string | Buffer };
  sessionLimit?: number;
  version?: string;
  /** The terminal topic (`terminal/<id>`), supplied by the terminal stream module. */
  terminalTopic?: WsHandlers['subscribe'];
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface Daemon {
  readonly url: string;
  readonly port: number;
  readonly manager: SessionManager;
  readonly store: Store;
  readonly events: EventLog;
  /** A one-time pairing URL (`…/#pair=CODE`, 10 minutes, single use) for a browser or phone (docs/dashboard.md). */
  createPairing(grant: { deviceName: string; scope: Scope }): Pairing;
  /** Stops serving and lets every agent go (they keep running in the host). */
  close(): Promise<void>;
}

/** `<state>/settings.json`: `{session_limit?, approval_policies?: {<spec id or session name>: policy}, webhooks?: [...], desktop_notifications?: false}`. */
interface Settings { session_limit?: number; approval_policies?: Record<string, unknown>; webhooks?: unknown; desktop_notifications?: boolean; push?: unknown }

function readSettings(stateDir: string): Settings {
  const file = path.join(stateDir, 'settings.json');
  let text: string;
  try { text = fs.readFileSync(file, 'utf8'); } catch { return {}; }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text around the fault, and the file may hold secrets
    // (webhook secrets): our scanner names the place and what was expected instead.
    const fault = findJsonFault(text) ?? { offset: text.length, expected: 'valid JSON' };
    const at = locateOffset(text, fault.offset);
    throw new DaemonError('SETTINGS_INVALID', `${file} is not valid JSON at line ${at.line}, column ${at.column}: ${fault.expected}; fix it or remove the file`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DaemonError('SETTINGS_INVALID', `${file} must hold a JSON object such as {"approval_policies": {…}}, not ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}; fix it or remove the file`);
  }
  return parsed as Settings;
}

/** Writes the state file privately (temp + rename, 0600). */
function writeStateFile(runtimeDir: string, state: DaemonStateFile): string {
  const file = path.join(runtimeDir, DAEMON_STATE_FILE);
  writePrivateFile(file, JSON.stringify(state) + '\n');
  return file;
}

/** The tracker's next sequence number: one past any stored approval id's (`<session>.<seq>.<fp>`). */
function nextApprovalSeq(store: Store): number {
  let max = 0;
  for (const a of store.approvals.page({ order: 'desc', limit: 1000 }).items) {
    const seq = Number(a.id.split('.').at(-2));
    if (Number.isSafeInteger(seq) && seq > max) max = seq;
  }
  return max + 1;
}

/**
 * Starts the daemon, holding the state dir and the runtime dir for its life.
 *
 * @throws DaemonLockError when another daemon holds either (./daemon-lock.ts).
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  ensurePrivateDir(options.runtimeDir);
  ensurePrivateDir(options.stateDir);
  const locks = await acquireDaemonLocks(options);
  try {
    return await startLocked(options, locks);
  } catch (error) {
    await locks.release();
    throw error;
  }
}

async function startLocked(options: DaemonOptions, locks: DaemonLocks): Promise<Daemon> {
  const log = options.log ?? ((level, message) => process.stderr.write(`specterm serve: ${level}: ${message}\n`));
  const now = Date.now;
  const settings = readSettings(options.stateDir);
  const store = openStore(path.join(options.stateDir, 'specterm.db'), { now });
  if (store.notice) log('warn', `${store.notice.reason}; the old database is at ${store.notice.movedAside}`);
  const admin = ensureAdminToken(options.stateDir);
  if (admin.created) log('info', `created the admin token in ${admin.path}`);
  const host = await HostSupervisor.start(options.runtimeDir, log);
  let closed = false;
  const events = new EventLog({ journal: store.events });
  let sinks: NotificationSinks;
  let push: PushService;
  // Set once the sinks run, so a push settings error stops them again.
  let startedSinks: NotificationSinks | undefined;
  try {
    sinks = startedSinks = startNotificationSinks({ events, webhooks: settings.webhooks, desktop: settings.desktop_notifications === false ? false : {}, journal: store.notifications, log });
    push = startPushService({ stateDir: options.stateDir, events, subscriptions: store.pushSubscriptions, settings: settings.push, sessionName: (id) => store.sessions.get(id)?.name ?? id, log });
  } catch (error) {
    await startedSinks?.close();
    host.close();
    store.close();
    // The key file's error names its own file; a settings error is about settings.json.
    throw new DaemonError('SETTINGS_INVALID', error instanceof PushKeysError ? error.message : `${path.join(options.stateDir, 'settings.json')}: ${(error as Error).message}`);
  }
  const tracker = new ApprovalTracker({ firstSeq: nextApprovalSeq(store) });
  const answers = new ApprovalAnswers({ manager: () => manager, tracker, store, events, now, log });
  const specFiles = new SessionSpecFiles(options.stateDir);
  const manager: SessionManager = new SessionManager({
    store, host: host.client, ensureHost: () => host.ready(), events, tracker, now, specSource: (session) => specFiles.source(session), envSeal: openEnvSeal(options.stateDir), sessionLimit: options.sessionLimit ?? settings.session_limit,
    defaultPolicies: settings.approval_policies, onApprovalOpened: (session, approval) => answers.autoAnswer(session, approval), log,
  });
  await manager.recover();

  const audit = (entry: AuditEntry) => {
    const sessionId = typeof entry.params.id === 'string' ? entry.params.id : null;
    store.audit.insert({
      t: entry.at, who: entry.who, tokenId: entry.tokenId, action: entry.what, sessionId,
      detail: { params: entry.params, status: entry.status, code: entry.code, remoteAddress: entry.remoteAddress },
      outcome: entry.outcome, reason: entry.code,
    });
  };
  // The terminal topic (snapshot + bytes by seq, backpressure, the size lease): docs/daemon.md.
  const terminals = new TerminalStream({
    sessions: (id) => {
      try {
        const session = manager.get(id);
        return session.driver && session.transport ? { driver: session.driver, transport: session.transport, resize: (cols: number, rows: number) => session.resize(cols, rows), notePersonInput: () => session.notePersonInput() } : undefined;
      } catch {
        return undefined;
      }
    },
  });
  const followTerminals = events.subscribe((event) => {
    if (event.type === 'session.created') terminals.follow(event.session_id);
    else if (event.type === 'session.removed') { terminals.forget(event.session_id); specFiles.forget(event.session_id); }
  });
  const debug = debugRoutes({ manager, events, now });
  const recordings = new Recordings(options.stateDir, now, events);
  const mapped = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A): R => {
    try {
      return fn(...args);
    } catch (error) {
      throw asApiError(error);
    }
  };
  let server: ApiServer;
  try {
    server = await createApiServer({
      host: options.host, port: options.port ?? DEFAULT_PORT, allowNonLoopback: options.allowNonLoopback, tls: options.tls,
      tokens: store.tokens, adminToken: admin.token, version: options.version, audit,
      log: (level, message) => log(level, message),
      handlers: { ...sessionRoutes({ manager, store, now }), ...approvalRoutes(answers), events: eventsRoute(events, manager), ...imageRoutes({ manager }), ...pushRoutes(push, store.pushSubscriptions, now), ...debug.handlers, ...recordingRoutes(manager, recordings), ...specRoutes({ manager, files: specFiles, now }) },
      ws: {
        subscribe: eventTopics(events, manager, options.terminalTopic ?? mapped(terminals.subscribe)),
        input: mapped(terminals.input),
        resize: mapped(terminals.resize),
        lease: mapped(terminals.lease),
      },
    });
  } catch (error) {
    push.close();
    manager.detachAll();
    await sinks.close();
    host.close();
    store.close();
    throw error;
  }
  locks.setEndpoint(server.port, server.url);
  const stateFile = writeStateFile(options.runtimeDir, { pid: process.pid, port: server.port, url: server.url, protocol_version: PROTOCOL_VERSION, started_at: now(), state_dir: path.resolve(options.stateDir) });
  const pruneTimer = setInterval(() => { try { store.prune(); } catch (error) { log('warn', `prune failed: ${(error as Error).message}`); } }, 60 * 60 * 1000);
  pruneTimer.unref();
  return {
    url: server.url, port: server.port, manager, store, events,
    createPairing: (grant) => server.createPairing(grant),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(pruneTimer);
      await server.close();
      followTerminals();
      debug.close();
      recordings.close();
      terminals.close();
      push.close();
      await sinks.close();
      manager.detachAll();
      host.close();
      store.close();
      try {
        const current = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as DaemonStateFile;
        if (current.pid === process.pid) fs.rmSync(stateFile, { force: true });
      } catch {}
      await locks.release();
    },
  };
}


