/**
 * The corrupt-file policy's one destructive-looking step, done without destroying anything: a
 * database that cannot be used is renamed (with its -wal, -shm and -journal companions) to
 * `<path>.corrupt-<timestamp>` so a person can inspect or recover it. Nothing is ever deleted.
 *
 * @module
 */
import fs from 'node:fs';

/** Files SQLite keeps beside a database; they belong to it and move with it. */
const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

/**
 * Renames `path` and its companions (whichever exist) to a free `<path>.corrupt-<timestamp>[-n]` name.
 *
 * @returns the new path of the main file.
 */
export function moveAside(path: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  let target = `${path}.corrupt-${stamp}`;
  // Two failures in the same millisecond (or a clock set back) must not overwrite an earlier copy.
  for (let n = 2; isTaken(target); n += 1) target = `${path}.corrupt-${stamp}-${n}`;
  // Companions first: should a rename fail half way, the worst left behind is the old file
  // without its WAL (whose copy is beside it), never a fresh database next to a stale WAL that
  // SQLite would reset, losing the commits it holds.
  for (const suffix of COMPANION_SUFFIXES) {
    if (fs.existsSync(path + suffix)) fs.renameSync(path + suffix, target + suffix);
  }
  // The main file may be missing: a -wal can outlive it (see openStore).
  if (fs.existsSync(path)) fs.renameSync(path, target);
  return target;
}

function isTaken(target: string): boolean {
  return [target, ...COMPANION_SUFFIXES.map((s) => target + s)].some((p) => fs.existsSync(p));
}
