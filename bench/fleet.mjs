#!/usr/bin/env node
/**
 * A fleet on NATS JetStream under load (issue 25): `--nodes` (10) real `specterm serve --nats`
 * daemons on this machine, each with `--sessions` (20) agents streaming like real ones (the
 * daemon model's StreamAgent through a FIFO and `cat`), one real `nats-server -js` on a free
 * loopback port with its monitoring port on.
 *
 * Figures (prefix `fleet_<nodes>x<sessions>_`):
 * - `nodes_cpu_core` — every node's daemon + PTY host over the window (fraction of one core);
 * - `nats_cpu_core` — the NATS server's;
 * - `nats_bytes_per_session_per_s`, `nats_msgs_per_session_per_s` — what the nodes put on NATS
 *   (the server's `in_bytes` / `in_msgs` over the window, per streaming session);
 * - `catchup_ms` — after NATS was down `--outage-ms` (60000) while every agent streamed on: from
 *   the server being ready again to every node having published every event it made before
 *   (its cursor file against its journal's last seq at the restart), the slowest node;
 *   `catchup_backlog_events` — how many events waited, over all nodes.
 * - with `--hub`: a real `specterm hub --nats` and one client on it as the dashboard's overview
 *   (subscribed to `sessions`, re-reading `GET /sessions` after each burst): `hub_cpu_core` over
 *   the window, and `hub_state_lag_turn_start_p50_ms` / `_p99_ms` (and `_all_`) — from the frame
 *   that starts or ends a turn being written on a node's PTY to the hub's client receiving the
 *   `session.state` event (through the node's driver, JetStream and the hub's consumer);
 *   `hub_state_lag_from_driver_*` — from the node's driver deciding the state (the event's `at`)
 *   to the hub's client receiving it: the target, without the spec's own quiet rule.
 *
 * Usage: npm run build && node bench/fleet.mjs [--nodes 10] [--sessions 20] [--window-ms 20000]
 *          [--outage-ms 60000] [--history-lines 200] [--hub]
 * Needs Debian's nats-server. Say the load average beside any figure (it is printed).
 */
import Database from 'better-sqlite3';
import { fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHostProcess } from '../dist/host/index.js';
import { benchArgs, cpuTicks, readJson, sleep, TICKS_PER_S, waitFor } from './bench-cli.mjs';
import { summarize, withOverviewLags } from './daemon-model/lag-stats.mjs';
import { startAgents } from './daemon-model/stream-agents.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = benchArgs(import.meta.url, args);
const NODES = Number(opt('nodes', '10'));
const SESSIONS = Number(opt('sessions', '20'));
const WINDOW_MS = Number(opt('window-ms', '20000'));
const OUTAGE_MS = Number(opt('outage-ms', '60000'));
const HISTORY_LINES = Number(opt('history-lines', '200'));
const HUB = args.includes('--hub');
const PREFIX = `fleet_${NODES}x${SESSIONS}`;
const COLS = 120;
const ROWS = 40;
const SPECTERM = path.join(here, '..', 'bin', 'specterm.js');
const SPEC = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'stream-agent.spec.json'), 'utf8'));
const AGENT_OPTIONS = { cols: COLS, turnMs: 15_000, idleMs: 5_000, historyLines: HISTORY_LINES, writeBytesPerTick: 16 * 1024, keepFlips: HUB };

const out = (name, value) => console.log(`${PREFIX}_${name}=${typeof value === 'number' ? Number(value.toFixed(3)) : value}`);
async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A real nats-server with JetStream and monitoring; `stop`/`start` keep its port and store. */
async function natsServer(dir) {
  const port = await freePort();
  const monitor = await freePort();
  let child = null;
  const server = {
    url: `nats://127.0.0.1:${port}`,
    get pid() { return child?.pid; },
    async start() {
      child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), '-js', '-sd', path.join(dir, 'nats')], { stdio: 'ignore' });
      await waitFor(async () => (await fetch(`http://127.0.0.1:${monitor}/healthz`).catch(() => null))?.ok, 30_000, 'nats-server');
    },
    async stop() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGTERM');
      await exited;
    },
    async varz() { return await (await fetch(`http://127.0.0.1:${monitor}/varz`)).json(); },
  };
  await server.start();
  return server;
}

