/**
 * Finds the history file of a session whose CLI names the file itself (`native_history.session_id:
 * {"from": "newest_file"}`: Codex, Gemini CLI, Qwen Code): the spec's path template with its
 * `{yyyy}/{mm}/{dd}` filled for the days around the session's start and its `*` / `?` matched
 * one folder level at a time (`**`: up to {@link MAX_DEPTH} levels), then the first file created after the session started
 * that names the session's folder and that no other session follows. The file's own first
 * records say its id (what a resume passes back) and, where the CLI writes it, its folder.
 *
 * What keeps two sessions apart:
 * - a template with a `{cwd…}` encoding only ever lists the session's own folder;
 * - a file that says its folder (Codex `session_meta.cwd`, Gemini `projectHash`, Qwen `cwd`) is
 *   taken only by a session in that folder;
 * - a file another session follows (`claimed`) is never taken;
 * - among what is left, the file created first after the start (the CLI writes it as it starts).
 * Two sessions of the same folder started within the same moment may still take each other's
 * file when the later CLI writes first: each transcript is then whole, but under the other name.
 *
 * Cost of one call, bounded whatever the history holds: the template's folders for at most
 * {@link MAX_DAYS} days, at most {@link MAX_CANDIDATES} files stat'ed (the newest), and at most
 * {@link HEAD_BYTES} read from at most {@link MAX_HEADS} of them.
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HistoryFormat } from '../protocol/transcripts.js';
import type { TranscriptEvent } from './events.js';
import { fillHistoryPath, resolveHistoryPath } from './history-path.js';
import { findNewestOpenCodeSession } from './opencode-db-follower.js';
import { createHistoryParser, PARSED_FORMATS } from './parsers/index.js';

/** A file created up to this long before the start still counts (clocks and file systems round). */
export const START_SLACK_MS = 2_000;
/** Bytes read from the top of a file to find its session record. */
export const HEAD_BYTES = 64 * 1024;
export const MAX_CANDIDATES = 200;
export const MAX_HEADS = 16;
/** Folder levels a `**` goes down. */
export const MAX_DEPTH = 4;
/** Days of dated folders listed: a session resumed a month later is looked for by its id's name. */
export const MAX_DAYS = 31;
const DAY_MS = 86_400_000;

export interface HistoryDiscovery {
  format: HistoryFormat;
  /** The spec's `native_history.path`. */
  template: string;
  env: Record<string, string | undefined>;
  home: string;
  cwd: string;
  /** When the CLI was started (ms): files created before it belong to someone else. */
  startedAt: number;
  /** The id to find (a resume): then the file's age does not matter. */
  sessionId?: string | null;
  /** Files other sessions follow. */
  claimed?: ReadonlySet<string>;
  now?: number;
}

export interface DiscoveredHistory {
  path: string;
  /** The CLI's session id, as the file says it. */
  sessionId: string;
}

/** The session's history file, or null when none is there (yet): call again later. */
export function findSessionHistoryFile(d: HistoryDiscovery): DiscoveredHistory | null {
  if (!PARSED_FORMATS.includes(d.format)) return null;
  if (d.format === 'opencode-sqlite') return findDatabaseSession(d);
  const pattern = fillHistoryPath(d.template, { env: d.env, home: d.home, cwd: d.cwd, sessionId: d.sessionId ?? null });
  if (!pattern) return null;
  const files = new Set<string>();
  for (const day of daysAround(d.startedAt, d.now ?? Date.now())) {
    for (const file of matchGlob(fillDate(pattern, day))) files.add(file);
  }
  const known = d.sessionId ?? null;
  const stamped = [...files]
    .filter((file) => !d.claimed?.has(file))
    .flatMap((file) => {
      const times = timesOf(file);
      return times ? [{ file, ...times }] : [];
    });
  // A new session's file: the first created since the start. A known id's (a resume, or an id
  // given at launch in a name the CLI dates): a name holding the id first, then the latest written.
  const candidates = known === null
    ? stamped.filter((c) => c.created >= d.startedAt - START_SLACK_MS).sort((a, b) => b.created - a.created).slice(0, MAX_CANDIDATES).reverse()
    : stamped.sort((a, b) => Number(namesId(b.file, known)) - Number(namesId(a.file, known)) || b.written - a.written).slice(0, MAX_CANDIDATES);
  const cwdKeys = folderKeys(d.cwd);
  let heads = 0;
  for (const c of candidates) {
    if (heads++ >= MAX_HEADS) break;
    const session = sessionOf(d.format, c.file);
    if (!session) continue;
    if (known !== null && session.id !== known) continue;
    if (session.cwd !== undefined && !cwdKeys.paths.has(session.cwd)) continue;
    if (session.cwd_sha256 !== undefined && !cwdKeys.hashes.has(session.cwd_sha256)) continue;
    return { path: c.file, sessionId: session.id };
  }
  return null;
}

