/**
 * `--history-to DIR`, shared by the labs: copies the history files a CLI wrote during a run (each
 * tree keeps its folder layout) and the scripted server's log (`server-log.json`, the ground truth
 * the transcript tests check against) into `DIR/<scenario>/`.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The conversation id a run is started with, as the daemon does for a spec whose
 * `native_history.session_id` is `launch_flag` (a new id in its `args`): with --history-to the
 * labs launch so, and the id goes in the log, so a fixture shows the CLI kept the id it was given.
 * `{ id: null, args: [] }` for a spec that lets the CLI pick.
 */
export function historyLaunch(spec) {
  const rule = spec.native_history?.session_id;
  if (rule?.from !== 'launch_flag' || !Array.isArray(rule.args)) return { id: null, args: [] };
  const id = randomUUID();
  return { id, args: rule.args.map((a) => a.replaceAll('{session_id}', id)) };
}

/**
 * @param {{ trees: Array<{ from: string, as: string }>, dir: string, log: { cli: string, version: string, cwd: string, session_id?: string | null, events: object[] } }} run
 *   `trees`: each folder `from` is copied to `dir/<as>`; `log` is written as `dir/server-log.json`.
 */
export function copyHistory({ trees, dir, log }) {
  const walk = (from, to) => {
    for (const ent of existsSync(from) ? readdirSync(from, { withFileTypes: true }) : []) {
      if (ent.isDirectory()) walk(join(from, ent.name), join(to, ent.name));
      else if (ent.isFile()) {
        mkdirSync(to, { recursive: true });
        copyFileSync(join(from, ent.name), join(to, ent.name));
      }
    }
  };
  mkdirSync(dir, { recursive: true });
  for (const t of trees) walk(t.from, join(dir, t.as));
  writeFileSync(join(dir, 'server-log.json'), `${JSON.stringify(log, null, 2)}\n`);
}
