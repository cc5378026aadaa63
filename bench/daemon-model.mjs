#!/usr/bin/env node
/**
 * The daemon model under load (issue 15 item 12): N sessions of a fake agent streaming like a
 * real one (bench/fake-agent.mjs: Ink-style block at 10 fps, ~2 KB/s of answer text, 15 s turns,
 * 5 s idle), one PTY host process holding the PTYs, one daemon process running one FsmDriver
 * per session over HostTransport and serving the WebSocket API, and `--clients` (10) WebSocket
 * clients subscribed to every terminal and every event.
 *
 * Processes: this one generates the agents' output (one `StreamAgent` per session, written into
 * a FIFO that the session's PTY child `cat`s — N small `cat`s instead of N Node processes, whose
 * CPU and memory are not the daemon's); the host (`startHostProcess`); the daemon
 * (bench/daemon-model/bench-daemon.mjs); the clients (bench/daemon-model/bench-clients.mjs).
 *
 * Figures per N (prefix `daemon_n<N>_`): CPU of the daemon and of the host (fraction of one core,
 * /proc utime+stime over the window), RSS growth per session of daemon + host (over each
 * process's RSS before the first session, after a full GC in the daemon), state-event lag (the
 * frame that changes the state is written → a client receives the `session.state` event)
 * p50/p99, split into turn start (after a quiet spell) and turn end (inside the stream), and
 * terminal byte lag (a frame is written → a client receives its bytes) p99.
 *
 * Usage: npm run build && node bench/daemon-model.mjs [--n 10,50,100] [--window-ms 20000]
 *          [--clients 10] [--scrollback ROWS] [--history-lines 2500] [--prefix daemon] [--serve]
 * `--serve` (`npm run bench:serve`, prefix `serve`): the real daemon instead of the model —
 * `node bin/specterm.js serve --port 0` on a temp runtime + state dir (it starts the host), the
 * admin token from its file, the sessions created over HTTP (`POST /api/v1/sessions` with a copy
 * of bench/fixtures/stream-agent.spec.json whose binary is `cat`, the FIFO as its argument); the
 * clients and every measurement stay as they are (RSS of the daemon from /proc, no forced GC).
 * `--cpu-prof DIR` runs the daemon and its host (started by the benchmark then) under
 * `node --cpu-prof` and leaves both profiles in DIR.
 * `--overview` (prefix `<prefix>_overview`): the one-overview-client case — one client
 * subscribed to the `sessions` events only, as the dashboard's overview page (with `--serve` it
 * also reloads `GET /sessions` after each burst of events, as that page does); the state-event
 * lags are then worked out here, from the `k=` frames this process wrote. The default (10 clients
 * each streaming every terminal) stays. With `--serve` the daemon and the host run with
 * bench/daemon-model/memory-probe.mjs preloaded, so heap and array buffers are reported for both
 * (after a full GC; RSS is read before it, as the user sees it); `--heap-snapshot DIR` leaves
 * heap snapshots of both, taken at the end of the window, in DIR; `--window-prof DIR` leaves CPU
 * profiles of both over the measured window only (`--cpu-prof` covers start-up as well);
 * `--window-alloc DIR` sampling heap profiles of every allocation in the window, garbage included.
 * `--daemon-node-args "FLAGS"` / `--host-node-args "FLAGS"` (with `--serve`): extra Node/V8 flags
 * for the daemon or the host process (e.g. `--max-semi-space-size=1`), to measure a flag before
 * shipping it; `--ring-bytes N`: the host's ring per session (default: the host's own default).
 * `--help` prints this text.
 */
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startHostProcess } from '../dist/host/index.js';
import { SPEC_READ_SCROLLBACK_ROWS } from '../dist/terminal/index.js';
import { withOverviewLags } from './daemon-model/lag-stats.mjs';
import { benchArgs, cpuTicks, readJson, sleep, TICKS_PER_S, waitFor } from './bench-cli.mjs';
import { startAgents } from './daemon-model/stream-agents.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = benchArgs(import.meta.url, args);
const SIZES = opt('n', '10,50,100').split(',').map(Number);
const WINDOW_MS = Number(opt('window-ms', '20000'));
const OVERVIEW = args.includes('--overview');
const CLIENTS = OVERVIEW ? 1 : Number(opt('clients', '10'));
/** The daemon's screens keep SPEC_READ_SCROLLBACK_ROWS (256); `--scrollback 2000` is the stand-alone default, for comparison. */
const SCROLLBACK = Number(opt('scrollback', String(SPEC_READ_SCROLLBACK_ROWS)));
const PREFIX = `${opt('prefix', 'daemon')}${OVERVIEW ? '_overview' : ''}`;
/** Transcript printed before the first prompt: every session starts as long-running, its scrollback full. */
const HISTORY_LINES = Number(opt('history-lines', '2500'));
const TURN_MS = 15_000;
const IDLE_MS = 5_000;
const COLS = 120;
const ROWS = 40;
/** 16 KiB per 100 ms tick: 160 KB/s per session at most, 20× the streaming rate. */
const WRITE_BYTES_PER_TICK = 16 * 1024;
const AGENT_OPTIONS = { cols: COLS, turnMs: TURN_MS, idleMs: IDLE_MS, historyLines: HISTORY_LINES, writeBytesPerTick: WRITE_BYTES_PER_TICK, keepFlips: OVERVIEW };
const SPEC = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'stream-agent.spec.json'), 'utf8'));
const SERVE = args.includes('--serve');
const CPU_PROF = opt('cpu-prof', null);
const HEAP_SNAPSHOT = opt('heap-snapshot', null);
const WINDOW_PROF = opt('window-prof', null);
const WINDOW_ALLOC = opt('window-alloc', null);
const SPECTERM = path.join(here, '..', 'bin', 'specterm.js');
const PROBE = pathToFileURL(path.join(here, 'daemon-model', 'memory-probe.mjs')).href;
const DAEMON_NODE_ARGS = (opt('daemon-node-args', '') ?? '').split(' ').filter(Boolean);
const HOST_NODE_ARGS = (opt('host-node-args', '') ?? '').split(' ').filter(Boolean);
const RING_BYTES = opt('ring-bytes', null) === null ? undefined : Number(opt('ring-bytes'));

