/**
 * `--history-to DIR`, shared by the labs: copies what a CLI kept of one lab run (its history
 * folders in the run's private HOME, the layout kept) and the scripted server's log (the ground
 * truth a parsed transcript is checked against) into `DIR/<scenario>/`.
 *
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Copies every regular file under `from` to the same relative path under `to` (nothing when `from` is absent). */
export function copyTree(from, to) {
  for (const ent of existsSync(from) ? readdirSync(from, { withFileTypes: true }) : []) {
    const src = join(from, ent.name);
    if (ent.isDirectory()) copyTree(src, join(to, ent.name));
    else if (ent.isFile()) {
      mkdirSync(to, { recursive: true });
      copyFileSync(src, join(to, ent.name));
    }
  }
}

/**
 * @param {string} dir - the scenario's folder (created)
 * @param {Array<{ from: string, to: string }>} trees - history folders, each copied to `dir/<to>`
 * @param {{ cli: string, version: string, cwd: string, events: unknown[] }} log - written as `server-log.json`
 */
export function copyHistory(dir, trees, log) {
  mkdirSync(dir, { recursive: true });
  for (const t of trees) copyTree(t.from, join(dir, t.to));
  writeFileSync(join(dir, 'server-log.json'), `${JSON.stringify(log, null, 2)}\n`);
}
