/**
 * The file primitives every pre-launch trust scheme writes through: the outcome type, symlink
 * resolution, the read-only check, atomic replace (temp file + fsync + rename, mode and owner
 * kept), create-if-absent and the lock file shared by concurrent specterm processes.
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Outcome of applying pre-launch trust. */
export interface TrustResult {
  /** `added`: written now; `already`: nothing to do; `skipped`: deliberately not written; `error`: see message. */
  status: 'added' | 'already' | 'skipped' | 'error';
  /** The workspace path as stored (the working directory's realpath). */
  path?: string;
  /** The settings file involved. */
  file?: string;
  /** Why (for `skipped`/`error`, and a short note otherwise). */
  message?: string;
}

/** How long to wait for another specterm process's lock before giving up (ms). */
const LOCK_WAIT_MS = 3000;
/** A lock older than this is left over from a crashed process and is broken (ms). */
const STALE_LOCK_MS = 10_000;
/** Re-read-and-merge attempts when a foreign writer changes the file under us. */
export const MAX_COMMIT_ATTEMPTS = 5;

/** The file to write: a symlink's real target (renaming over a link would replace the link). */
export function resolveWriteTarget(file: string): string | { error: string } {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return file; // absent: created at this path
  }
  if (st.isSymbolicLink()) {
    try {
      return fs.realpathSync(file);
    } catch {
      return { error: `${file} is a symlink to a missing file; left untouched — fix or remove the link` };
    }
  }
  if (!st.isFile()) return { error: `${file} is not a regular file; left untouched` };
  return file;
}

/**
 * A `skipped` result when `target` exists and nobody may write it. The mode bits decide, not
 * `access(W_OK)`: root may write anything, yet a user who made the file read-only meant "don't
 * touch", and a rename over it would succeed.
 */
export function readOnlyRefusal(target: string, file: string, ws: string): TrustResult | null {
  const fileMode = readOnlyModeOf(target);
  if (fileMode !== null) return { status: 'skipped', file, path: ws, message: `${file} is read-only (mode ${fileMode.toString(8)}), so it was left untouched; make it writable (chmod u+w) to let specterm record the trust, or pass --no-trust` };
  // The temp file and the rename live in the directory: a read-only one is the same "don't touch".
  const dir = path.dirname(target);
  const dirMode = readOnlyModeOf(dir);
  if (dirMode !== null) return { status: 'skipped', file, path: ws, message: `${dir} is read-only (mode ${dirMode.toString(8)}), so ${file} was left as it is; make the directory writable (chmod u+w) to let specterm record the trust, or pass --no-trust` };
  return null;
}

/** The permission bits of `p` when it exists with no write bit at all (read-only), else null. */
function readOnlyModeOf(p: string): number | null {
  let mode: number;
  try {
    mode = fs.statSync(p).mode;
  } catch {
    return null; // absent: created
  }
  return (mode & 0o222) === 0 ? mode & 0o777 : null;
}

/** A settings file whose bytes are not text we can edit without changing them. */
export class UneditableSettingsError extends Error {
  constructor(readonly file: string, message: string) {
    super(message);
    this.name = 'UneditableSettingsError';
  }
}

/**
 * The file's text, or null when it does not exist.
 *
 * @throws UneditableSettingsError when it is not valid UTF-8: decoding would turn the bad bytes
 *   into U+FFFD and a rewrite would silently replace them.
 */
export function readTextOrNull(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const text = bytes.toString('utf8');
  const reencoded = Buffer.from(text, 'utf8');
  if (!reencoded.equals(bytes)) {
    // The valid prefix re-encodes identically, so the first difference is the first bad byte.
    let offset = 0;
    while (offset < bytes.length && bytes[offset] === reencoded[offset]) offset++;
    throw new UneditableSettingsError(file, `${file} is not valid UTF-8 text (first bad byte at offset ${offset}), so it was left untouched — save it as UTF-8, or pass --no-trust`);
  }
  return text;
}

/**
 * Writes `text` to a temp file beside `target` (same mode/owner as the original, 0600 when new),
 * fsyncs it, re-reads `target` and renames over it only if it still holds `expected` (`null`:
 * still absent). Returns false (temp removed) when a foreign writer got there first.
 */
export function commitAtomically(target: string, text: string, expected: string | null, beforeCommit?: (file: string) => void): boolean {
  let mode = 0o600;
  let owner: { uid: number; gid: number } | null = null;
  try {
    const st = fs.statSync(target);
    mode = st.mode & 0o7777;
    owner = { uid: st.uid, gid: st.gid };
  } catch {
    // New file.
  }
  const tmp = tempPathBeside(target);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    try {
      fs.writeSync(fd, text);
      fs.fchmodSync(fd, mode);
      // Running as root on a user's file: keep the user as owner.
      if (owner && process.getuid?.() === 0) fs.fchownSync(fd, owner.uid, owner.gid);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    beforeCommit?.(target);
    if (readTextOrNull(target) !== expected) {
      fs.rmSync(tmp, { force: true });
      return false;
    }
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDirectory(path.dirname(target));
  return true;
}

/** Creates `file` with `text` (mode 0600) without ever replacing an existing file. False if it exists. */
export function writeNewFile(file: string, text: string): boolean {
  const tmp = tempPathBeside(file);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    // link() fails with EEXIST instead of replacing: create-if-absent, atomically and complete.
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
    fsyncDirectory(path.dirname(file));
  }
}

function tempPathBeside(file: string): string {
  return `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
}

function fsyncDirectory(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not supported everywhere (Windows); the rename itself is still atomic.
  }
}

/** Runs `fn` holding `<target>.specterm.lock`, shared by every specterm process. */
export function withLock(target: string, file: string, ws: string, fn: () => TrustResult): TrustResult {
  const lock = `${target}.specterm.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = fs.openSync(lock, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) {
        fs.rmSync(lock, { force: true });
        continue;
      }
    } catch {
      continue; // released between our open and stat
    }
    if (Date.now() > deadline) {
      return { status: 'error', file, path: ws, message: `${file} is locked by another specterm process (${lock}); left untouched — retry, or delete the lock file if no specterm is running` };
    }
    sleepSync(5 + Math.floor(Math.random() * 15));
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** Blocks the thread: trust runs synchronously before spawn, and waits here are a few ms. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Resolves the file to write, refuses a read-only one, creates its directory (0700) and runs
 * `edit` under the lock: the common frame of every read-modify-write scheme.
 */
export function editSettingsFile(file: string, ws: string, edit: (target: string) => TrustResult): TrustResult {
  const target = resolveWriteTarget(file);
  if (typeof target !== 'string') return { status: 'error', file, path: ws, message: target.error };
  const readOnly = readOnlyRefusal(target, file, ws);
  if (readOnly) return readOnly;
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  return withLock(target, file, ws, () => edit(target));
}