/** One node: its own dirs, its host (started here so its pid is known), its daemon, its agents. */
async function startNode(root, index, natsUrl) {
  const name = `n${index + 1}`;
  const dir = path.join(root, name);
  const runtimeDir = path.join(dir, 'run');
  const stateDir = path.join(dir, 'state');
  for (const d of [dir, runtimeDir, stateDir]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const env = { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir, HOME: dir };
  const host = await startHostProcess({ runtimeDir, env });
  const daemon = spawn(process.execPath, [SPECTERM, 'serve', '--port', '0', '--node', name, '--nats', natsUrl, '--session-limit', String(SESSIONS + 5)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  daemon.stderr.on('data', (d) => { stderr += d; });
  const state = await waitFor(() => { const s = readJson(path.join(runtimeDir, 'daemon.json')); return s?.pid === daemon.pid ? s : null; }, 60_000, () => `node ${name} (stderr: ${stderr.slice(-400)})`);
  const token = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
  const api = async (method, route, body) => {
    const res = await fetch(`${state.url}/api/v1${route}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json();
    if (!res.ok) throw new Error(`${name}: ${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  await waitFor(() => stderr.includes('linked to'), 60_000, () => `node ${name} to link to NATS (stderr: ${stderr.slice(-400)})`);
  const specFile = path.join(dir, 'stream-agent.spec.json');
  fs.writeFileSync(specFile, JSON.stringify({ ...SPEC, binary: 'cat', spawn_args: [] }));
  const agents = startAgents(dir, SESSIONS, AGENT_OPTIONS);
  const ids = [];
  for (const s of agents.sessions) ids.push((await api('POST', '/sessions', { spec: specFile, cwd: dir, args: [s.fifo], cols: COLS, rows: ROWS, name: s.id })).id);
  return {
    name, daemon, hostPid: host.pid, agents, api, stateDir, ids,
    stderr: () => stderr,
    /** The last event its journal holds. */
    lastSeq() {
      const db = new Database(path.join(stateDir, 'specterm.db'), { readonly: true, fileMustExist: true });
      try { return db.prepare('SELECT max(seq) AS seq FROM events').get().seq ?? 0; } finally { db.close(); }
    },
    /** The last event JetStream acknowledged (the publisher's cursor). */
    published() { return readJson(path.join(stateDir, 'nats-published.json'))?.seq ?? 0; },
    async stop() {
      agents.stop();
      daemon.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => daemon.once('exit', resolve)), sleep(10_000)]);
      if (daemon.exitCode === null) daemon.kill('SIGKILL');
      try { process.kill(host.pid, 'SIGTERM'); } catch {}
    },
  };
}

/** The hub, on its own dirs, linked to the fleet; with one overview client (bench-clients.mjs). */
async function startHub(root, natsUrl) {
  const dir = path.join(root, 'hub');
  const runtimeDir = path.join(dir, 'run');
  const stateDir = path.join(dir, 'state');
  for (const d of [dir, runtimeDir, stateDir]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const env = { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir, HOME: dir };
  const hub = spawn(process.execPath, [SPECTERM, 'hub', '--nats', natsUrl, '--port', '0', '--no-pair', '--state-dir', stateDir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  hub.stderr.on('data', (d) => { stderr += d; });
  const state = await waitFor(() => { const s = readJson(path.join(runtimeDir, 'hub', 'daemon.json')); return s?.pid === hub.pid ? s : null; }, 60_000, () => `the hub (stderr: ${stderr.slice(-400)})`);
  await waitFor(() => stderr.includes('linked to'), 60_000, () => `the hub to link (stderr: ${stderr.slice(-400)})`);
  const token = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
  const clients = fork(path.join(here, 'daemon-model', 'bench-clients.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (type) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench-clients: no '${type}' within 120 s`)), 120_000);
    const on = (msg) => {
      if (msg.type === 'error') { clearTimeout(timer); clients.off('message', on); reject(new Error(`bench-clients: ${msg.message}`)); }
      if (msg.type === type) { clearTimeout(timer); clients.off('message', on); resolve(msg); }
    };
    clients.on('message', on);
  });
  await next('hello');
  clients.send({ type: 'start', port: Number(new URL(state.url).port), token, sessions: [], clients: 1, overview: true, api: state.url });
  await next('subscribed');
  return {
    pid: hub.pid,
    reset: () => clients.send({ type: 'reset' }),
    report: async () => { clients.send({ type: 'report' }); return await next('report'); },
    async stop() {
      clients.kill('SIGKILL');
      hub.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => hub.once('exit', resolve)), sleep(10_000)]);
      if (hub.exitCode === null) hub.kill('SIGKILL');
    },
  };
}

async function main() {
  if (spawnSync('nats-server', ['--version']).error) throw new Error('needs Debian\'s nats-server (apt-get install nats-server)');
  const root = fs.mkdtempSync('/tmp/specterm-fleet-');
  fs.chmodSync(root, 0o700);
  const nodes = [];
  let nats;
  let hub;
  try {
    nats = await natsServer(root);
    console.error(`fleet: starting ${NODES} nodes × ${SESSIONS} streaming sessions`);
    for (let i = 0; i < NODES; i++) nodes.push(await startNode(root, i, nats.url));
    await waitFor(async () => {
      for (const node of nodes) {
        const { sessions } = await node.api('GET', '/sessions');
        if (sessions.some((s) => !s.state || s.state.id === 'starting')) return false;
      }
      return true;
    }, 300_000, 'every session to leave starting');
    if (HUB) hub = await startHub(root, nats.url);
    await sleep(5_000);

    const pids = nodes.flatMap((n) => [n.daemon.pid, n.hostPid]);
    hub?.reset();
    const before = { nodes: pids.map(cpuTicks), nats: cpuTicks(nats.pid), hub: hub ? cpuTicks(hub.pid) : 0, varz: await nats.varz() };
    const w0 = performance.now();
    await sleep(WINDOW_MS);
    const seconds = (performance.now() - w0) / 1000;
    const after = { nodes: pids.map(cpuTicks), nats: cpuTicks(nats.pid), hub: hub ? cpuTicks(hub.pid) : 0, varz: await nats.varz() };
    const streams = NODES * SESSIONS;
    out('load_average', os.loadavg()[0]);
    out('nodes_cpu_core', after.nodes.reduce((a, t, i) => a + t - before.nodes[i], 0) / TICKS_PER_S / seconds);
    out('nats_cpu_core', (after.nats - before.nats) / TICKS_PER_S / seconds);
    out('nats_bytes_per_session_per_s', (after.varz.in_bytes - before.varz.in_bytes) / streams / seconds);
    out('nats_msgs_per_session_per_s', (after.varz.in_msgs - before.varz.in_msgs) / streams / seconds);
    if (hub) {
      // Each node's sessions' turn starts and ends, indexed as node × session.
      const flips = nodes.flatMap((n) => n.agents.flips);
      const index = new Map(nodes.flatMap((n, i) => n.ids.map((id, j) => [`${n.name}/${id}`, i * SESSIONS + j])));
      const report = withOverviewLags(await hub.report(), flips, (ev) => index.get(`${ev.node}/${ev.id}`) ?? -1);
      out('hub_cpu_core', (after.hub - before.hub) / TICKS_PER_S / seconds);
      out('hub_state_events', report.received.length);
      out('hub_state_lag_turn_start_p50_ms', report.busy.p50 ?? -1);
      out('hub_state_lag_turn_start_p99_ms', report.busy.p99 ?? -1);
      out('hub_state_lag_all_p50_ms', report.state.p50 ?? -1);
      out('hub_state_lag_all_p99_ms', report.state.p99 ?? -1);
      // From the node's driver deciding the state (the event's `at`, the node's wall clock) to the
      // hub's client receiving it: the node's journal, JetStream, the hub's consumer and socket.
      const fromDriver = summarize(report.received.map((ev) => ev.wallMs - ev.sentMs));
      out('hub_state_lag_from_driver_p50_ms', fromDriver.p50 ?? -1);
      out('hub_state_lag_from_driver_p99_ms', fromDriver.p99 ?? -1);
      out('hub_state_lag_from_driver_max_ms', fromDriver.max ?? -1);
      out('hub_state_unmatched', report.unmatched);
      out('hub_overview_reloads_per_s', report.reloads / seconds);
    }

    if (OUTAGE_MS > 0) {
      console.error(`fleet: NATS down for ${OUTAGE_MS} ms while the agents stream on`);
      await nats.stop();
      await sleep(OUTAGE_MS);
      const waiting = nodes.map((n) => n.lastSeq());
      const backlog = nodes.reduce((sum, n, i) => sum + waiting[i] - n.published(), 0);
      await nats.start();
      const t0 = performance.now();
      const done = nodes.map(() => null);
      await waitFor(() => {
        nodes.forEach((n, i) => { if (done[i] === null && n.published() >= waiting[i]) done[i] = performance.now() - t0; });
        return done.every((d) => d !== null);
      }, 120_000, () => `every node to catch up (${done.filter((d) => d === null).length} still behind)`);
      out('catchup_ms', Math.max(...done));
      out('catchup_backlog_events', backlog);
      out('load_average_after', os.loadavg()[0]);
    }
  } finally {
    await hub?.stop();
    await Promise.all(nodes.map((n) => n.stop()));
    await nats?.stop();
    await sleep(500);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`fleet: ${error.message}`);
  out('failed', JSON.stringify(error.message));
  process.exit(1);
});
