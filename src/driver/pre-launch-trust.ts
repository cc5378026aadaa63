/**
 * Pre-launch trust (spec-format §10.6): before spawning, record "this folder is trusted" in the
 * agent CLI's own settings so its first-run trust dialog never appears. Best effort — the spec's
 * trust-modal states stay the fallback — and held to one guarantee above all: a user's settings
 * file is never lost or corrupted. Every write is atomic (temp file + fsync + rename) or a pure
 * append, happens under a lock file shared by concurrent specterm processes, and is re-checked
 * against the file's current bytes just before it lands (a foreign writer such as the CLI itself
 * triggers a re-read and merge). Anything we cannot edit safely is left byte-identical and
 * reported as an `error` result. Never throws.
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PreLaunchTrust } from '../core/spec/types.js';
import { expandHome } from './find-binary.js';

/** Outcome of {@link applyPreLaunchTrust}. */
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

/** Options of {@link applyPreLaunchTrust}. */
export interface PreLaunchTrustOptions {
  /** Home directory for `~` and the named schemes. Default `os.homedir()`. */
  homeDir?: string;
  /** Environment to read `CODEX_HOME` / `CLAUDE_CONFIG_DIR` / `GEMINI_CLI_HOME` / `GEMINI_CLI_TRUSTED_FOLDERS_PATH` from (pass the child's env). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Clock for `decided_at` (grok). Default `() => new Date()`. */
  now?: () => Date;
  /**
   * @internal Test hook: runs after the temp file is written and before the final re-check and
   * rename, to simulate a foreign writer racing us.
   */
  beforeCommit?: (file: string) => void;
}

/** How long to wait for another specterm process's lock before giving up (ms). */
const LOCK_WAIT_MS = 3000;
/** A lock older than this is left over from a crashed process and is broken (ms). */
const STALE_LOCK_MS = 10_000;
/** Re-read-and-merge attempts when a foreign writer changes the file under us. */
const MAX_COMMIT_ATTEMPTS = 5;

/**
 * Applies `cfg` for `workingDir`. Never throws; never loses or corrupts a settings file.
 *
 * @example
 * const r = applyPreLaunchTrust({ scheme: 'claude_json_projects' }, '/repo', { env: plan.env });
 * if (r.status === 'error') log.warn(`pre-launch trust: ${r.message}`);
 */
export function applyPreLaunchTrust(cfg: PreLaunchTrust, workingDir: string, opts: PreLaunchTrustOptions = {}): TrustResult {
  try {
    return applyOrThrow(cfg, workingDir, opts);
  } catch (err) {
    return { status: 'error', message: `pre-launch trust failed: ${(err as Error)?.message ?? String(err)}; settings left as they were` };
  }
}

function applyOrThrow(cfg: PreLaunchTrust, workingDir: string, opts: PreLaunchTrustOptions): TrustResult {
  if (!cfg || typeof cfg !== 'object') {
    return { status: 'skipped', message: 'no pre_launch_trust configured' };
  }
  const home = opts.homeDir ?? os.homedir();
  const env = opts.env ?? process.env;
  const ws = workspacePath(workingDir);
  if ('scheme' in cfg) {
    switch (cfg.scheme) {
      case 'claude_json_projects': {
        const dir = env.CLAUDE_CONFIG_DIR ? expandHome(env.CLAUDE_CONFIG_DIR, home) : home;
        return updateJsonFile(path.join(dir, '.claude.json'), ws, opts, (root, file) => setClaudeProjectTrust(root, file, ws));
      }
      case 'codex_toml_file': {
        const dir = env.CODEX_HOME ? expandHome(env.CODEX_HOME, home) : path.join(home, '.codex');
        return appendTomlTable(path.join(dir, 'config.toml'), ws, 'projects', ['trust_level = "trusted"'], /^trust_level\s*=\s*"untrusted"/m);
      }
      case 'grok_toml_file': {
        const decidedAt = (opts.now ?? (() => new Date()))().toISOString();
        return appendTomlTable(path.join(home, '.grok', 'config.toml'), ws, 'folders', ['trusted = true', `decided_at = ${decidedAt}`], /^trusted\s*=\s*false/m);
      }
      case 'kimi_workspace_file':
        return createKimiWorkspaceFile(home, ws);
      case 'gemini_trusted_folders':
        return updateJsonFile(geminiTrustedFoldersFile(env, home), ws, opts, (root, file) => setGeminiFolderTrust(root, file, ws));
      default:
        return { status: 'error', message: `pre_launch_trust.scheme ${JSON.stringify((cfg as { scheme: unknown }).scheme)} is not supported; use claude_json_projects, codex_toml_file, gemini_trusted_folders, grok_toml_file or kimi_workspace_file` };
    }
  }
  const { settings_path: settingsPath, key } = cfg;
  if (typeof settingsPath !== 'string' || !settingsPath.trim() || typeof key !== 'string' || !key) {
    return { status: 'error', message: `pre_launch_trust needs string settings_path and key, got ${JSON.stringify(cfg)}; fix the spec` };
  }
  const file = expandHome(settingsPath.trim(), home);
  if (!path.isAbsolute(file)) {
    return { status: 'error', message: `pre_launch_trust.settings_path ${JSON.stringify(settingsPath)} must be absolute or start with ~/; fix the spec` };
  }
  return updateJsonFile(file, ws, opts, (root, f) => appendToArray(root, f, key, ws));
}

