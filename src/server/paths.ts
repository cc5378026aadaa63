/**
 * Where the daemon keeps its files (re-exported from src/fs/private-dirs.ts for the server's
 * callers) and which bind addresses are private to this machine.
 * @module
 */
import { isLoopbackHostname } from '../protocol/pairing.js';

export { ensurePrivateDir, PrivatePathError, resolveRuntimeDir, resolveStateDir } from '../fs/private-dirs.js';

/** Whether binding `host` keeps the API private to this machine. */
export function isLoopback(host: string): boolean {
  return isLoopbackHostname(host);
}