const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const out = (name, value) => console.log(`${name}=${typeof value === 'number' ? Number(value.toFixed(3)) : value}`);

/** A forked helper with request/answer over IPC. */
function helper(file, execArgv = []) {
  const child = fork(path.join(here, 'daemon-model', file), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters = [];
  const state = { hostDropped: false };
  child.on('message', (msg) => {
    if (msg.type === 'error') console.error(`${file}: ${msg.message}`);
    // The host dropped the daemon (more than its client backlog, 8 MiB, unread): nothing flows
    // any more, so fail now, saying why, instead of waiting out every timeout.
    if (msg.type === 'error' && msg.message.startsWith('host connection closed')) {
      state.hostDropped = true;
      for (const w of waiters.splice(0)) w.reject(new Error(`${file}: the host dropped the daemon's connection (it fell more than the host's client backlog behind; load average ${os.loadavg()[0].toFixed(1)})`));
    }
    if (msg.type === 'log') console.error(`${file}: ${msg.level}: ${msg.message}`);
    const i = waiters.findIndex((w) => w.type === msg.type);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
  });
  const next = (type, timeoutMs = 120_000) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
    waiters.push({ type, resolve: (m) => { clearTimeout(timer); resolve(m); }, reject: (e) => { clearTimeout(timer); reject(e); } });
  });
  return { child, next, send: (m) => child.send(m), state };
}


/** Runs `command` in a process running memory-probe.mjs (SIGUSR2); resolves to its memory figures. */
async function probe(pid, dir, command = 'memory') {
  const file = path.join(dir, `probe-${pid}.json`);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(path.join(dir, 'command'), command);
  process.kill(pid, 'SIGUSR2');
  return waitFor(() => readJson(file), 120_000, `the memory probe of pid ${pid}`);
}

