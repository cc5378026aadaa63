/**
 * The daemon's composition root (`specterm serve`): finds or starts the PTY host, opens the store
 * in the state dir, ensures the admin token, re-attaches to the sessions the host still runs,
 * serves the API, and writes a private state file (pid, port, url, protocol version — never the
 * token) in the runtime dir so clients find it.
 *
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeNameFromHost, NODE_NAME_PATTERN, PROTOCOL_VERSION, type Pairing, type Scope } from '../protocol/index.js';
import { createApiServer, ensureAdminToken, ensurePrivateDir, type ApiServer } from '../server/index.js';
import type { AuditEntry, WsHandlers } from '../ops/contracts.js';
import { Operations } from '../ops/executor.js';
import { RateLimiter } from '../ops/rate-limiter.js';
import type { Authenticator } from '@nats-io/transport-node';
import type { NodeLink } from '../nats/node-link.js';
import { publishedCursor } from '../nats/event-publisher.js';
import { openStore, type Store } from '../store/index.js';
import { writePrivateFile } from '../fs/private-file.js';
import { ApprovalTracker } from '../daemon/approval.js';
import { ApprovalAnswers } from '../daemon/approval-answers.js';
import { findJsonFault, locateOffset } from '../catalog/json-location.js';
import { DaemonError } from '../daemon/errors.js';
import { acquireDaemonLocks, type DaemonLocks, DEFAULT_PORT } from '../daemon/daemon-lock.js';
import { HostSupervisor } from '../daemon/host-supervisor.js';
import { openEnvSeal } from '../daemon/env-seal.js';
import { EventLog } from '../daemon/event-log.js';
import { TerminalStream } from '../daemon/terminal-topic.js';
import { startNotificationSinks, type NotificationSinks } from '../daemon/notification-sinks.js';
import { approvalRoutes } from '../ops/handlers/approval-routes.js';
import { pushRoutes } from '../ops/handlers/push-routes.js';
import { PushKeysError } from '../daemon/push-keys.js';
import { startPushService, type PushService } from '../daemon/push-service.js';
import { eventsRoute, eventTopics, localSessionFilter } from '../ops/handlers/event-routes.js';
import { imageRoutes } from '../ops/handlers/image-routes.js';
import { sessionRoutes } from '../ops/handlers/session-routes.js';
import { debugRoutes } from '../ops/handlers/debug-routes.js';
import { recordingRoutes } from '../ops/handlers/recording-routes.js';
import { Recordings } from '../daemon/recordings.js';
import { specRoutes } from '../ops/handlers/spec-routes.js';
import { SessionSpecFiles } from '../daemon/spec-files.js';
import { SessionManager } from '../daemon/session-manager.js';
import type { ManagedSession } from '../daemon/managed-session.js';
import { SessionTranscripts } from '../daemon/session-transcripts.js';
import { transcriptRoutes } from '../ops/handlers/transcript-routes.js';
import { taskRoutes } from '../ops/handlers/task-routes.js';
import { parseOrchestration, type OrchestrationSettings } from '../daemon/orchestration.js';
import { TaskRunner } from '../daemon/task-runner.js';
import { LastNotices } from '../daemon/last-notices.js';

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
  /** This daemon's node name (a fleet-unique name such as `laptop`); default: the host name's first label. */
  node?: string;
  /** Join a fleet: the NATS server's URL and how to authenticate to it (docs/fleet.md). */
  nats?: { url: string; authenticator?: Authenticator };
  version?: string;
  /** The terminal topic (`terminal/<id>`), supplied by the terminal stream module. */
  terminalTopic?: WsHandlers['subscribe'];
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface Daemon {
  readonly url: string;
  readonly port: number;
  /** The node name stamped on every session, approval and event. */
  readonly node: string;
  readonly manager: SessionManager;
  readonly store: Store;
  readonly events: EventLog;
  /** A one-time pairing URL (`…/#pair=CODE`, 10 minutes, single use) for a browser or phone (docs/dashboard.md). */
  createPairing(grant: { deviceName: string; scope: Scope }): Pairing;
  /** Stops serving and lets every agent go (they keep running in the host). */
  close(): Promise<void>;
}

/** `<state>/settings.json`: `{session_limit?, approval_policies?: {<spec id or session name>: policy}, webhooks?: [...], desktop_notifications?: false, push?, orchestration?}`. */
interface Settings { session_limit?: number; approval_policies?: Record<string, unknown>; webhooks?: unknown; desktop_notifications?: boolean; push?: unknown; orchestration?: unknown }

/** A notification sink's or the push service's refusal of settings.json (or of the key file, which names itself). */
export function settingsError(stateDir: string, error: unknown): DaemonError {
  return new DaemonError('SETTINGS_INVALID', error instanceof PushKeysError ? error.message : `${path.join(stateDir, 'settings.json')}: ${(error as Error).message}`);
}

