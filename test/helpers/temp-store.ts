/**
 * Temp directories for store tests: a fresh private dir per test under /tmp, removed afterwards,
 * and the database file's bytes (main file + WAL) for "is this secret on disk" checks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh 0700 directory; `cleanup()` removes it and everything in it. */
export function makeTempDir(prefix = 'st-'): { dir: string; dbPath: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, dbPath: path.join(dir, 'specterm.db'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The database's bytes on disk: the main file followed by its -wal, when there is one. */
export function databaseBytes(dbPath: string): Buffer {
  const parts = [dbPath, `${dbPath}-wal`].filter((p) => fs.existsSync(p)).map((p) => fs.readFileSync(p));
  return Buffer.concat(parts);
}
