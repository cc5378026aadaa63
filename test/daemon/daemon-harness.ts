/**
 * Runs the real daemon (`node bin/specterm.js serve --port 0`, over dist/) in fresh short private
 * runtime/state dirs with a temp HOME, and cleans up everything it started: the daemon, the PTY
 * host it started, and every agent (call `stopAll()` in afterEach).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '../../src/client/index.js';
import { HostClient } from '../../src/host/host-client.js';
import { killHostsUnder } from '../helpers/host-processes.js';
import { processExists } from '../helpers/live-driver.js';
import { waitFor } from '../host/host-harness.js';

export { waitFor };

const BIN = fileURLToPath(new URL('../../bin/specterm.js', import.meta.url));
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface DaemonDirs { runtimeDir: string; stateDir: string; home: string; work: string; env: Record<string, string> }

const dirs: string[] = [];
const daemons: ChildProcess[] = [];
const runtimeDirs = new Set<string>();

function privateDir(prefix: string): string {
  const dir = fs.mkdtempSync(`/tmp/${prefix}`);
  fs.chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

export function makeDirs(): DaemonDirs {
  const root = privateDir('sdm-');
  const sub = (name: string) => { const d = path.join(root, name); fs.mkdirSync(d, { mode: 0o700 }); return d; };
  const runtimeDir = sub('r');
  const stateDir = sub('s');
  const home = sub('h');
  const work = fs.realpathSync(sub('w'));
  runtimeDirs.add(runtimeDir);
  const env = { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: stateDir, HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent'), TERM: 'xterm-256color' } as Record<string, string>;
  return { runtimeDir, stateDir, home, work, env };
}

export interface RunningDaemon { child: ChildProcess; client: DaemonClient; url: string; stdout: () => string; stderr: () => string; exited: Promise<number | null> }

/**
 * Starts `specterm serve --port 0` and resolves once its state file names a daemon that answers.
 * `keepStateFile`: leave a previous daemon's state file in place (the new daemon must cope with it).
 * `prefix`: a command that runs it (`ip netns exec <ns>`): its `client` then cannot reach it from here.
 */
export async function startDaemon(d: DaemonDirs, extraArgs: string[] = [], options: { keepStateFile?: boolean; prefix?: string[] } = {}): Promise<RunningDaemon> {
  const stateFile = path.join(d.runtimeDir, 'daemon.json');
  if (!options.keepStateFile) fs.rmSync(stateFile, { force: true });
  const command = [...options.prefix ?? [], process.execPath, BIN, 'serve', '--port', '0', ...extraArgs];
  const child = spawn(command[0]!, command.slice(1), { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
  daemons.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the daemon exited with ${child.exitCode}: ${err}`);
    try {
      const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { url: string; pid: number };
      if (state.pid === child.pid) {
        const client = DaemonClient.discover({ runtimeDir: d.runtimeDir, stateDir: d.stateDir, env: {} });
        // A daemon in another network namespace (`prefix`) serves its loopback, not this one's.
        if (!options.prefix) await client.call('health');
        return { child, client, url: state.url, stdout: () => out, stderr: () => err, exited };
      }
    } catch {}
    if (Date.now() > deadline) throw new Error(`the daemon did not start in time: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops every daemon, shuts down every host (ending its agents) and removes the dirs. */
export async function stopAll(): Promise<void> {
  for (const child of daemons.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await waitFor(() => child.exitCode !== null || child.signalCode !== null, 10_000, 'daemon exit').catch(() => child.kill('SIGKILL'));
    }
  }
  for (const runtimeDir of runtimeDirs) {
    const socketPath = path.join(runtimeDir, 'host.sock');
    if (!fs.existsSync(socketPath)) continue;
    try {
      const client = await HostClient.connect({ socketPath, timeoutMs: 2000 });
      const pids = (await client.list()).map((s) => s.pid).filter((p): p is number => typeof p === 'number');
      const hostPid = client.hostPid;
      await client.shutdown().catch(() => {});
      client.close();
      for (const pid of [hostPid, ...pids]) {
        await waitFor(() => !processExists(pid), 8000, `pid ${pid} to exit`).catch(() => { try { process.kill(pid, 'SIGKILL'); } catch {} });
      }
    } catch {}
  }
  // A host that did not answer (a loaded machine, a lost socket) is found by its runtime dir.
  await killHostsUnder(runtimeDirs);
  runtimeDirs.clear();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A daemon on fresh dirs with one session that has reached idle: the Demo Agent at 100×30 unless
 * `session` says otherwise (`spec` may be a function of the dirs: a spec file written into them).
 */
export async function startDaemonWithIdleSession(waitMs: number, session: { spec?: string | ((dirs: DaemonDirs) => string); name?: string; rows?: number } = {}): Promise<{ dirs: DaemonDirs; daemon: RunningDaemon; sessionId: string }> {
  const dirs = makeDirs();
  const daemon = await startDaemon(dirs);
  const spec = typeof session.spec === 'function' ? session.spec(dirs) : session.spec ?? 'demo-agent';
  const sessionId = (await daemon.client.call('createSession', { body: { spec, cwd: dirs.work, name: session.name, cols: 100, rows: session.rows ?? 30 } })).id;
  await waitFor(async () => (await daemon.client.call('getSession', { params: { id: sessionId } })).state?.id === 'idle', waitMs, 'idle');
  return { dirs, daemon, sessionId };
}

/** Runs the real `specterm` CLI against the daemon of `d` (in its work dir); resolves with its exit and output. */
export function runCli(d: DaemonDirs, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: d.env, cwd: d.work });
    let out = ''; let err = '';
    child.stdout!.on('data', (c: Buffer) => { out += c; });
    child.stderr!.on('data', (c: Buffer) => { err += c; });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
