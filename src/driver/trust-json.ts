/**
 * Pre-launch trust for JSON settings files (`~/.claude.json`, Gemini's and Qwen Code's `trustedFolders.json`, the
 * generic `{settings_path, key}` array form): parse → mutate → re-serialize in the file's own
 * style → prove the new text parses to exactly the mutated value → atomic replace. A file we
 * cannot rewrite without loss (comments, duplicate keys, inexact numbers) is left untouched.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { expandHome } from './find-binary.js';
import { commitAtomically, editSettingsFile, MAX_COMMIT_ATTEMPTS, readTextOrNull, type TrustResult } from './trust-files.js';
import type { PreLaunchTrustOptions } from './pre-launch-trust.js';

export type JsonObject = Record<string, unknown>;
/** `changed` → write; `already` → no-op; a string → refuse with that message. */
export type Mutation = 'changed' | 'already' | { refuse: string } | { skip: string };

function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeJson(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export function appendToArray(root: JsonObject, file: string, key: string, ws: string): Mutation {
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

export function setClaudeProjectTrust(root: JsonObject, file: string, ws: string): Mutation {
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

// ── trustedFolders.json: Gemini CLI and its fork Qwen Code ─────────────────

/** Trust levels Gemini CLI (0.61) and Qwen Code (0.15) understand; the first two make a folder trusted. */
const TRUSTING_LEVELS = ['TRUST_FOLDER', 'TRUST_PARENT'];

/** Where one CLI of the Gemini family keeps its `trustedFolders.json` (the child's environment decides). */
export interface TrustedFoldersStore {
  /** The variable that names the file itself. */
  readonly fileVar: string;
  /** The directory holding `trustedFolders.json` when `fileVar` is unset. */
  dir(env: Record<string, string | undefined>, home: string, cwd: string): string;
}

/** Gemini CLI 0.61: `$GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else `<GEMINI_CLI_HOME or home>/.gemini/`. */
export const GEMINI_TRUSTED_FOLDERS: TrustedFoldersStore = {
  fileVar: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH',
  dir: (env, home) => path.join(env.GEMINI_CLI_HOME ? expandHome(env.GEMINI_CLI_HOME, home) : home, '.gemini'),
};

/**
 * Qwen Code 0.15: `$QWEN_CODE_TRUSTED_FOLDERS_PATH`, else `$QWEN_HOME` (the `.qwen` directory
 * itself, `~` expanded, a relative path taken from the CLI's working directory), else `~/.qwen/`.
 */
export const QWEN_TRUSTED_FOLDERS: TrustedFoldersStore = {
  fileVar: 'QWEN_CODE_TRUSTED_FOLDERS_PATH',
  dir: (env, home, cwd) => (env.QWEN_HOME ? path.resolve(cwd, expandHome(env.QWEN_HOME, home)) : path.join(home, '.qwen')),
};

/** The `trustedFolders.json` of `store` for a child with environment `env` started in `cwd`. */
export function trustedFoldersFile(store: TrustedFoldersStore, env: Record<string, string | undefined>, home: string, cwd: string): string {
  const explicit = env[store.fileVar];
  if (explicit) return expandHome(explicit, home);
  return path.join(store.dir(env, home, cwd), 'trustedFolders.json');
}

/**
 * Both keep an OBJECT map `{ "<realpath>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }`.
 * An explicit `DO_NOT_TRUST` for this folder or a parent is the user's decision and is kept (Gemini
 * reads the longest match, so our exact entry would override a distrusted parent); any other
 * existing value under that key (unknown to the CLI, which ignores it) is never overwritten.
 */
export function setFolderTrust(root: JsonObject, file: string, ws: string): Mutation {
  const entry = Object.prototype.hasOwnProperty.call(root, ws) ? root[ws] : undefined;
  const distrustingAncestor = Object.keys(root).find((k) => root[k] === 'DO_NOT_TRUST' && k !== ws && ws.startsWith(k.endsWith(path.sep) ? k : k + path.sep));
  if (entry === undefined && distrustingAncestor !== undefined) {
    return { skip: `${file} marks ${distrustingAncestor} (a parent of ${ws}) as DO_NOT_TRUST; that decision is left as it is — change it there by hand to trust the folder` };
  }
  if (entry === undefined) {
    root[ws] = 'TRUST_FOLDER';
    return 'changed';
  }
  if (typeof entry === 'string' && TRUSTING_LEVELS.includes(entry)) return 'already';
  if (entry === 'DO_NOT_TRUST') return { skip: `${file} marks ${ws} as DO_NOT_TRUST; that decision is left as it is — change it there by hand to trust the folder` };
  return { refuse: `${file}: ${JSON.stringify(ws)} is ${JSON.stringify(entry)}, expected "TRUST_FOLDER", "TRUST_PARENT" or "DO_NOT_TRUST"; fix it by hand` };
}

/**
 * Read → parse → mutate → atomic replace, under the lock, retried when the file changed between
 * our read and our rename. Missing or blank file → created from `{}` with mode 0600.
 */
export function updateJsonFile(file: string, ws: string, opts: PreLaunchTrustOptions, mutate: (root: JsonObject, file: string) => Mutation): TrustResult {
  return editSettingsFile(file, ws, (target) => {
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
      // Never write what we cannot prove: the new text must parse to exactly the mutated value.
      if (!isDeepStrictEqual(JSON.parse(text.replace(/^\uFEFF/, '')), root)) {
        return { status: 'error', file, path: ws, message: `${file}: the edited file would not read back as intended; the file was left untouched — add ${JSON.stringify(ws)} by hand` };
      }
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
