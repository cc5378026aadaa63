/**
 * Starting the PTY host as its own long-lived process: detached (its own process group, so a
 * Ctrl-C or SIGHUP aimed at the daemon's group does not reach it), stdio to a private log file,
 * unref'd, and then waited for until it accepts connections.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostError } from './errors.js';
import { HostClient } from './host-client.js';
import { ensureRuntimeDir, hostSocketPath } from './runtime-dir.js';

/** The host entry script (bin/specterm-host.js), the same relative path from src/ and dist/. */
export const HOST_ENTRY = fileURLToPath(new URL('../../bin/specterm-host.js', import.meta.url));

/**
 * glibc's malloc settings for the host, unless the caller's environment sets its own. By default
 * glibc raises its mmap threshold (and the trim threshold, to twice that) each time it frees a
 * block it had mapped, and from then on keeps up to that much free memory in its heap: in the
 * host, whose sessions free many small read and frame buffers, that held ~0.2 MB a streaming
 * session that was no longer used (docs/performance.md, round five). Fixed thresholds (glibc's
 * own starting values) stop the drift. The children never see them: their environment is the
 * one each spawn request carries.
 */
export const HOST_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/** Default bound on the host becoming ready (Node start-up on a loaded 2-core box). */
const DEFAULT_START_TIMEOUT_MS = 15_000;
const READY_POLL_MS = 25;

/** Options of {@link startHostProcess}. */
export interface StartHostOptions {
  /** The private runtime dir (see runtime-dir.ts); passed to the host as SPECTERM_RUNTIME_DIR. */
  runtimeDir: string;
  /** Output bytes kept per session. */
  ringBytes?: number;
  /** Unread bytes queued to one client before the host drops it. */
  maxClientBacklogBytes?: number;
  /** The same for the daemon's connection (see host-server.ts). */
  maxDaemonBacklogBytes?: number;
  /** Host log file (0600, appended); default `host.log` in the runtime dir. */
  logFile?: string;
  /** Environment of the host (never its children's: each spawn request carries theirs); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Node options for the host process itself (e.g. `--cpu-prof` for a benchmark); default none. */
  nodeArgs?: readonly string[];
  timeoutMs?: number;
}

/** A started (or found running) host. */
export interface StartedHost {
  pid: number;
  socketPath: string;
  logFile: string;
}

/**
 * Spawns `node bin/specterm-host.js` detached and resolves once it answers the handshake.
 *
 * @throws HostError `HOST_RUNTIME_DIR_UNSAFE` (see runtime-dir.ts); `HOST_ALREADY_RUNNING` when a host already serves the runtime dir (connect to
 *   it instead); `HOST_START_FAILED` when the host exits or does not answer in time (its log's
 *   last lines are in the message).
 */
export async function startHostProcess(options: StartHostOptions): Promise<StartedHost> {
  // Refuse an unsafe dir before creating the log file in it (the host would refuse it too).
  ensureRuntimeDir({ SPECTERM_RUNTIME_DIR: options.runtimeDir });
  const socketPath = hostSocketPath(options.runtimeDir);
  const logFile = options.logFile ?? path.join(options.runtimeDir, 'host.log');
  const logFd = fs.openSync(logFile, 'a', 0o600);
  const args = [
    ...(options.nodeArgs ?? []),
    HOST_ENTRY,
    ...(options.ringBytes ? ['--ring-bytes', String(options.ringBytes)] : []),
    ...(options.maxClientBacklogBytes ? ['--max-client-backlog-bytes', String(options.maxClientBacklogBytes)] : []),
    ...(options.maxDaemonBacklogBytes ? ['--max-daemon-backlog-bytes', String(options.maxDaemonBacklogBytes)] : []),
  ];
  let exited: { code: number | null; signal: string | null } | null = null;
  const env = options.env ?? process.env;
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...hostMallocEnv(env), ...env, SPECTERM_RUNTIME_DIR: options.runtimeDir },
  });
  fs.closeSync(logFd);
  child.once('exit', (code, signal) => { exited = { code, signal }; });
  child.unref();
  const pid = child.pid;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  for (;;) {
    if (exited !== null || pid === undefined) {
      const { code } = exited ?? { code: null };
      const tail = logTail(logFile);
      if (code === 3) throw new HostError('HOST_ALREADY_RUNNING', `a host already runs on ${JSON.stringify(socketPath)}; connect to it instead`, { socketPath });
      throw new HostError('HOST_START_FAILED', `the host exited during start-up (code ${code}); its log ${logFile} ends with:\n${tail}`, { logFile });
    }
    try {
      const client = await HostClient.connect({ socketPath, timeoutMs: 1000 });
      const hostPid = client.hostPid;
      client.close();
      // Another host answering (one that won a start race) is not ours: ours will exit with 3.
      if (hostPid === pid) return { pid, socketPath, logFile };
    } catch (error) {
      if (!(error instanceof HostError) || (error.code !== 'HOST_NOT_RUNNING' && error.code !== 'HOST_CONNECT_TIMEOUT')) throw error;
    }
    if (Date.now() > deadline) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
      throw new HostError('HOST_START_FAILED', `the host (pid ${pid}) did not accept connections on ${JSON.stringify(socketPath)} in time; its log ${logFile} ends with:\n${logTail(logFile)}`, { logFile });
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

/** HOST_MALLOC_ENV, unless `env` tunes glibc's malloc thresholds itself (then none of it). */
function hostMallocEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.keys(HOST_MALLOC_ENV).some((name) => env[name] !== undefined) ? {} : HOST_MALLOC_ENV;
}

function logTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-6).join('\n');
  } catch {
    return '(no log)';
  }
}
