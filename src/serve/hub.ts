/**
 * The hub's composition root (`specterm hub`): a daemon with no agents of its own. It has its own
 * state dir (SQLite store: tokens, pairing, audit; the admin token; its event journal), holds
 * the same locks and writes the same state file as `specterm serve`, and serves the same
 * HTTP/WS/SSE API and dashboard through ONE `Operations` whose handlers are the fleet's
 * (src/hub): lists gathered from every node, operations forwarded to the node that owns the
 * object, events from the durable JetStream consumer. docs/fleet.md, "The hub".
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Authenticator } from '@nats-io/transport-node';
import { PROTOCOL_VERSION, type DaemonEvent, type Pairing, type Scope } from '../protocol/index.js';
import { createApiServer, ensureAdminToken, ensurePrivateDir, type ApiServer } from '../server/index.js';
import type { RequestContext } from '../ops/contracts.js';
import { Operations } from '../ops/executor.js';
import { RateLimiter } from '../ops/rate-limiter.js';
import { eventsRoute, eventTopics, type SessionFilter } from '../ops/handlers/event-routes.js';
import { openStore, type PushSubscriptionsTable } from '../store/index.js';
import { acquireDaemonLocks } from '../daemon/daemon-lock.js';
import { EventLog } from '../daemon/event-log.js';
import { FleetTokenLedger } from '../nats/fleet-tokens-ledger.js';
import { FleetIndex, fleetId } from '../hub/fleet-index.js';
import { fleetListRoutes } from '../hub/fleet-lists.js';
import { forwardingRoutes } from '../hub/forwarding.js';
import { HubCall } from '../hub/hub-call.js';
import { HubLink } from '../hub/hub-link.js';
import type { FleetPresence } from '../hub/fleet-presence.js';
import { hubTerminals } from '../hub/hub-terminals.js';
import { HubTokens } from '../hub/hub-tokens.js';
import { pushRoutes } from '../ops/handlers/push-routes.js';
import { startPushService, type PushService } from '../daemon/push-service.js';
import { auditInto, DAEMON_STATE_FILE, readSettings, settingsError, writeStateFile, type DaemonStateFile } from './daemon.js';

/** A notification older than this when the hub reads it (it was stopped, or NATS was away) wakes nobody. */
export const PUSH_STALE_MS = 10 * 60_000;

/** How long a node has to answer the hub (a list waits at most this for a silent node). */
export const NODE_TIMEOUT_MS = 3_000;

