#!/usr/bin/env node
/**
 * The dashboard in a real browser (issue 16 item 12): `npm run bench:dashboard` builds, then
 * starts the built daemon (`node bin/specterm.js serve --port 0` on temp runtime + state dirs
 * and HOME), pairs Debian's Chromium (playwright-core, /usr/bin/chromium, the test flags) by
 * the pairing URL `serve` printed, and prints `name=value` lines:
 *  - `dashboard_first_paint_ms_p50/p95` (+ `_cold`, the first open): `--opens` (20) full loads of
 *    `/sessions/<id>` of an idle demo-agent session, navigation start → the first frame xterm
 *    drew with a row of the daemon's screen in it (bench/dashboard/paint-probe.mjs: xterm's
 *    `onRender`, which fires in the animation frame its renderer just drew in);
 *  - `dashboard_lag_ms_p50/p99/max` with `--sessions` (10) lag agents streaming (10 fps, ≈ 2 KB/s
 *    each, bench/dashboard/lag-agent.mjs) for `--seconds` (20): one tab shows one of them — a
 *    person watching one terminal while the others stream — and each `STAMP <n> <wall ms>` line
 *    is timed from the agent's write (performance.timeOrigin + now in the agent) to the frame it
 *    is first drawn in (the same in the page: one machine, one wall clock);
 *  - `dashboard_initial_js_gzip_bytes` (scripts/dashboard-size.mjs, as the build prints it);
 *  - the load average before and after.
 * A benchmark, not a test: it reports, and fails (exit 1) only when the measure itself broke.
 *
 * `node bench/dashboard-paint.mjs [--opens 20] [--sessions 10] [--seconds 20] [--tabs 1]`
 * (`--tabs N`: N tabs, each viewing another of the streaming sessions; the lag is the first tab's).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { installPaintProbe } from './dashboard/paint-probe.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(here, '..');
const SPECTERM = path.join(ROOT, 'bin', 'specterm.js');
const LAG_SPEC = path.join(here, 'dashboard', 'lag-agent.spec.json');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PAIRING_URL = /(http:\/\/127\.0\.0\.1:\d+\/#pair=[A-Za-z0-9_-]+)/;

const argv = process.argv.slice(2);
const flag = (name, fallback) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? Number(argv[i + 1]) : fallback; };
const OPENS = flag('opens', 20);
const SESSIONS = flag('sessions', 10);
const SECONDS = flag('seconds', 20);
const TABS = Math.min(flag('tabs', 1), SESSIONS);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const out = (name, value) => console.log(`${name}=${typeof value === 'number' ? Math.round(value * 10) / 10 : value}`);
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

async function waitFor(get, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** `specterm serve` on fresh private dirs; resolves with its API, pairing URL and a stop(). */
async function startDaemon() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-bench-dash-'));
  fs.chmodSync(dir, 0o700);
  const runtimeDir = path.join(dir, 'run');
  const stateDir = path.join(dir, 'state');
  const home = path.join(dir, 'home');
  for (const d of [runtimeDir, stateDir, home]) fs.mkdirSync(d, { mode: 0o700 });
  const env = { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir, HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent'), TERM: 'xterm-256color' };
  const child = spawn(process.execPath, [SPECTERM, 'serve', '--port', '0', '--pair-scope', 'input', '--session-limit', String(SESSIONS + 10)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stderr.on('data', (c) => { stderr += c; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pairing = await waitFor(() => PAIRING_URL.exec(stdout)?.[1], 60_000, `the pairing URL (stderr: ${stderr.slice(-400)})`);
  const base = new URL(pairing).origin;
  const token = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
  const api = async (method, route, body) => {
    const res = await fetch(`${base}/api/v1${route}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const stop = async () => {
    try {
      for (const s of (await api('GET', '/sessions')).sessions) await api('DELETE', `/sessions/${s.id}?force=true`).catch(() => {});
    } catch {}
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
    const hostPid = Number(/listening on .* \(pid (\d+),/.exec(readOr(path.join(runtimeDir, 'host.log')))?.[1]);
    if (hostPid) try { process.kill(hostPid, 'SIGTERM'); } catch {}
    await sleep(300);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { base, pairing, api, stop, dir };
}

function readOr(file) {
  try { return fs.readFileSync(file, 'utf8'); } catch { return ''; }
}

async function session(api, body, state) {
  const created = await api('POST', '/sessions', body);
  await waitFor(async () => (await api('GET', `/sessions/${created.id}`)).state?.id === state, 60_000, `session ${created.id} in ${state}`);
  return created.id;
}

/** Full loads of the session view: navigation start → the first frame with the screen's text. */
async function firstPaints(page, base, api, id) {
  const screen = await api('GET', `/sessions/${id}/screen`);
  const expect = screen.content.split('\n').map((l) => l.trim()).find((l) => l.length >= 8).slice(0, 40);
  const times = [];
  const parts = [];
  for (let i = 0; i < OPENS; i++) {
    await page.goto(`${base}/sessions/${id}`);
    const ms = await waitFor(() => page.evaluate((text) => globalThis.__paintProbe.renderLog.find((r) => r.text.includes(text))?.atMs, expect), 30_000, 'the first paint of the snapshot');
    times.push(ms);
    parts.push(await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const chunk = performance.getEntriesByType('resource').find((r) => /\/assets\/session-view[^/]*\.js$/.test(r.name));
      const p = globalThis.__paintProbe;
      return { dcl: nav.domContentLoadedEventEnd, wsOpen: p.wsOpenMs, chunk: chunk ? chunk.responseEnd : NaN, snapshot: p.snapshotMs, terminal: p.terminalMs, subscribe: p.subscribeMs };
    }));
  }
  const renderer = await page.evaluate((sid) => globalThis.specterm.terminals.get(sid)?.renderer() ?? 'none', id);
  return { times, parts, renderer };
}

async function main() {
  const sizes = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'dashboard-size.mjs')], { encoding: 'utf8' });
  const load = [os.loadavg()];
  const daemon = await startDaemon();
  const context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(daemon.dir, 'chromium-')), {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 },
  });
  try {
    await context.addInitScript(installPaintProbe);
    const page = await context.newPage();
    await page.goto(daemon.pairing);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor({ timeout: 60_000 });

    const idle = await session(daemon.api, { spec: 'demo-agent', cwd: daemon.dir, name: 'paint' }, 'idle');
    // Every open is a full load; the first one fetches the lazy terminal chunk cold (`_cold`).
    const { times: opens, parts, renderer } = await firstPaints(page, daemon.base, daemon.api, idle);
    const cold = opens[0];
    const sorted = [...opens].sort((a, b) => a - b);
    out('dashboard_first_paint_opens', opens.length);
    out('dashboard_renderer', renderer);
    out('dashboard_first_paint_ms_cold', cold);
    out('dashboard_first_paint_ms_p50', quantile(sorted, 0.5));
    out('dashboard_first_paint_ms_p95', quantile(sorted, 0.95));
    // Where it goes (medians, ms since navigation start): the page's scripts ran, the socket
    // opened, the session view chunk (with xterm) arrived, the snapshot arrived; the rest is xterm.
    const median = (key) => quantile(parts.map((p) => p[key]).sort((a, b) => a - b), 0.5);
    out('dashboard_first_paint_dom_content_loaded_ms_p50', median('dcl'));
    out('dashboard_first_paint_ws_open_ms_p50', median('wsOpen'));
    out('dashboard_first_paint_session_view_chunk_ms_p50', median('chunk'));
    out('dashboard_first_paint_terminal_created_ms_p50', median('terminal'));
    out('dashboard_first_paint_subscribe_sent_ms_p50', median('subscribe'));
    out('dashboard_first_paint_snapshot_ms_p50', median('snapshot'));
    await daemon.api('DELETE', `/sessions/${idle}?force=true`);

    const ids = [];
    for (let i = 0; i < SESSIONS; i++) ids.push((await daemon.api('POST', '/sessions', { spec: LAG_SPEC, cwd: daemon.dir, name: `lag-${i}` })).id);
    for (const id of ids) await waitFor(async () => (await daemon.api('GET', `/sessions/${id}`)).state?.id === 'streaming', 60_000, `session ${id} streaming`);
    const tabs = [page];
    for (let i = 1; i < TABS; i++) tabs.push(await context.newPage());
    for (const [i, tab] of tabs.entries()) await tab.goto(`${daemon.base}/sessions/${ids[i]}`);
    await waitFor(() => page.evaluate(() => globalThis.__paintProbe.stamps.length > 0), 30_000, 'the first painted stamp');
    // Settled (the lease's fit, its snapshot): count from here.
    await sleep(2000);
    load.push(os.loadavg());
    const from = await page.evaluate(() => globalThis.__paintProbe.stamps.length);
    await sleep(SECONDS * 1000);
    const stamps = (await page.evaluate(() => globalThis.__paintProbe.stamps)).slice(from).filter((s) => s.sessionId === ids[0]);
    load.push(os.loadavg());
    const lags = stamps.map((s) => s.lagMs).sort((a, b) => a - b);
    if (lags.length === 0) throw new Error('no stamp was painted while streaming');
    const first = stamps[0].n;
    const last = stamps.at(-1).n;
    out('dashboard_lag_sessions', SESSIONS);
    out('dashboard_lag_tabs', TABS);
    out('dashboard_lag_stamps', lags.length);
    // A stamp written but never drawn (two frames in one render keep both in the viewport; a
    // resync snapshot could skip some): how many of the run's frames were seen.
    out('dashboard_lag_stamps_missed', last - first + 1 - new Set(stamps.map((s) => s.n)).size);
    out('dashboard_lag_ms_p50', quantile(lags, 0.5));
    out('dashboard_lag_ms_p99', quantile(lags, 0.99));
    out('dashboard_lag_ms_max', lags.at(-1));
    // The daemon's part (agent write → the frame reached the page) and the browser's (→ drawn).
    const arrivals = stamps.filter((s) => s.arrivalMs !== null);
    const daemonPart = arrivals.map((s) => s.arrivalMs).sort((a, b) => a - b);
    const browserPart = arrivals.map((s) => s.lagMs - s.arrivalMs).sort((a, b) => a - b);
    if (arrivals.length > 0) {
      out('dashboard_lag_to_page_ms_p50', quantile(daemonPart, 0.5));
      out('dashboard_lag_to_page_ms_p99', quantile(daemonPart, 0.99));
      out('dashboard_lag_in_page_ms_p50', quantile(browserPart, 0.5));
      out('dashboard_lag_in_page_ms_p99', quantile(browserPart, 0.99));
    }
  } finally {
    await context.close().catch(() => {});
    await daemon.stop();
  }
  process.stdout.write(sizes.split('\n').filter((l) => l.startsWith('dashboard_initial_js')).map((l) => `${l}\n`).join(''));
  out('loadavg_1m_before', load[0][0]);
  out('loadavg_1m_streaming', load[1]?.[0] ?? NaN);
  out('loadavg_1m_after', load.at(-1)[0]);
  out('cpus', os.cpus().length);
}

main().catch((error) => {
  console.error(`bench:dashboard: ${error.stack ?? error}`);
  process.exit(1);
});
