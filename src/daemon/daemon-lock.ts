/**
 * One daemon per state dir, and per runtime dir, held for the daemon's whole life (issue 24).
 * Each lock is a listening Unix socket: the kernel frees it when the process ends, however it
 * ends (a SIGKILL too), so a dead daemon never leaves a lock behind and a reused pid can never
 * pass for the holder. A second daemon's `listen` fails with EADDRINUSE; it then connects and
 * reads the holder's pid, port and dirs, which the holder writes to every connection, and refuses
 * to start with them in the message.
 *
 * On Linux the socket is in the abstract namespace (no file: nothing stale to clean up), named by
 * the user and the dir's real path. Elsewhere it is `daemon.lock.sock` in the dir; a file left by
 * a killed daemon refuses connections, so it is removed and the listen tried again. (Two daemons
 * removing the same stale file at the same instant could both start: only off Linux.)
 *
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The daemon's default port: fixed, so a browser bookmark keeps working; `--port 0` picks a free one. */
export const DEFAULT_PORT = 7681;

/** What the holder tells a daemon that wants its lock. */
export interface DaemonLockHolder { pid: number; port: number | null; url: string | null; state_dir: string; runtime_dir: string }

export type DaemonLockErrorCode = 'DAEMON_ALREADY_RUNNING' | 'RUNTIME_DIR_IN_USE';

/** This daemon may not start: another one holds the state dir (or the runtime dir). */
export class DaemonLockError extends Error {
  readonly code: DaemonLockErrorCode;
  /** Null when the holder did not say who it is in time. */
  readonly holder: DaemonLockHolder | null;
  constructor(code: DaemonLockErrorCode, message: string, holder: DaemonLockHolder | null) {
    super(message);
    this.name = 'DaemonLockError';
    this.code = code;
    this.holder = holder;
  }
}

/** The locks a running daemon holds. */
export interface DaemonLocks {
  /** Tells later comers where this daemon listens (known once the API server is up). */
  setEndpoint(port: number, url: string): void;
  /** Gives both locks up (the daemon stops). Idempotent. */
  release(): Promise<void>;
}

/** Bound on the holder answering who it is (it answers at once unless its event loop is stuck). */
const ASK_HOLDER_TIMEOUT_MS = 3000;

type LockKind = 'state' | 'runtime';

/**
 * Takes the state dir's lock, then the runtime dir's.
 *
 * @throws DaemonLockError `DAEMON_ALREADY_RUNNING` (a daemon serves this state dir) or
 *   `RUNTIME_DIR_IN_USE` (a daemon with another state dir uses this runtime dir).
 */
export async function acquireDaemonLocks(dirs: { stateDir: string; runtimeDir: string }): Promise<DaemonLocks> {
  const holder: DaemonLockHolder = { pid: process.pid, port: null, url: null, state_dir: path.resolve(dirs.stateDir), runtime_dir: path.resolve(dirs.runtimeDir) };
  const state = await listenLock('state', dirs.stateDir, holder);
  let runtime: net.Server;
  try {
    runtime = await listenLock('runtime', dirs.runtimeDir, holder);
  } catch (error) {
    await closeServer(state);
    throw error;
  }
  let released = false;
  return {
    setEndpoint: (port, url) => { holder.port = port; holder.url = url; },
    release: async () => {
      if (released) return;
      released = true;
      await Promise.all([closeServer(state), closeServer(runtime)]);
    },
  };
}

/** The socket address of a dir's lock. */
function lockAddress(kind: LockKind, dir: string): string {
  let real = path.resolve(dir);
  try { real = fs.realpathSync(dir); } catch {}
  if (process.platform !== 'linux') return path.join(real, kind === 'state' ? 'daemon.lock.sock' : 'daemon-runtime.lock.sock');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const digest = createHash('sha256').update(`${kind}\0${real}`).digest('hex').slice(0, 32);
  return `\0specterm-daemon-${uid}-${digest}`;
}

async function listenLock(kind: LockKind, dir: string, holder: DaemonLockHolder): Promise<net.Server> {
  const address = lockAddress(kind, dir);
  for (let attempt = 0; ; attempt++) {
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end(JSON.stringify(holder) + '\n');
    });
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once('error', resolve);
      server.listen(address, () => resolve(null));
    });
    if (!error) {
      server.unref();
      return server;
    }
    if (error.code !== 'EADDRINUSE') throw error;
    const answer = await askHolder(address);
    // Only a path socket can be stale (its daemon died): remove it and listen again, once.
    if (answer === 'refused' && !address.startsWith('\0') && attempt === 0) {
      fs.rmSync(address, { force: true });
      continue;
    }
    throw refusal(kind, dir, answer === 'refused' ? null : answer);
  }
}

/** Connects to a held lock and reads the holder's JSON line. */
function askHolder(address: string): Promise<DaemonLockHolder | null | 'refused'> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(address);
    const timer = setTimeout(() => { socket.destroy(); resolve(null); }, ASK_HOLDER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === 'ECONNREFUSED' ? 'refused' : null);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try { resolve(JSON.parse(text) as DaemonLockHolder); } catch { resolve(null); }
    });
  });
}

function refusal(kind: LockKind, dir: string, holder: DaemonLockHolder | null): DaemonLockError {
  const who = holder ? `pid ${holder.pid}, ${holder.port === null ? 'port not yet known (it is starting)' : `port ${holder.port} (${holder.url})`}` : 'a process that did not say who it is';
  if (kind === 'state') {
    return new DaemonLockError('DAEMON_ALREADY_RUNNING', `a daemon already serves the state dir ${dir}: ${who}. Use that one (\`specterm ls\`), stop it first${holder ? ` (kill ${holder.pid})` : ''}, or run this one with its own SPECTERM_STATE_DIR and SPECTERM_RUNTIME_DIR`, holder);
  }
  return new DaemonLockError('RUNTIME_DIR_IN_USE', `the runtime dir ${dir} is in use by another daemon: ${who}, serving the state dir ${holder?.state_dir ?? '(unknown)'}. A daemon with its own state dir needs its own runtime dir too: set SPECTERM_RUNTIME_DIR to another directory`, holder);
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
