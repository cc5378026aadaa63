/**
 * Private temp files for data handed to an agent by path (pasted images): a per-process
 * directory only we can enter (0700), unguessable file names and 0600 files created with
 * `wx`, so another local user can neither read the file nor pre-create it as a symlink.
 * The reference wrote `<tmpdir>/adhdev-attach-<epoch-ms><ext>`: predictable and world-listable.
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A written temp file. `remove()` is idempotent, never throws, and removes the private directory once it is empty. */
export interface PrivateTempFile {
  /** Absolute path of the file. */
  readonly path: string;
  remove(): void;
}

/** Options of {@link writePrivateTempFile}. */
export interface PrivateTempOptions {
  /** Parent of the private directory. Default `os.tmpdir()`. */
  dir?: string;
}

/** Extension: empty, or a dot and 1–16 letters/digits (no separators, no second dot). */
const VALID_EXT = /^(?:\.[A-Za-z0-9]{1,16})?$/;

/** Private directories created by this process, by parent directory. */
const privateDirs = new Map<string, string>();

/**
 * Writes `bytes` to a new private file ending in `ext` (e.g. `.png`).
 *
 * @throws TypeError when `ext` is not `''` or `.` followed by 1–16 letters/digits (a programming
 *   error: callers map MIME types to a fixed list).
 * @example
 * const f = writePrivateTempFile(png, '.png');
 * transport.write(`${f.path}\r`);
 * // later: f.remove();
 */
export function writePrivateTempFile(bytes: Uint8Array, ext: string, opts: PrivateTempOptions = {}): PrivateTempFile {
  if (typeof ext !== 'string' || !VALID_EXT.test(ext)) {
    throw new TypeError(`ext must be "" or "." followed by 1-16 letters/digits (e.g. ".png"), got ${JSON.stringify(ext)}`);
  }
  const dir = privateDirFor(path.resolve(opts.dir ?? os.tmpdir()));
  const file = path.join(dir, crypto.randomBytes(16).toString('hex') + ext);
  // `wx` refuses to follow or reuse anything already at that name; `mode` applies on creation.
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, bytes);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return {
    path: file,
    remove(): void {
      try {
        fs.rmSync(file, { force: true });
        // The last file out removes the private directory, so a long-running process that never
        // reaches removeAll() leaves nothing behind; ENOTEMPTY simply means other files remain.
        fs.rmdirSync(dir);
        for (const [parent, d] of privateDirs) if (d === dir) privateDirs.delete(parent);
      } catch {
        // Best effort: other files remain, or the directory is already gone (removeAll).
      }
    },
  };
}

/** Deletes every private directory (and the files in it) created by this process. For shutdown. */
export function removeAll(): void {
  for (const dir of privateDirs.values()) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort at shutdown.
    }
  }
  privateDirs.clear();
}

/** The private directory under `parent`, created (mode 0700 via mkdtemp) on first use or if deleted. */
function privateDirFor(parent: string): string {
  const existing = privateDirs.get(parent);
  if (existing && fs.existsSync(existing)) return existing;
  const dir = fs.mkdtempSync(path.join(parent, 'specterm-'));
  // mkdtemp already uses 0700; chmod makes it explicit whatever the platform default.
  fs.chmodSync(dir, 0o700);
  privateDirs.set(parent, dir);
  return dir;
}
