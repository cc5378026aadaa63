#!/usr/bin/env node
/**
 * Makes OpenCode's (or Kilo Code's) database small enough to commit as a parser fixture:
 * `node lab/lib/trim-opencode-db.mjs <opencode.db> <out.db>`. The database the CLI wrote (with its
 * WAL beside it) holds every table of the app; the fixture keeps the ones a transcript reads —
 * `session` (to find a new session's id) and `event_sequence` and `event` (the append-only log),
 * with their indexes — created with the CLI's own DDL (from `sqlite_master`) and their rows copied
 * unchanged, in one file without a WAL. The tables `session` refers to are left out.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const KEEP = ['session', 'event_sequence', 'event'];
const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node lab/lib/trim-opencode-db.mjs <opencode.db> <out.db>\n');
  process.exit(2);
}
// Read a copy: opening the CLI's own files would checkpoint its WAL into them.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'trim-opencode-'));
const copy = path.join(tmp, 'in.db');
for (const suffix of ['', '-wal', '-shm']) if (existsSync(input + suffix)) copyFileSync(input + suffix, copy + suffix);
const src = new Database(copy);
rmSync(output, { force: true });
const out = new Database(output);
// `session` refers to `project`, which the fixture leaves out.
out.pragma('foreign_keys = OFF');
// The smallest page SQLite allows: a fixture of a few dozen rows is mostly page overhead.
out.pragma('page_size = 512');
const ddl = src.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name IN (${KEEP.map(() => '?').join(',')}) AND sql IS NOT NULL ORDER BY type = 'index'`).all(...KEEP);
for (const d of ddl) out.exec(d.sql);
let rows = 0;
for (const table of KEEP) {
  const all = src.prepare(`SELECT * FROM ${table}`).all();
  if (!all.length) continue;
  const cols = Object.keys(all[0]);
  const insert = out.prepare(`INSERT INTO ${table} (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`);
  out.transaction(() => { for (const r of all) insert.run(...cols.map((c) => r[c])); })();
  rows += all.length;
}
out.exec('VACUUM');
out.close();
src.close();
rmSync(tmp, { recursive: true, force: true });
process.stdout.write(`${input}: ${rows} rows of ${KEEP.join(', ')} kept → ${output}\n`);
