/**
 * The private runtime directory where the host's socket lives: `$SPECTERM_RUNTIME_DIR`, else
 * `$XDG_RUNTIME_DIR/specterm`, else `/tmp/specterm-<uid>`. It must be a directory owned by us
 * with mode 0700: a socket in a directory others can enter could be reached (or replaced) by
 * another local user. (src/server/paths.ts holds the same rule for the daemon until merge.)
 *
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HostError } from './errors.js';

/** File name of the host's Unix socket inside the runtime dir. */
export const HOST_SOCKET_NAME = 'host.sock';

/** Where the runtime dir is, from the environment (no file system access). */
export function runtimeDirPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPECTERM_RUNTIME_DIR) return path.resolve(env.SPECTERM_RUNTIME_DIR);
  if (env.XDG_RUNTIME_DIR) return path.join(path.resolve(env.XDG_RUNTIME_DIR), 'specterm');
  return path.join(os.tmpdir(), `specterm-${currentUid()}`);
}

/**
 * Returns the runtime dir, created 0700 when missing.
 *
 * @throws HostError `HOST_RUNTIME_DIR_UNSAFE` when it exists but is not a directory, belongs to
 *   another user or has group/world permission bits.
 */
export function ensureRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = runtimeDirPath(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new HostError('HOST_RUNTIME_DIR_UNSAFE', `runtime dir ${JSON.stringify(dir)} is not a directory; remove it or set SPECTERM_RUNTIME_DIR to a private directory`, { dir });
  }
  const uid = currentUid();
  if (stat.uid !== uid) {
    throw new HostError('HOST_RUNTIME_DIR_UNSAFE', `runtime dir ${JSON.stringify(dir)} belongs to uid ${stat.uid}, not to you (uid ${uid}); set SPECTERM_RUNTIME_DIR to a directory you own`, { dir });
  }
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw new HostError('HOST_RUNTIME_DIR_UNSAFE', `runtime dir ${JSON.stringify(dir)} has mode ${mode}; others may reach the socket: run chmod 700 ${JSON.stringify(dir)}`, { dir, mode });
  }
  return dir;
}

/** Path of the host socket in a runtime dir. */
export function hostSocketPath(runtimeDir: string): string {
  return path.join(runtimeDir, HOST_SOCKET_NAME);
}

function currentUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}
