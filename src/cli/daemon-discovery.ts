/**
 * How a CLI client finds the running daemon: its state file `daemon.json` in the runtime dir
 * (`{"url": "http://127.0.0.1:PORT", "pid": N}`, written by `specterm serve`) and the admin
 * token in `<state dir>/admin-token` (0600). A local stand-in for the session manager's
 * client module; the two are to be merged into one.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveRuntimeDir, resolveStateDir } from '../server/index.js';

/** File name of the daemon's state file inside the runtime dir. */
export const DAEMON_STATE_FILE = 'daemon.json';

export interface DaemonEndpoint { url: string; token: string }

/** No daemon to talk to, or no token to talk with; the message says what to do. */
export class DaemonDiscoveryError extends Error {
  constructor(readonly code: 'DAEMON_NOT_RUNNING' | 'DAEMON_TOKEN_MISSING', message: string) {
    super(message);
    this.name = 'DaemonDiscoveryError';
  }
}

/** The daemon's URL and the token to use; a clear error when there is no daemon or no token. */
export function discoverDaemon(env: Record<string, string | undefined>): DaemonEndpoint {
  const stateFile = path.join(resolveRuntimeDir(env), DAEMON_STATE_FILE);
  let url: unknown;
  try {
    url = (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { url?: unknown }).url;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new DaemonDiscoveryError('DAEMON_NOT_RUNNING', missing
      ? `no daemon is running (no ${stateFile}); start one with \`specterm serve\``
      : `${stateFile} is not a daemon state file (${(error as Error).message}); restart the daemon with \`specterm serve\``);
  }
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    throw new DaemonDiscoveryError('DAEMON_NOT_RUNNING', `${stateFile} has no "url"; restart the daemon with \`specterm serve\``);
  }
  const tokenFile = path.join(resolveStateDir(env), 'admin-token');
  let token: string;
  try {
    token = fs.readFileSync(tokenFile, 'utf8').trim();
  } catch {
    throw new DaemonDiscoveryError('DAEMON_TOKEN_MISSING', `cannot read the admin token ${tokenFile}; run specterm as the user who runs \`specterm serve\`, or set SPECTERM_STATE_DIR to its state dir`);
  }
  return { url: url.replace(/\/+$/, ''), token };
}
