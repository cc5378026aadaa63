/**
 * A throw-away daemon for `npm start`, the screenshots and the dashboard figures: `specterm
 * serve` (dist/) in a fresh private temp dir (runtime, state, the agents' HOME and cwd), so a
 * demo never touches the user's own daemon, its sessions, tokens or history; `stop()` ends the
 * daemon, the PTY host it started and every agent, and removes the dir.
 * @module
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '../dist/client/index.js';
import { HostClient } from '../dist/host/host-client.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(REPO, 'bin', 'specterm.js');
const START_TIMEOUT_MS = 60_000;

/** Under /tmp, not $TMPDIR: the host's Unix socket path must stay under ~100 bytes. */
function privateRoot() {
  const root = fs.mkdtempSync(path.join(os.platform() === 'linux' ? '/tmp' : os.tmpdir(), 'specterm-start-'));
  fs.chmodSync(root, 0o700);
  const sub = (name) => { const dir = path.join(root, name); fs.mkdirSync(dir, { mode: 0o700 }); return dir; };
  return { root, runtimeDir: sub('run'), stateDir: sub('state'), home: sub('home'), work: fs.realpathSync(sub('work')) };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function pidAlive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/**
 * Starts the daemon and resolves once it answers; `port` 0 picks a free one; `lan` (`auto` or an
 * address) serves HTTPS on the local network (`specterm serve --lan`). A daemon that exits at
 * once rejects with an Error whose `exitCode` is serve's.
 * `args`: more `serve` arguments; `env`: more environment for the daemon and its agents;
 * `settings`: written to the state dir's settings.json first.
 * @param {{ port?: number, lan?: string, args?: string[], env?: Record<string, string>, settings?: object, log?: (line: string) => void }} [options]
 */
export async function startDemoDaemon(options = {}) {
  const dirs = privateRoot();
  const env = {
    ...process.env, SPECTERM_RUNTIME_DIR: dirs.runtimeDir, SPECTERM_STATE_DIR: dirs.stateDir,
    HOME: dirs.home, DEMO_AGENT_HOME: path.join(dirs.home, '.demo-agent'), TERM: 'xterm-256color', ...options.env,
  };
  if (options.settings) fs.writeFileSync(path.join(dirs.stateDir, 'settings.json'), `${JSON.stringify(options.settings, null, 2)}\n`, { mode: 0o600 });
  delete env.SPECTERM_TOKEN;
  const lan = options.lan === undefined ? [] : ['--lan', options.lan];
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(options.port ?? 0), '--no-pair', ...lan, ...(options.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; options.log?.(String(chunk)); });
  child.stdout.resume();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stateFile = path.join(dirs.runtimeDir, 'daemon.json');
  const deadline = Date.now() + START_TIMEOUT_MS;
  let client;
  for (;;) {
    if (child.exitCode !== null) {
      fs.rmSync(dirs.root, { recursive: true, force: true });
      throw Object.assign(new Error(`specterm serve exited with ${child.exitCode}: ${stderr.trim()}`), { exitCode: child.exitCode });
    }
    try {
      const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      if (state.pid === child.pid) {
        client = DaemonClient.discover({ runtimeDir: dirs.runtimeDir, stateDir: dirs.stateDir, env: {} });
        await client.call('health');
        break;
      }
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      fs.rmSync(dirs.root, { recursive: true, force: true });
      throw new Error(`specterm serve did not answer within ${START_TIMEOUT_MS / 1000} s: ${stderr.trim()}`);
    }
    await sleep(50);
  }
  let stopping = null;
  const stop = async () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
      await shutdownHost(dirs.runtimeDir);
      fs.rmSync(dirs.root, { recursive: true, force: true });
    })();
    return stopping;
  };
  return {
    ...dirs, client, url: client.url, env, exited, stop,
    /** Starts a demo-agent session (cwd: the temp work dir) and resolves with its id. */
    createDemoSession: async (name, args = []) => (await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name, args } })).id,
    /** A one-time pairing URL for a browser (10 minutes, single use). */
    createPairing: async (deviceName = 'browser', scope = 'admin') => (await client.call('createPairing', { body: { device_name: deviceName, scope } })).url,
  };
}

/** Shuts the PTY host down (it outlives a daemon on purpose) and waits for it and its agents. */
async function shutdownHost(runtimeDir) {
  const socketPath = path.join(runtimeDir, 'host.sock');
  if (!fs.existsSync(socketPath)) return;
  let host;
  try {
    host = await HostClient.connect({ socketPath, timeoutMs: 2000 });
  } catch {
    return;
  }
  const pids = [host.hostPid, ...(await host.list().catch(() => [])).map((s) => s.pid)].filter((pid) => typeof pid === 'number');
  await host.shutdown().catch(() => {});
  host.close();
  const deadline = Date.now() + 8000;
  while (pids.some(pidAlive) && Date.now() < deadline) await sleep(50);
  for (const pid of pids.filter(pidAlive)) { try { process.kill(pid, 'SIGKILL'); } catch {} }
}
