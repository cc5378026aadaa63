/**
 * Binding the host's Unix socket exclusively: a live host on the path refuses a second one; a
 * socket left by a dead host (nothing accepts on it) is replaced. The socket is created 0600.
 *
 * @module
 */
import fs from 'node:fs';
import net from 'node:net';
import { HostError, messageOf } from './errors.js';

/** How long a probe waits for a host on an existing socket before calling it stale. */
const PROBE_TIMEOUT_MS = 1000;

/**
 * Listens on `socketPath`, replacing a stale socket.
 *
 * @throws HostError `HOST_ALREADY_RUNNING` when a live host accepts on the path;
 *   `HOST_START_FAILED` when the path is something other than a socket, or listening fails.
 */
export async function listenExclusive(server: net.Server, socketPath: string): Promise<void> {
  try {
    await listenPrivate(server, socketPath);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw startFailed(socketPath, error);
  }
  if (!fs.lstatSync(socketPath).isSocket()) {
    throw new HostError('HOST_START_FAILED', `${JSON.stringify(socketPath)} exists and is not a socket; move it away (the host will not delete it)`, { socketPath });
  }
  if (await isAccepting(socketPath)) {
    throw new HostError('HOST_ALREADY_RUNNING', `a host is already running on ${JSON.stringify(socketPath)}; connect to it instead of starting another`, { socketPath });
  }
  // Nothing accepts: the socket of a host that died. Replace it.
  fs.unlinkSync(socketPath);
  try {
    await listenPrivate(server, socketPath);
  } catch (error) {
    throw startFailed(socketPath, error);
  }
}

/** True when something accepts connections on the socket. */
export function isAccepting(socketPath: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    const done = (accepting: boolean): void => {
      clearTimeout(timer);
      probe.destroy();
      resolve(accepting);
    };
    // A host too busy to accept within the bound is treated as alive: never steal a live socket.
    const timer = setTimeout(() => done(true), timeoutMs);
    probe.once('connect', () => done(true));
    probe.once('error', (error: NodeJS.ErrnoException) => done(error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT' ? true : false));
  });
}

/** Listens with umask 0177 so the socket is 0600 from its first instant (no chmod window). */
function listenPrivate(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const previous = process.umask(0o177);
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    try {
      server.listen(socketPath);
    } finally {
      process.umask(previous);
    }
  });
}

function startFailed(socketPath: string, error: unknown): HostError {
  return new HostError('HOST_START_FAILED', `could not listen on ${JSON.stringify(socketPath)}: ${messageOf(error)}; check the runtime dir`, { socketPath }, { cause: error });
}