async function runOne(n) {
  const dir = fs.mkdtempSync('/tmp/specterm-bench-');
  fs.chmodSync(dir, 0o700);
  const token = randomBytes(32).toString('base64url');
  const hostLog = path.join(os.tmpdir(), `specterm-bench-host-${process.pid}.log`);
  const host = await startHostProcess({ runtimeDir: dir, logFile: hostLog, ringBytes: RING_BYTES });
  const helpers = [];
  let agents;
  try {
    const daemon = helper('bench-daemon.mjs', ['--expose-gc']);
    helpers.push(daemon);
    await daemon.next('hello');
    await sleep(300);
    daemon.send({ type: 'measure' });
    const daemonHeapBase = await daemon.next('measured');
    const daemonBase = daemonHeapBase.rss;
    const hostBase = rssBytes(host.pid);

    agents = startAgents(dir, n, AGENT_OPTIONS);
    const t0 = performance.now();
    daemon.send({ type: 'start', socketPath: host.socketPath, token, sessions: agents.sessions, spec: SPEC, cwd: dir, cols: COLS, rows: ROWS, scrollback: SCROLLBACK });
    const readyMsg = daemon.next('ready', 300_000);
    const progress = setInterval(async () => {
      daemon.send({ type: 'status' });
      const st = await daemon.next('status');
      if (st.starting > 0) console.error(`daemon-model: n=${n}: ${st.starting} sessions still starting; e.g. ${JSON.stringify(st.sample[0])}`);
    }, 20_000);
    const { port } = await readyMsg.finally(() => clearInterval(progress));
    const startMs = performance.now() - t0;
    const clients = helper('bench-clients.mjs');
    helpers.push(clients);
    await clients.next('hello');
    clients.send({ type: 'start', port, token, sessions: agents.sessions.map((s) => s.id), clients: CLIENTS, overview: OVERVIEW });
    await clients.next('subscribed');
    await sleep(3000); // subscriptions settle
    clients.send({ type: 'reset' });
    const before = { host: cpuTicks(host.pid), daemon: cpuTicks(daemon.child.pid), clients: cpuTicks(clients.child.pid), self: process.cpuUsage() };
    const w0 = performance.now();
    await sleep(WINDOW_MS);
    const seconds = (performance.now() - w0) / 1000;
    const cpu = {
      host: (cpuTicks(host.pid) - before.host) / TICKS_PER_S / seconds,
      daemon: (cpuTicks(daemon.child.pid) - before.daemon) / TICKS_PER_S / seconds,
      // Context, not the daemon's cost: the load generator and the clients share the 2 cores.
      clients: (cpuTicks(clients.child.pid) - before.clients) / TICKS_PER_S / seconds,
      generator: ((u) => (u.user + u.system) / 1e6 / seconds)(process.cpuUsage(before.self)),
    };
    clients.send({ type: 'report' });
    let report = await clients.next('report');
    if (OVERVIEW) report = withOverviewLags(report, agents.flips, (ev) => Number(ev.id.slice(1)));
    daemon.send({ type: 'measure' });
    const mem = await daemon.next('measured');
    const hostRss = rssBytes(host.pid);
    if (daemon.state.hostDropped) throw new Error('the host dropped the daemon\'s connection during the run (it fell more than the host\'s client backlog behind); the figures would be of a stalled daemon');
    print(n, { startMs, cpu, report, mem, hostRss, daemonBase, hostBase, seconds, heap: { daemon: [daemonHeapBase, mem] } });
    clients.send({ type: 'stop' });
    daemon.send({ type: 'stop' });
    await sleep(500);
  } finally {
    agents?.stop();
    for (const h of helpers) if (h.child.exitCode === null) h.child.kill('SIGKILL');
    // The host ends its children (the `cat`s) on SIGTERM.
    process.kill(host.pid, 'SIGTERM');
    await sleep(500);
    fs.rmSync(dir, { recursive: true, force: true });
    const log = fs.readFileSync(hostLog, 'utf8').trim();
    if (log) console.error(`daemon-model: host log:\n${log.split('\n').slice(-10).join('\n')}`);
    fs.rmSync(hostLog, { force: true });
  }
}