export function readSettings(stateDir: string): Settings {
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

/** The operations' audit, into the store's audit table. */
export function auditInto(store: Store): (entry: AuditEntry) => void {
  return (entry) => {
    const sessionId = typeof entry.params.id === 'string' ? entry.params.id : null;
    store.audit.insert({
      t: entry.at, who: entry.who, tokenId: entry.tokenId, action: entry.what, sessionId,
      detail: { params: entry.params, status: entry.status, code: entry.code, remoteAddress: entry.remoteAddress, via: entry.via, ...(entry.callerSession ? { caller_session: entry.callerSession } : {}) },
      outcome: entry.outcome, reason: entry.code,
    });
  };
}

/** Writes the state file privately (temp + rename, 0600). */
export function writeStateFile(runtimeDir: string, state: DaemonStateFile): string {
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
  const node = options.node ?? nodeNameFromHost(os.hostname());
  if (!NODE_NAME_PATTERN.test(node)) throw new DaemonError('SETTINGS_INVALID', `the node name '${node}' is not one: use 1–63 lowercase letters, digits and dashes, starting with a letter or digit (e.g. laptop, build-01)`);
  const settings = readSettings(options.stateDir);
  let orchestration: OrchestrationSettings;
  try {
    orchestration = parseOrchestration(settings.orchestration);
  } catch (error) {
    throw new DaemonError('SETTINGS_INVALID', `${path.join(options.stateDir, 'settings.json')}: ${(error as Error).message}; fix it and start the daemon again`);
  }
  const store = openStore(path.join(options.stateDir, 'specterm.db'), { now });
  if (store.notice) log('warn', `${store.notice.reason}; the old database is at ${store.notice.movedAside}`);
  const admin = ensureAdminToken(options.stateDir);
  if (admin.created) log('info', `created the admin token in ${admin.path}`);
  const host = await HostSupervisor.start(options.runtimeDir, log);
  let closed = false;
  const events = new EventLog({ journal: store.events, node });
  // A journal made anew (the old one moved aside as corrupt) numbers on after what the fleet has
  // of this node: a reused seq would share its message id (JetStream drops it as a duplicate)
  // and sit below the hub's high-water mark (the hub skips it).
  if (options.nats) events.continueAfter(publishedCursor(options.stateDir));
  let sinks: NotificationSinks;
  let push: PushService;
  // Set once the sinks run, so a push settings error stops them again.
  let startedSinks: NotificationSinks | undefined;
  try {
    sinks = startedSinks = startNotificationSinks({ events, webhooks: settings.webhooks, desktop: settings.desktop_notifications === false ? false : {}, journal: store.notifications, log });
    push = startPushService({ stateDir: options.stateDir, events, subscriptions: store.pushSubscriptions, settings: settings.push, sessionName: (e) => store.sessions.get(e.session_id)?.name ?? e.session_id, log });
  } catch (error) {
    await startedSinks?.close();
    host.close();
    store.close();
    throw settingsError(options.stateDir, error);
  }
  const tracker = new ApprovalTracker({ firstSeq: nextApprovalSeq(store) });
  const answers = new ApprovalAnswers({ manager: () => manager, tracker, store, events, now, log, parentAnswers: orchestration.parent_answers });
  const specFiles = new SessionSpecFiles(options.stateDir);
  const transcripts = new SessionTranscripts({ store, events, now, log });
  const manager: SessionManager = new SessionManager({
    store, node, transcripts, host: host.client, ensureHost: () => host.ready(), events, tracker, now, specSource: (session) => specFiles.source(session), envSeal: openEnvSeal(options.stateDir), sessionLimit: options.sessionLimit ?? settings.session_limit,
    defaultPolicies: settings.approval_policies, onApprovalOpened: (session, approval) => answers.autoAnswer(session, approval), log,
    limits: orchestration, onDelegate: (session, trigger, task) => void tasks.delegate(session, trigger, task),
  });
  await manager.recover();
  const tasks: TaskRunner = new TaskRunner({ manager: () => manager, store, events, transcripts, now, node, log, routes: orchestration.delegate_routes });

  const audit = auditInto(store);
  // The terminal topic (snapshot + bytes by seq, backpressure, the size lease): docs/daemon.md.
  const terminals = new TerminalStream({
    sessions: (id) => {
      try {
        const session = manager.get(id);
        return session.driver && session.transport ? { driver: session.driver, transport: session.transport, resize: (cols: number, rows: number) => session.resize(cols, rows), notePersonInput: (data: string) => { session.notePersonInput(); transcripts.noteKeys(session.id, data); } } : undefined;
      } catch {
        return undefined;
      }
    },
  });
  const withSession = (id: string, use: (session: ManagedSession) => void) => {
    let session: ManagedSession;
    try { session = manager.get(id); } catch { return; }
    use(session);
  };
  const followTerminals = events.subscribe((event) => {
    if (event.type === 'session.created') terminals.follow(event.session_id);
    else if (event.type === 'session.removed') { terminals.forget(event.session_id); specFiles.forget(event.session_id); transcripts.forget(event.session_id); }
    // A turn's end is read at once (the answer is there right after the idle); an exit reads the rest.
    else if (event.type === 'session.state') withSession(event.session_id, (s) => transcripts.onState(s, event.state.status));
    else if (event.type === 'turn.finished') withSession(event.session_id, (s) => transcripts.onTurnFinished(s));
    else if (event.type === 'session.exited') transcripts.stop(event.session_id);
  });
  const notices = new LastNotices(events);
  const debug = debugRoutes({ manager, events, now });
  const recordings = new Recordings(options.stateDir, now, events);
  // One executor for every transport: the same scopes, rate limits and audit however a call arrives.
  const operations = new Operations({
    handlers: { ...sessionRoutes({ manager, store, now, transcripts, node, events, notices }), ...transcriptRoutes({ manager, transcripts, store }), ...taskRoutes(tasks), ...approvalRoutes(answers, node), ...imageRoutes({ manager }), ...pushRoutes(push, store.pushSubscriptions, now), ...debug.handlers, ...recordingRoutes(manager, recordings), ...specRoutes({ manager, files: specFiles, now }) },
    events: eventsRoute(events, localSessionFilter(manager)),
    live: {
      subscribe: eventTopics(events, localSessionFilter(manager), options.terminalTopic ?? terminals.subscribe),
      input: terminals.input,
      resize: terminals.resize,
      lease: terminals.lease,
    },
    rateLimiter: new RateLimiter({ now }),
    audit, now,
    onUnexpected: (error) => log('error', `unexpected: ${(error as Error)?.stack ?? String(error)}`),
  });
  let server: ApiServer;
  try {
    server = await createApiServer({
      host: options.host, port: options.port ?? DEFAULT_PORT, allowNonLoopback: options.allowNonLoopback, tls: options.tls,
      tokens: store.tokens, adminToken: admin.token, version: options.version, node, operations,
      log: (level, message) => log(level, message),
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
  // The fleet link starts in the background and retries: a node never waits for NATS to serve.
  let link: NodeLink | undefined;
  const linking = options.nats && linkToFleet(options.nats, () => closed, (l) => { link = l; }, {
    node, version: options.version ?? '0.0.0', stateDir: options.stateDir, operations, events,
    authenticate: (secret, address) => server.authenticateSecret(secret, address),
    sessions: () => manager.list().map((s) => s.detail()), log,
  });
  const stateFile = writeStateFile(options.runtimeDir, { pid: process.pid, port: server.port, url: server.url, protocol_version: PROTOCOL_VERSION, started_at: now(), state_dir: path.resolve(options.stateDir) });
  const pruneTimer = setInterval(() => { try { store.prune(); } catch (error) { log('warn', `prune failed: ${(error as Error).message}`); } }, 60 * 60 * 1000);
  pruneTimer.unref();
  return {
    url: server.url, port: server.port, node, manager, store, events,
    createPairing: (grant) => server.createPairing(grant),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(pruneTimer);
      await linking;
      await link?.close();
      await server.close();
      followTerminals();
      notices.dispose();
      debug.close();
      recordings.close();
      terminals.close();
      transcripts.close();
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

/** Links the node to its fleet, retrying every 2 s until NATS answers or the daemon closes. */
async function linkToFleet(
  nats: { url: string; authenticator?: Authenticator }, closed: () => boolean, linked: (link: NodeLink) => void,
  options: Omit<import('../nats/node-link.js').NodeLinkOptions, 'url' | 'authenticator'>,
): Promise<void> {
  const { NodeLink, redactUrl } = await import('../nats/node-link.js');
  let said: string | null = null;
  for (let attempt = 0; !closed(); attempt++) {
    try {
      const link = await NodeLink.start({ ...options, url: nats.url, authenticator: nats.authenticator });
      if (closed()) return void (await link.close());
      return linked(link);
    } catch (error) {
      // Said once, and again only when the reason changes (it can move from the server to JetStream).
      const reason = (error as Error).message;
      if (reason !== said) options.log('warn', `nats: cannot ${attempt === 0 ? 'reach' : 'link to'} ${redactUrl(nats.url)} (${reason}); serving locally and retrying every 2 s`);
      said = reason;
      await new Promise((resolve) => setTimeout(resolve, 2_000).unref());
    }
  }
}