/**
 * OpenCode and Kilo Code keep every session in one database: the path names it, and the session
 * is the newest top-level one of the cwd created since the start (a resume knows its id).
 */
function findDatabaseSession(d: HistoryDiscovery): DiscoveredHistory | null {
  const db = resolveHistoryPath(d.template, { env: d.env, home: d.home, cwd: d.cwd, sessionId: d.sessionId ?? '' });
  if (!db || !fs.existsSync(db)) return null;
  const id = d.sessionId ?? findNewestOpenCodeSession(db, d.cwd, d.startedAt - START_SLACK_MS);
  return id ? { path: db, sessionId: id } : null;
}

/** The UTC and local dates from the day before `from` to the day after `to` (at most MAX_DAYS). */
function daysAround(from: number, to: number): Date[] {
  const out: Date[] = [];
  const start = Math.max(from - DAY_MS, to - MAX_DAYS * DAY_MS);
  for (let t = start; t <= to + DAY_MS; t += DAY_MS) out.push(new Date(t));
  return out;
}

function fillDate(pattern: string, day: Date): string[] {
  if (!/\{(?:yyyy|mm|dd)\}/.test(pattern)) return [pattern];
  const two = (n: number) => String(n).padStart(2, '0');
  // A CLI files by its local date (Codex) or by UTC: both are listed.
  return [...new Set([
    [day.getFullYear(), day.getMonth() + 1, day.getDate()],
    [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()],
  ].map(([y, m, dd]) => pattern.replaceAll('{yyyy}', String(y)).replaceAll('{mm}', two(m!)).replaceAll('{dd}', two(dd!))))];
}

/** The files a pattern names, matching `*` and `?` inside one folder level each. */
function matchGlob(patterns: string[]): string[] {
  const out: string[] = [];
  for (const pattern of patterns) {
    let bases = [path.parse(pattern).root];
    const parts = pattern.split(path.sep).filter(Boolean);
    for (const [i, part] of parts.entries()) {
      const last = i === parts.length - 1;
      if (part === '**' && !last) {
        bases = bases.flatMap((base) => foldersBelow(base, MAX_DEPTH));
        continue;
      }
      const re = /[*?]/.test(part) ? globRegExp(part) : null;
      const next: string[] = [];
      for (const base of bases) {
        if (!re) {
          next.push(path.join(base, part));
          continue;
        }
        for (const ent of listDir(base)) {
          if (re.test(ent.name) && (last ? ent.isFile() : ent.isDirectory())) next.push(path.join(base, ent.name));
        }
      }
      bases = next;
    }
    out.push(...bases.filter((f) => isFile(f)));
  }
  return out;
}

/** `base` and the folders under it, at most `depth` levels down (a `**`). */
function foldersBelow(base: string, depth: number): string[] {
  const out = [base];
  if (depth === 0) return out;
  for (const ent of listDir(base)) {
    if (ent.isDirectory()) out.push(...foldersBelow(path.join(base, ent.name), depth - 1));
  }
  return out;
}

function globRegExp(part: string): RegExp {
  const body = part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*').replaceAll('?', '[^/]');
  return new RegExp(`^${body}$`);
}

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** When the file was created (its last change where the file system keeps no birth time) and last written. */
function timesOf(file: string): { created: number; written: number } | null {
  try {
    const st = fs.statSync(file);
    return { created: st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs, written: st.mtimeMs };
  } catch {
    return null;
  }
}

/** The file's name holds the id, or its first 8 characters (Gemini CLI's `session-<time>-<id8>`). */
function namesId(file: string, id: string): boolean {
  return path.basename(file).includes(id.slice(0, 8));
}

/** The session record at the top of the file, read through the format's own parser. */
function sessionOf(format: HistoryFormat, file: string): Extract<TranscriptEvent, { type: 'session' }> | null {
  let head: string;
  let whole: boolean;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const bytes = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
      head = buf.subarray(0, bytes).toString('utf8');
      whole = bytes < HEAD_BYTES;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  // Whole lines only: the last one may be cut by the read or still being written. A small file
  // that is one JSON document (not lines) is read whole.
  const records = [...head.split('\n').slice(0, -1), ...(whole ? [head] : [])];
  const parser = createHistoryParser(format);
  for (const text of records) {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      continue;
    }
    const found = parser.feed(record).find((e) => e.type === 'session');
    if (found) return found;
  }
  return null;
}

/** The session's folder as a CLI may have written it: as given and with its links resolved. */
function folderKeys(cwd: string): { paths: Set<string>; hashes: Set<string> } {
  const paths = new Set([cwd, path.resolve(cwd)]);
  try {
    paths.add(fs.realpathSync(cwd));
  } catch {
    // a folder gone: the names as given
  }
  const hashes = new Set([...paths].map((p) => createHash('sha256').update(p).digest('hex')));
  return { paths, hashes };
}
