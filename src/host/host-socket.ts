/**
 * Opening the host's Unix socket: bounded by a timeout, with an error that says whether no host
 * runs there (start one) or it did not answer.
 *
 * @module
 */
import net from 'node:net';
import { HostError } from './errors.js';

/**
 * Opens the socket, bounded by the timeout, with a clear error when no host listens.
 *
 * @throws HostError `HOST_NOT_RUNNING`, `HOST_CONNECT_TIMEOUT`, `HOST_CONNECTION_CLOSED`.
 */
export function openHostSocket(socketPath: string, timeoutMs: number): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(socketPath);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new HostError('HOST_CONNECT_TIMEOUT', `no answer from the host on ${JSON.stringify(socketPath)} within ${timeoutMs} ms; it may be overloaded or hung (see its log)`, { socketPath }));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const absent = error.code === 'ENOENT' || error.code === 'ECONNREFUSED';
      reject(new HostError(absent ? 'HOST_NOT_RUNNING' : 'HOST_CONNECTION_CLOSED', absent
        ? `no PTY host is running on ${JSON.stringify(socketPath)} (${error.code}); start one (startHostProcess / specterm-host)`
        : `could not connect to the host on ${JSON.stringify(socketPath)}: ${error.message}`, { socketPath }, { cause: error }));
    });
  });
}