/** The workspace as the CLI sees it: the realpath of `workingDir` (fallback: `path.resolve`). */
function workspacePath(workingDir: string): string {
  try {
    return fs.realpathSync(workingDir);
  } catch {
    return path.resolve(workingDir);
  }
}

// ── JSON settings files ─────────────────────────────────────────────────────

type JsonObject = Record<string, unknown>;
/** `changed` → write; `already` → no-op; a string → refuse with that message. */
type Mutation = 'changed' | 'already' | { refuse: string } | { skip: string };

function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeJson(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function appendToArray(root: JsonObject, file: string, key: string, ws: string): Mutation {
  const current = Object.prototype.hasOwnProperty.call(root, key) ? root[key] : undefined;
  if (current === undefined) {
    root[key] = [ws];
    return 'changed';
  }
  // The reference replaced a non-array with []: that would drop the user's value.
  if (!Array.isArray(current)) return { refuse: `${file}: "${key}" is ${describeJson(current)}, expected an array of folder paths; fix it by hand` };
  if (current.includes(ws)) return 'already';
  current.push(ws);
  return 'changed';
}

function setClaudeProjectTrust(root: JsonObject, file: string, ws: string): Mutation {
  const projects = Object.prototype.hasOwnProperty.call(root, 'projects') ? root.projects : undefined;
  if (projects !== undefined && !isPlainObject(projects)) return { refuse: `${file}: "projects" is ${describeJson(projects)}, expected an object; fix it by hand` };
  const table: JsonObject = projects ?? (root.projects = {});
  const entry = Object.prototype.hasOwnProperty.call(table, ws) ? table[ws] : undefined;
  if (entry !== undefined && !isPlainObject(entry)) return { refuse: `${file}: projects[${JSON.stringify(ws)}] is ${describeJson(entry)}, expected an object; fix it by hand` };
  if (entry?.hasTrustDialogAccepted === true) return 'already';
  if (entry) entry.hasTrustDialogAccepted = true;
  else table[ws] = { hasTrustDialogAccepted: true };
  return 'changed';
}

// ── gemini: trustedFolders.json ─────────────────────────────────────────────

/** Trust levels Gemini CLI (0.61) understands; the first two make a folder trusted. */
const GEMINI_TRUSTING_LEVELS = ['TRUST_FOLDER', 'TRUST_PARENT'];

/**
 * Gemini CLI's trust store, as 0.61 locates it: `$GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else
 * `<GEMINI_CLI_HOME or home>/.gemini/trustedFolders.json` (the child's environment decides).
 */
function geminiTrustedFoldersFile(env: Record<string, string | undefined>, home: string): string {
  if (env.GEMINI_CLI_TRUSTED_FOLDERS_PATH) return expandHome(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, home);
  const base = env.GEMINI_CLI_HOME ? expandHome(env.GEMINI_CLI_HOME, home) : home;
  return path.join(base, '.gemini', 'trustedFolders.json');
}

/**
 * Gemini keeps an OBJECT map `{ "<realpath>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }`.
 * An explicit `DO_NOT_TRUST` for this folder is the user's decision and is kept; any other
 * existing value under that key (unknown to Gemini, which ignores it) is never overwritten.
 */
function setGeminiFolderTrust(root: JsonObject, file: string, ws: string): Mutation {
  const entry = Object.prototype.hasOwnProperty.call(root, ws) ? root[ws] : undefined;
  // Our exact-path entry would be the longest match and so override a user's "DO_NOT_TRUST" on an ancestor.
  const distrustingAncestor = Object.keys(root).find((k) => root[k] === 'DO_NOT_TRUST' && k !== ws && ws.startsWith(k.endsWith(path.sep) ? k : k + path.sep));
  if (entry === undefined && distrustingAncestor !== undefined) {
    return { skip: `${file} marks ${distrustingAncestor} (a parent of ${ws}) as DO_NOT_TRUST; that decision is left as it is` };
  }
  if (entry === undefined) {
    root[ws] = 'TRUST_FOLDER';
    return 'changed';
  }
  if (typeof entry === 'string' && GEMINI_TRUSTING_LEVELS.includes(entry)) return 'already';
  if (entry === 'DO_NOT_TRUST') return { skip: `${file} marks ${ws} as DO_NOT_TRUST; that decision is left as it is` };
  return { refuse: `${file}: ${JSON.stringify(ws)} is ${JSON.stringify(entry)}, expected "TRUST_FOLDER", "TRUST_PARENT" or "DO_NOT_TRUST"; fix it by hand` };
}

/**
 * Read → parse → mutate → atomic replace, under the lock, retried when the file changed between
 * our read and our rename. Missing or blank file → created from `{}` with mode 0600.
 */
function updateJsonFile(file: string, ws: string, opts: PreLaunchTrustOptions, mutate: (root: JsonObject, file: string) => Mutation): TrustResult {
  const target = resolveWriteTarget(file);
  if (typeof target !== 'string') return { status: 'error', file, path: ws, message: target.error };
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  return withLock(target, file, ws, () => {
    for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
      const before = readTextOrNull(target);
      const blank = before === null || before.trim() === '';
      let root: unknown = {};
      if (!blank) {
        const problem = inspectJson(before.replace(/^\uFEFF/, ''));
        if (problem) return { status: 'error', file, path: ws, message: `${file}: ${problem}; the file was left untouched — fix it or remove pre_launch_trust` };
        root = JSON.parse(before.replace(/^\uFEFF/, ''));
      }
      // The reference replaced a non-object root with {}: that would wipe the user's file.
      if (!isPlainObject(root)) return { status: 'error', file, path: ws, message: `${file}: the top level is ${describeJson(root)}, expected an object; the file was left untouched — fix it by hand` };
      const outcome = mutate(root, file);
      if (outcome === 'already') return { status: 'already', file, path: ws };
      if (typeof outcome === 'object' && 'skip' in outcome) return { status: 'skipped', file, path: ws, message: outcome.skip };
      if (typeof outcome === 'object') return { status: 'error', file, path: ws, message: `${outcome.refuse}; the file was left untouched` };
      const text = formatJsonLike(root, blank ? null : before);
      if (commitAtomically(target, text, before, opts.beforeCommit)) return { status: 'added', file, path: ws };
    }
    return { status: 'error', file, path: ws, message: `${file} kept changing while we tried to update it (${MAX_COMMIT_ATTEMPTS} attempts); left as the other writer made it — start again once the CLI is closed` };
  });
}

