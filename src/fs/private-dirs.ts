/**
 * The daemon's private directories. Runtime dir (sockets, state file):
 * `$SPECTERM_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/specterm`, else `/tmp/specterm-<uid>`.
 * State dir (admin token, database): `$SPECTERM_STATE_DIR`, else `$XDG_STATE_HOME/specterm`,
 * else `~/.local/state/specterm`. Both must be directories owned by us with mode 0700; one that
 * exists with other bits or another owner is refused, never "fixed" (someone else may use it).
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A directory or file that is not safe to keep secrets in (or does not hold what it should). */
export class PrivatePathError extends Error {
  readonly code: 'DIR_NOT_PRIVATE' | 'DIR_NOT_A_DIRECTORY' | 'DIR_WRONG_OWNER' | 'ADMIN_TOKEN_NOT_PRIVATE' | 'ADMIN_TOKEN_INVALID';
  readonly path: string;
  constructor(code: PrivatePathError['code'], where: string, message: string) {
    super(message);
    this.name = 'PrivatePathError';
    this.code = code;
    this.path = where;
  }
}

type Env = Record<string, string | undefined>;

/** Where sockets and the daemon's state file live. */
export function resolveRuntimeDir(env: Env = process.env): string {
  if (env.SPECTERM_RUNTIME_DIR) return path.resolve(env.SPECTERM_RUNTIME_DIR);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'specterm');
  return path.join('/tmp', `specterm-${process.getuid?.() ?? 'user'}`);
}

/** Where the admin token and the database live. */
export function resolveStateDir(env: Env = process.env): string {
  if (env.SPECTERM_STATE_DIR) return path.resolve(env.SPECTERM_STATE_DIR);
  if (env.XDG_STATE_HOME) return path.join(env.XDG_STATE_HOME, 'specterm');
  return path.join(os.homedir(), '.local', 'state', 'specterm');
}

/** Creates `dir` (0700) if missing; refuses one that is not a private directory of ours. */
export function ensurePrivateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new PrivatePathError('DIR_NOT_A_DIRECTORY', dir, `${dir} is not a directory (a symlink or a file); remove it or point SPECTERM_RUNTIME_DIR/SPECTERM_STATE_DIR elsewhere`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new PrivatePathError('DIR_WRONG_OWNER', dir, `${dir} belongs to uid ${stat.uid}, not to you (uid ${uid}); use a directory of your own`);
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new PrivatePathError('DIR_NOT_PRIVATE', dir, `${dir} has mode ${(stat.mode & 0o777).toString(8)}; secrets need a private directory: run \`chmod 700 ${dir}\``);
  }
  return dir;
}

/** Whether `host` only accepts connections from this machine. */
