/**
 * Private files written whole: the bytes go to a 0600 temp file beside the target (created with
 * `wx`, so nothing already there is followed or reused), which then takes the target's name. A
 * reader or a crash never sees half a file, and another local user can never read it. Two forms:
 * `writePrivateFile` replaces the target (rename); `createPrivateFileOnce` never replaces it
 * (link), so processes starting at once agree on the first one's secret.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { withStorageFull } from './storage-full.js';

/** A fresh temp name beside `file` (pid + random: two writers never share one). */
function tempBeside(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Writes `data` to `file` privately (0600) and atomically, replacing what was there.
 *
 * @throws the `fs` error (ENOENT, EISDIR, …) when the temp file cannot be written or renamed, a
 *   `StorageFullError` naming the directory on a full disk; what was at `file` is then left as it
 *   was and the temp file is removed.
 */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  const temp = tempBeside(file);
  withStorageFull(path.dirname(file), () => {
    try {
      fs.writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
      fs.renameSync(temp, file);
    } catch (error) {
      // Also a half-written temp file (a full disk): it would keep the space it took.
      fs.rmSync(temp, { force: true });
      throw error;
    }
  });
}

/**
 * Creates `file` holding `data` privately (0600), unless it already exists. True when this call
 * created it; false when a file was there (it is left alone: read it instead).
 *
 * @throws the `fs` error other than EEXIST (a `StorageFullError` on a full disk); the temp file is removed.
 */
export function createPrivateFileOnce(file: string, data: string | Uint8Array): boolean {
  const temp = tempBeside(file);
  try {
    withStorageFull(path.dirname(file), () => fs.writeFileSync(temp, data, { mode: 0o600, flag: 'wx' }));
    // link (not rename): it fails on an existing name, so a second creator cannot replace the first's.
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