/** Serializes `root` in the original text's style: indentation (2/4 spaces, tab, compact), CRLF, BOM, final newline. */
function formatJsonLike(root: unknown, original: string | null): string {
  if (original === null) return JSON.stringify(root, null, 2) + '\n';
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = original.replace(/^\uFEFF/, '');
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const indentMatch = /\n([ \t]+)\S/.exec(body);
  let indent: string | number = 2;
  if (indentMatch) indent = indentMatch[1]!.startsWith('\t') ? '\t' : indentMatch[1]!.length;
  else if (!body.trim().includes('\n') && !/^[{[]\s*[}\]]$/.test(body.trim())) indent = 0; // a minified file stays minified
  let text = JSON.stringify(root, null, indent);
  if (eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  const trailing = /\r?\n$/.test(body) ? eol : '';
  return bom + text + trailing;
}

// ── TOML settings files (append-only) ───────────────────────────────────────

/** A TOML basic string: `"` and `\` escaped, control characters as `\uXXXX`. */
export function tomlBasicString(value: string): string {
  return '"' + value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\' || c === '"') return '\\' + c;
    return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  }) + '"';
}

/**
 * Appends `[<tableName>."<ws>"]` + `lines` unless that table already exists. Existing content is
 * never rewritten: an existing table (trusted or explicitly not) is left as it is.
 */
