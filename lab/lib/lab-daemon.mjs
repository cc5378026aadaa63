/**
 * A real `specterm serve` for a lab run (over dist/, so `npm run build` first), in private temp
 * runtime and state dirs of its own, and the `specterm mcp` command line an agent CLI's MCP
 * configuration names to reach it. The labs that prove orchestration (an agent CLI calling
 * `handoff` / `assign` through `specterm mcp`) start one; `stop()` ends the daemon, the PTY
 * host it started (which outlives a daemon by design) and every agent of that host.
 * @module
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(repo, 'bin', 'specterm.js');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Live processes whose environment names `runtimeDir` as SPECTERM_RUNTIME_DIR and whose command line holds `needle`. */
function processesUnder(runtimeDir, needle) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(needle)) continue;
      if (fs.readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`SPECTERM_RUNTIME_DIR=${runtimeDir}`)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Direct children of `pid`. */
function childrenOf(pid) {
  const children = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {}
  }
  return children;
}

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

/** SIGTERM to each of `pids`, then SIGKILL to those still alive 2 s later. */
async function endAll(pids) {
  for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch {} }
  for (let i = 0; i < 20 && pids.some(alive); i++) await sleep(100);
  for (const pid of pids) if (alive(pid)) { try { process.kill(pid, 'SIGKILL'); } catch {} }
}

/**
 * Starts the daemon and resolves once it answers.
 * @param {{ root?: string, env?: Record<string, string>, settings?: object, args?: string[] }} [options]
 *   `root`: a private dir (made if missing; kept at stop) to hold `r/` (runtime) and `s/` (state) — default a new temp dir;
 *   `env`: extra environment for the daemon and so for every agent it starts (HOME, model server URLs …);
 *   `settings`: written to `<state>/settings.json` first.
 * @returns {Promise<{ url: string, token: string, runtimeDir: string, stateDir: string, env: Record<string, string>,
 *   mcpServer: { command: string, args: string[], env: Record<string, string> },
 *   call(method: string, route: string, body?: unknown): Promise<any>, stderr(): string, stop(): Promise<void>, processes(needle?: string): number[] }>}
 */
export async function startLabDaemon(options = {}) {
  const root = options.root ?? fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-lab-daemon-'));
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700);
  const runtimeDir = path.join(root, 'r');
  const stateDir = path.join(root, 's');
  for (const dir of [runtimeDir, stateDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (options.settings) fs.writeFileSync(path.join(stateDir, 'settings.json'), `${JSON.stringify(options.settings, null, 2)}\n`, { mode: 0o600 });
  const env = { ...process.env, ...options.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir };
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...(options.args ?? [])], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => { err += c.toString(); });
  const stateFile = path.join(runtimeDir, 'daemon.json');
  const deadline = Date.now() + 60_000;
  let state;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`lab: specterm serve exited with ${child.exitCode}: ${err}`);
    try {
      state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      if (state.pid === child.pid) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`lab: specterm serve did not start within 60 s: ${err}`);
    }
    await sleep(50);
  }
  const token = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
  const call = async (method, route, body) => {
    const response = await fetch(new URL(route, state.url), {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error(`lab: ${method} ${route} answered ${response.status}: ${text}`);
    return answer;
  };
  await call('GET', '/api/v1/health').catch((error) => { child.kill('SIGKILL'); throw error; });
  return {
    url: state.url, token, runtimeDir, stateDir, env, call,
    // The dirs name the daemon; the admin token file is found from the state dir, never passed.
    mcpServer: { command: process.execPath, args: [BIN, 'mcp'], env: { SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir } },
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        for (let i = 0; i < 100 && child.exitCode === null && child.signalCode === null; i++) await sleep(100);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      for (const host of processesUnder(runtimeDir, 'specterm-host')) await endAll([host, ...childrenOf(host)]);
      // What the agents started themselves (an agent's `specterm mcp`, a tool's shell) inherited
      // the runtime dir: an agent killed outright leaves them running unless swept here.
      await endAll(processesUnder(runtimeDir, ''));
      if (!options.root) fs.rmSync(root, { recursive: true, force: true });
    },
    /** Live processes that name this daemon's runtime dir (none once `stop()` resolved), those whose command line holds `needle` when given. */
    processes: (needle = '') => processesUnder(runtimeDir, needle),
  };
}