function print(n, { startMs, cpu, report, mem, hostRss, daemonBase, hostBase, seconds, heap = {} }) {
  const p = `${PREFIX}_n${n}_`;
  out(`${p}sessions`, n);
  out(`${p}clients`, CLIENTS);
  out(`${p}scrollback_rows`, SCROLLBACK);
  out(`${p}start_all_ms`, startMs);
  out(`${p}daemon_cpu_core`, cpu.daemon);
  out(`${p}host_cpu_core`, cpu.host);
  out(`${p}total_cpu_core`, cpu.daemon + cpu.host);
  out(`${p}clients_cpu_core`, cpu.clients);
  out(`${p}generator_cpu_core`, cpu.generator);
  out(`${p}load_avg_1m`, os.loadavg()[0]);
  out(`${p}daemon_rss_mb`, mem.rss / 2 ** 20);
  out(`${p}host_rss_mb`, hostRss / 2 ** 20);
  out(`${p}rss_per_session_mb`, (mem.rss - daemonBase + hostRss - hostBase) / n / 2 ** 20);
  out(`${p}daemon_rss_per_session_mb`, (mem.rss - daemonBase) / n / 2 ** 20);
  out(`${p}host_rss_per_session_mb`, (hostRss - hostBase) / n / 2 ** 20);
  if (!SERVE) {
    out(`${p}daemon_heap_used_mb`, mem.heapUsed / 2 ** 20);
    out(`${p}daemon_external_mb`, mem.external / 2 ** 20);
    out(`${p}daemon_array_buffers_mb`, mem.arrayBuffers / 2 ** 20);
  }
  // After a full GC, growth over the process's figures before the first session.
  for (const [who, [before, after]] of Object.entries(heap)) {
    out(`${p}${who}_rss_after_gc_per_session_mb`, (after.rss - before.rss) / n / 2 ** 20);
    out(`${p}${who}_heap_per_session_mb`, (after.heapUsed - before.heapUsed) / n / 2 ** 20);
    out(`${p}${who}_heap_total_per_session_mb`, (after.heapTotal - before.heapTotal) / n / 2 ** 20);
    out(`${p}${who}_after_gc_mb`, Object.entries(after).map(([k, v]) => `${k}:${(v / 2 ** 20).toFixed(1)}`).join(','));
    out(`${p}${who}_array_buffers_per_session_mb`, (after.arrayBuffers - before.arrayBuffers) / n / 2 ** 20);
    out(`${p}${who}_external_per_session_mb`, (after.external - before.external) / n / 2 ** 20);
  }
  out(`${p}event_lag_samples`, report.state.n);
  out(`${p}event_lag_p50_ms`, report.state.p50 ?? -1);
  out(`${p}event_lag_p99_ms`, report.state.p99 ?? -1);
  out(`${p}event_lag_turn_start_p50_ms`, report.busy.p50 ?? -1);
  out(`${p}event_lag_turn_start_p99_ms`, report.busy.p99 ?? -1);
  out(`${p}event_lag_turn_end_p50_ms`, report.idle.p50 ?? -1);
  out(`${p}event_lag_turn_end_p99_ms`, report.idle.p99 ?? -1);
  out(`${p}event_unmatched`, report.unmatched);
  out(`${p}terminal_lag_p50_ms`, report.terminal.p50 ?? -1);
  out(`${p}terminal_lag_p99_ms`, report.terminal.p99 ?? -1);
  out(`${p}terminal_lag_max_ms`, report.terminal.max ?? -1);
  out(`${p}client_mb_per_s`, report.bytes / seconds / 1e6);
  if (report.reloads !== undefined && OVERVIEW && SERVE) out(`${p}overview_reloads_per_s`, report.reloads / seconds);

}