export interface HubOptions {
  runtimeDir: string;
  stateDir: string;
  nats: { url: string; authenticator?: Authenticator };
  /** The hub's name (its durable consumer is named for it); default `hub`. */
  name?: string;
  host?: string;
  port?: number;
  allowNonLoopback?: boolean;
  tls?: { cert: string | Buffer; key: string | Buffer };
  version?: string;
  nodeTimeoutMs?: number;
  /** How long a node keeps a hub's terminal subscription that hears nothing (src/nats/topic-wire.ts's default). */
  terminalKeepaliveMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface Hub {
  readonly url: string;
  readonly port: number;
  readonly name: string;
  /** Resolves once the hub is linked to NATS. */
  linked(): Promise<void>;
  createPairing(grant: { deviceName: string; scope: Scope }): Pairing;
  close(): Promise<void>;
}

export async function startHub(options: HubOptions): Promise<Hub> {
  ensurePrivateDir(options.runtimeDir);
  ensurePrivateDir(options.stateDir);
  const locks = await acquireDaemonLocks(options);
  const log = options.log ?? ((level, message) => process.stderr.write(`specterm hub: ${level}: ${message}\n`));
  const now = Date.now;
  const name = options.name ?? 'hub';
  let store: ReturnType<typeof openStore> | undefined;
  let link: HubLink | undefined;
  let push: PushService | undefined;
  try {
    const settings = readSettings(options.stateDir);
    store = openStore(path.join(options.stateDir, 'specterm.db'), { now });
    if (store.notice) log('warn', `${store.notice.reason}; the old database is at ${store.notice.movedAside}`);
    const admin = ensureAdminToken(options.stateDir);
    if (admin.created) log('info', `created the admin token in ${admin.path}`);
    const ledger = new FleetTokenLedger({ file: path.join(options.stateDir, 'fleet-tokens.json'), log: (m) => log('warn', m) });
    const tokens = new HubTokens({ inner: store.tokens, ledger, adminToken: admin.token, now });
    // Events keep the node they come from: the hub stamps none of its own.
    const events = new EventLog({ journal: store.events });
    const index = new FleetIndex();
    push = startHubPush({ stateDir: options.stateDir, settings: settings.push, events, subscriptions: store.pushSubscriptions, presence: () => link?.presence, now, log });
    const hubLink = link = new HubLink({ url: options.nats.url, authenticator: options.nats.authenticator, hub: name, events, index, ledger, nodeTimeoutMs: options.nodeTimeoutMs ?? NODE_TIMEOUT_MS, log });
    const call = new HubCall(() => hubLink.nodes, tokens);
    const lists = fleetListRoutes({ presence: () => hubLink.presence, index, call, now, eventSeq: () => events.lastSeq });
    const refresh = async (ctx: RequestContext) => {
      await Promise.all([lists.listSessions(undefined, ctx), lists.listApprovals(undefined, ctx), lists.listTasks(undefined, ctx), lists.listRecordings(undefined, ctx)]);
    };
    const sessions: SessionFilter = (ref) => {
      const placed = index.place('session', ref);
      return { sessionId: placed.id, matches: (event) => event.session_id === placed.id && event.node === placed.node };
    };
    const terminals = hubTerminals({ index, call, tokens, nc: () => hubLink.connection, keepaliveMs: options.terminalKeepaliveMs });
    const operations = new Operations({
      handlers: { ...forwardingRoutes({ index, presence: () => hubLink.presence, call, refresh }), ...lists, ...pushRoutes(push, store.pushSubscriptions, now) },
      events: eventsRoute(events, sessions),
      live: { ...terminals, subscribe: eventTopics(events, sessions, terminals.subscribe) },
      rateLimiter: new RateLimiter({ now }),
      audit: auditInto(store), now,
      onUnexpected: (error) => log('error', `unexpected: ${(error as Error)?.stack ?? String(error)}`),
    });
    const server: ApiServer = await createApiServer({
      host: options.host, port: options.port ?? 0, allowNonLoopback: options.allowNonLoopback, tls: options.tls,
      tokens, adminToken: admin.token, version: options.version, node: name, operations, log,
    });
    locks.setEndpoint(server.port, server.url);
    const stateFile = writeStateFile(options.runtimeDir, { pid: process.pid, port: server.port, url: server.url, protocol_version: PROTOCOL_VERSION, started_at: now(), state_dir: path.resolve(options.stateDir) });
    const opened = store;
    const pushing = push;
    let closed = false;
    return {
      url: server.url, port: server.port, name,
      linked: () => hubLink.ready(),
      createPairing: (grant) => server.createPairing(grant),
      close: async () => {
        if (closed) return;
        closed = true;
        await hubLink.close();
        pushing.close();
        await server.close();
        opened.close();
        try {
          const current = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as DaemonStateFile;
          if (current.pid === process.pid) fs.rmSync(path.join(options.runtimeDir, DAEMON_STATE_FILE), { force: true });
        } catch {}
        await locks.release();
      },
    };
  } catch (error) {
    push?.close();
    await link?.close();
    store?.close();
    await locks.release();
    throw error;
  }
}

/**
 * Web Push from the hub: a phone subscribed on the hub is woken for an approval, a finished turn
 * or an exit on any node, titled with the session's name and its node and opening the session by
 * its fleet id. Its keys and subscriptions are the hub's own (its state dir, its store), its
 * settings the `push` member of the hub's settings.json, as on a node.
 */
function startHubPush(o: { stateDir: string; settings: unknown; events: EventLog; subscriptions: PushSubscriptionsTable; presence: () => FleetPresence | undefined; now: () => number; log: NonNullable<HubOptions['log']> }): PushService {
  // Names from the sessions each node announced, and from the sessions created since.
  const created = new Map<string, string>();
  const stopNaming = o.events.subscribe((e) => {
    if (e.type === 'session.created' && e.node !== undefined && e.session.name) created.set(fleetId(e.node, e.session_id), e.session.name);
    if (e.type === 'session.removed' && e.node !== undefined) created.delete(fleetId(e.node, e.session_id));
  });
  const ref = (e: DaemonEvent) => (e.node === undefined ? e.session_id : fleetId(e.node, e.session_id));
  const nameOf = (e: DaemonEvent) => {
    let presence: FleetPresence | undefined;
    try { presence = o.presence(); } catch { presence = undefined; } // not linked yet
    const announced = e.node === undefined ? undefined : presence?.record(e.node)?.sessions.find((s) => s.id === e.session_id)?.name;
    const name = created.get(ref(e)) ?? announced ?? e.session_id;
    return e.node === undefined ? name : `${name} on ${e.node}`;
  };
  try {
    const push = startPushService({
      stateDir: o.stateDir, events: o.events, subscriptions: o.subscriptions, settings: o.settings,
      sessionName: nameOf, sessionRef: ref, staleAfterMs: PUSH_STALE_MS, now: o.now, log: o.log,
    });
    return { ...push, close: () => { stopNaming(); push.close(); } };
  } catch (error) {
    stopNaming();
    throw settingsError(o.stateDir, error);
  }
}