function appendTomlTable(file: string, ws: string, tableName: string, lines: string[], explicitlyUntrusted: RegExp): TrustResult {
  const target = resolveWriteTarget(file);
  if (typeof target !== 'string') return { status: 'error', file, path: ws, message: target.error };
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const header = `[${tableName}.${tomlBasicString(ws)}]`;
  const literalHeader = ws.includes("'") ? null : `[${tableName}.'${ws}']`;
  return withLock(target, file, ws, () => {
    const before = readTextOrNull(target) ?? '';
    const all = before.split(/\r?\n/);
    const at = all.findIndex((l) => {
      const t = l.replace(/#.*$/, '').trim();
      return t === header || (literalHeader !== null && t === literalHeader);
    });
    if (at >= 0) {
      const end = all.findIndex((l, i) => i > at && /^\s*\[/.test(l));
      const body = all.slice(at + 1, end < 0 ? undefined : end).map((l) => l.trim()).join('\n');
      if (explicitlyUntrusted.test(body)) {
        return { status: 'skipped', file, path: ws, message: `${file} marks ${ws} as not trusted; that decision is left as it is` };
      }
      return { status: 'already', file, path: ws };
    }
    // `projects = { … }` (inline table) plus an appended `[projects."…"]` is invalid TOML.
    if (new RegExp(`^\\s*${tableName}\\s*=`, 'm').test(before)) {
      return { status: 'error', file, path: ws, message: `${file} defines "${tableName}" as an inline value, so a [${tableName}."…"] table cannot be appended; the file was left untouched — add the entry by hand` };
    }
    const eol = before.includes('\r\n') ? '\r\n' : '\n';
    const block = [header, ...lines].join(eol) + eol;
    const addition = before.length === 0 ? block : eol + block;
    if (before.length === 0 && !fs.existsSync(target)) {
      writeNewFile(target, addition);
    } else {
      // O_APPEND: the existing bytes are never rewritten; inode, mode and symlinks stay.
      fs.appendFileSync(target, addition);
    }
    return { status: 'added', file, path: ws };
  });
}

// ── kimi: one file per workspace ────────────────────────────────────────────

/**
 * Our guess at kimi's layout (the reference does not show it):
 * `~/.kimi/workspaces/<sha1(realpath)>.json` = `{"path": realpath, "trusted": true}`.
 * Created if absent, never overwritten.
 */
function createKimiWorkspaceFile(home: string, ws: string): TrustResult {
  const file = path.join(home, '.kimi', 'workspaces', crypto.createHash('sha1').update(ws).digest('hex') + '.json');
  if (fs.existsSync(file)) return { status: 'already', file, path: ws };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = writeNewFile(file, JSON.stringify({ path: ws, trusted: true }, null, 2) + '\n');
  return { status: created ? 'added' : 'already', file, path: ws };
}

// ── File primitives ─────────────────────────────────────────────────────────

/** The file to write: a symlink's real target (renaming over a link would replace the link). */
function resolveWriteTarget(file: string): string | { error: string } {
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

function readTextOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Writes `text` to a temp file beside `target` (same mode/owner as the original, 0600 when new),
 * fsyncs it, re-reads `target` and renames over it only if it still holds `expected`.
 * Returns false (temp removed) when a foreign writer got there first.
 */
function commitAtomically(target: string, text: string, expected: string | null, beforeCommit?: (file: string) => void): boolean {
  let mode = 0o600;
  let owner: { uid: number; gid: number } | null = null;
  try {
    const st = fs.statSync(target);
    mode = st.mode & 0o7777;
    owner = { uid: st.uid, gid: st.gid };
  } catch {
    // New file.
  }
  const tmp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
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
function writeNewFile(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
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
function withLock(target: string, file: string, ws: string, fn: () => TrustResult): TrustResult {
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

// ── JSON inspection ─────────────────────────────────────────────────────────

/**
 * Checks that `text` is JSON we can rewrite without loss. Returns null when it is, otherwise a
 * message with line and column: a syntax error, a duplicate key (rewriting keeps only the last
 * one) or a number that would not survive a parse/stringify round trip.
 */
export function inspectJson(text: string): string | null {
  let i = 0;
  const at = (pos: number, what: string): string => {
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - before.lastIndexOf('\n');
    return `${what} at line ${line}, column ${col}`;
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new InspectError(at(i, i >= text.length ? 'invalid JSON: unexpected end of input' : `invalid JSON: ${what}`));
  };
  const str = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('control character in string');
      if (text[i] === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('bad escape');
        i += 2;
        continue;
      }
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const keys = new Set<string>();
      ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a double-quoted property name');
        const keyPos = i;
        const key = str();
        if (keys.has(key)) throw new InspectError(at(keyPos, `duplicate key ${JSON.stringify(key)} (a rewrite would drop one)`));
        keys.add(key);
        ws();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') { str(); return; }
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) { i += lit.length; return; }
    }
    const num = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    num.lastIndex = i;
    const m = num.exec(text);
    if (!m) fail(`unexpected ${c === undefined ? 'end' : JSON.stringify(c)}`);
    const literal = m![0];
    if (!numberSurvivesRoundTrip(literal)) throw new InspectError(at(i, `number ${literal} cannot be rewritten exactly`));
    i += literal.length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail('unexpected content after the top-level value');
    return null;
  } catch (err) {
    if (err instanceof InspectError) return err.message;
    if (err instanceof RangeError) return 'JSON is nested too deeply to edit safely';
    throw err;
  }
}

/** Integers must be safe; other numbers must keep their value at 17 significant digits or fewer. */
function numberSurvivesRoundTrip(literal: string): boolean {
  const n = Number(literal);
  if (!Number.isFinite(n)) return false;
  if (/^-?\d+$/.test(literal)) return Number.isSafeInteger(n);
  const digits = literal.replace(/[eE].*$/, '').replace(/[-.]/g, '').replace(/^0+/, '');
  return digits.replace(/0+$/, '').length <= 17;
}

class InspectError extends Error {}