/** `runOne` on the real `specterm serve`: the daemon is its process, its host the one it starts. */
async function runServe(n) {
  const dir = fs.mkdtempSync('/tmp/specterm-bench-');
  fs.chmodSync(dir, 0o700);
  const runtimeDir = path.join(dir, 'run');
  const stateDir = path.join(dir, 'state');
  for (const d of [runtimeDir, stateDir]) fs.mkdirSync(d, { mode: 0o700 });
  const env = { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir, HOME: dir };
  const probeDir = path.join(dir, 'probe');
  fs.mkdirSync(probeDir, { mode: 0o700 });
  env.SPECTERM_BENCH_PROBE_DIR = probeDir;
  const execArgv = ['--expose-gc', '--import', PROBE, ...(CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF)] : [])];
  // The host is started here (the daemon finds it running), so it runs with the probe (and under --cpu-prof) too.
  const host = await startHostProcess({ runtimeDir, env, nodeArgs: [...execArgv, ...HOST_NODE_ARGS], ringBytes: RING_BYTES });
  const daemon = spawn(process.execPath, [...execArgv, ...DAEMON_NODE_ARGS, SPECTERM, 'serve', '--port', '0', '--session-limit', String(n + 10)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  daemon.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  const helpers = [];
  let agents;
  const hostPid = host.pid;
  try {
    const state = await waitFor(() => readJson(path.join(runtimeDir, 'daemon.json')), 60_000, () => `the daemon's state file (stderr: ${stderr.slice(-500)})`);
    const token = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
    const base = state.url ?? `http://127.0.0.1:${state.port}`;
    const port = Number(new URL(base).port);
    const api = async (method, route, body) => {
      const res = await fetch(`${base}/api/v1${route}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    await sleep(300);
    const daemonBase = rssBytes(daemon.pid);
    const hostBase = rssBytes(hostPid);
    const heapBase = { daemon: await probe(daemon.pid, probeDir), host: await probe(hostPid, probeDir) };
    const specFile = path.join(dir, 'stream-agent.spec.json');
    fs.writeFileSync(specFile, JSON.stringify({ ...SPEC, binary: 'cat', spawn_args: [] }));
    agents = startAgents(dir, n, AGENT_OPTIONS);
    const t0 = performance.now();
    const ids = [];
    for (const s of agents.sessions) ids.push((await api('POST', '/sessions', { spec: specFile, cwd: dir, args: [s.fifo], cols: COLS, rows: ROWS, name: s.id })).id);
    await waitFor(async () => {
      const { sessions } = await api('GET', '/sessions');
      const starting = sessions.filter((x) => !x.state || x.state.id === 'starting').length;
      return starting === 0;
    }, 300_000, 'every session to leave starting');
    const startMs = performance.now() - t0;
    const clients = helper('bench-clients.mjs');
    helpers.push(clients);
    await clients.next('hello');
    clients.send({ type: 'start', port, token, sessions: ids, clients: CLIENTS, overview: OVERVIEW, api: base });
    await clients.next('subscribed');
    await sleep(3000);
    if (WINDOW_PROF) for (const pid of [daemon.pid, hostPid]) await probe(pid, probeDir, 'profile-start');
    if (WINDOW_ALLOC) for (const pid of [daemon.pid, hostPid]) await probe(pid, probeDir, 'alloc-start');
    clients.send({ type: 'reset' });
    const before = { host: cpuTicks(hostPid), daemon: cpuTicks(daemon.pid), clients: cpuTicks(clients.child.pid), self: process.cpuUsage() };
    const w0 = performance.now();
    await sleep(WINDOW_MS);
    const seconds = (performance.now() - w0) / 1000;
    const cpu = {
      host: (cpuTicks(hostPid) - before.host) / TICKS_PER_S / seconds,
      daemon: (cpuTicks(daemon.pid) - before.daemon) / TICKS_PER_S / seconds,
      clients: (cpuTicks(clients.child.pid) - before.clients) / TICKS_PER_S / seconds,
      generator: ((u) => (u.user + u.system) / 1e6 / seconds)(process.cpuUsage(before.self)),
    };
    // RSS as the user sees it: before the probe's GC.
    const mem = { rss: rssBytes(daemon.pid), heapUsed: NaN, external: NaN, arrayBuffers: NaN };
    const hostRss = rssBytes(hostPid);
    if (WINDOW_PROF) for (const pid of [daemon.pid, hostPid]) await probe(pid, probeDir, `profile-stop ${path.resolve(WINDOW_PROF)}`);
    if (WINDOW_ALLOC) for (const pid of [daemon.pid, hostPid]) await probe(pid, probeDir, `alloc-stop ${path.resolve(WINDOW_ALLOC)}`);
    clients.send({ type: 'report' });
    let report = await clients.next('report');
    if (OVERVIEW) report = withOverviewLags(report, agents.flips, (ev) => ids.indexOf(ev.id));
    const last = HEAP_SNAPSHOT ? `snapshot ${path.resolve(HEAP_SNAPSHOT)}` : 'memory';
    const heap = { daemon: [heapBase.daemon, await probe(daemon.pid, probeDir, last)], host: [heapBase.host, await probe(hostPid, probeDir, last)] };
    if (/PTY host connection dropped/.test(stderr)) console.error(`daemon-model: n=${n}: the host dropped the daemon's connection during the run; it reconnected (see the daemon log)`);
    print(n, { startMs, cpu, report, mem, hostRss, daemonBase, hostBase, seconds, heap });
    clients.send({ type: 'stop' });
  } finally {
    agents?.stop();
    for (const h of helpers) if (h.child.exitCode === null) h.child.kill('SIGKILL');
    // SIGTERM lets the daemon write its CPU profile; the host then ends its children.
    daemon.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (daemon.exitCode === null) daemon.kill('SIGKILL');
    try { process.kill(hostPid, 'SIGTERM'); } catch {}
    await sleep(500);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let failed = false;
for (const n of SIZES) {
  try {
    await (SERVE ? runServe(n) : runOne(n));
  } catch (error) {
    failed = true;
    console.error(`daemon-model: n=${n}: ${error.message}`);
    out(`${PREFIX}_n${n}_failed`, JSON.stringify(error.message));
  }
}
process.exit(failed ? 1 : 0);
