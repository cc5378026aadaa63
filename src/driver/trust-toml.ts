/**
 * Pre-launch trust for TOML settings files (Codex's `config.toml`, Grok's): the file is parsed
 * with a real TOML parser, so the project is found in whatever form the user declared it
 * (`[ projects."/ws" ]`, a dotted key, an inline table), and the user's explicit "not trusted"
 * is kept. The edit is minimal — a table appended at the end, or the missing key lines inserted
 * under the project's own `[header]` — and is written only when the edited text parses to
 * exactly the old document plus those keys; otherwise the file is left untouched and the
 * result says what to add by hand.
 *
 * @module
 */
import { parse, TomlError, type TomlTable } from 'smol-toml';
import { commitAtomically, editSettingsFile, MAX_COMMIT_ATTEMPTS, readTextOrNull, type TrustResult } from './trust-files.js';

/** What one TOML scheme stores for a trusted folder. */
export interface TomlTrustScheme {
  /** Top-level table holding one sub-table per folder (`projects`, `folders`). */
  table: string;
  /** The key whose value decides (`trust_level`, `trusted`). */
  decidingKey: string;
  /** Key → TOML value text to store, deciding key first. */
  entries: ReadonlyArray<readonly [key: string, tomlValue: string]>;
  /** Judges an existing value of the deciding key. */
  judge(value: unknown): 'trusted' | 'untrusted' | 'unknown';
}

/** Codex: `[projects."<ws>"] trust_level = "trusted"`; `"untrusted"` is the user's "no". */
export const CODEX_TRUST: TomlTrustScheme = {
  table: 'projects',
  decidingKey: 'trust_level',
  entries: [['trust_level', '"trusted"']],
  judge: (v) => (v === 'trusted' ? 'trusted' : v === 'untrusted' ? 'untrusted' : 'unknown'),
};

/** Grok: `[folders."<ws>"] trusted = true, decided_at = <datetime>`; `trusted = false` is the user's "no". */
export function grokTrust(decidedAt: Date): TomlTrustScheme {
  return {
    table: 'folders',
    decidingKey: 'trusted',
    entries: [['trusted', 'true'], ['decided_at', decidedAt.toISOString()]],
    judge: (v) => (v === true ? 'trusted' : v === false ? 'untrusted' : 'unknown'),
  };
}

/** A TOML basic string: `"` and `\` escaped, control characters as `\uXXXX`. */
export function tomlBasicString(value: string): string {
  return '"' + value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\' || c === '"') return '\\' + c;
    return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  }) + '"';
}

/** Records `ws` as trusted in the TOML file `file` under `scheme`. Never throws for file content. */
export function updateTomlFile(file: string, ws: string, scheme: TomlTrustScheme, beforeCommit?: (file: string) => void): TrustResult {
  return editSettingsFile(file, ws, (target) => {
    for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
      const before = readTextOrNull(target);
      const planned = planTomlEdit(before ?? '', file, ws, scheme);
      if ('status' in planned) return planned;
      if (commitAtomically(target, planned.text, before, beforeCommit)) return { status: 'added', file, path: ws };
    }
    return { status: 'error', file, path: ws, message: `${file} kept changing while we tried to update it (${MAX_COMMIT_ATTEMPTS} attempts); left as the other writer made it — start again once the CLI is closed` };
  });
}

/** Parse → decide → edit → prove. Returns the new text, or the result that ends the attempt. */
function planTomlEdit(original: string, file: string, ws: string, scheme: TomlTrustScheme): TrustResult | { text: string } {
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = original.slice(bom.length);
  const untouched = (why: string): TrustResult => ({ status: 'error', file, path: ws, message: `${file}: ${why}; the file was left untouched — ${handFix(scheme, ws)}` });
  const doc = tryParse(body);
  if (doc instanceof TomlError) return untouched(`not valid TOML (${describeTomlError(doc)})`);

  const table = doc[scheme.table];
  if (table !== undefined && !isTable(table)) return untouched(`"${scheme.table}" is ${describeToml(table)}, expected a table`);
  const entry = table?.[ws];
  if (entry !== undefined && !isTable(entry)) return untouched(`${scheme.table}.${tomlBasicString(ws)} is ${describeToml(entry)}, expected a table`);
  const current = entry?.[scheme.decidingKey];
  if (current !== undefined) {
    const verdict = scheme.judge(current);
    if (verdict === 'trusted') return { status: 'already', file, path: ws };
    if (verdict === 'untrusted') return { status: 'skipped', file, path: ws, message: `${file} marks ${ws} as not trusted (${scheme.decidingKey} = ${formatTomlValue(current)}); that decision is left as it is — change it there by hand to trust the folder` };
    return untouched(`${scheme.decidingKey} of ${ws} is ${formatTomlValue(current)}, a value specterm does not know`);
  }

  const missing = scheme.entries.filter(([key]) => entry?.[key] === undefined);
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const keyLines = missing.map(([key, value]) => `${key} = ${value}`);
  const edited = entry === undefined ? appendTable(body, eol, `[${scheme.table}.${tomlBasicString(ws)}]`, keyLines) : insertUnderHeader(body, eol, scheme.table, ws, keyLines);
  if (edited === null || !meansOldPlusKeys(edited, body, scheme.table, ws, keyLines)) {
    return untouched(`${ws} is declared in a form specterm cannot extend safely`);
  }
  return { text: bom + edited };
}

function appendTable(body: string, eol: string, header: string, keyLines: string[]): string {
  const block = [header, ...keyLines].join(eol) + eol;
  if (body.length === 0) return block;
  // A file without a final newline gets one first; otherwise a blank line separates the tables.
  return body + eol + block;
}

/**
 * Inserts `keyLines` right after the project's own `[table."<ws>"]` header line, found by
 * parsing each header-looking line on its own (so spacing and quoting styles all match).
 * Null when no such header exists (the entry is a dotted key or an inline table).
 */
function insertUnderHeader(body: string, eol: string, table: string, ws: string, keyLines: string[]): string | null {
  // Line i spans [start, end); its newline (if any) follows. Offsets keep every other byte as is.
  const lineRe = /[^\r\n]*(\r?\n|$)/g;
  for (let m = lineRe.exec(body); m !== null && m[0] !== ''; m = lineRe.exec(body)) {
    const newline = m[1]!;
    const line = m[0].slice(0, m[0].length - newline.length);
    if (!/^\s*\[(?!\[)/.test(line) || !isHeaderOf(line, table, ws)) continue;
    const end = m.index + m[0].length;
    const insert = keyLines.map((l) => l + eol).join('');
    return newline ? body.slice(0, end) + insert + body.slice(end) : body + eol + insert;
  }
  return null;
}

/** Whether `line`, parsed on its own, is exactly the header `[table."<ws>"]` (any spacing, quoting, comment). */
function isHeaderOf(line: string, table: string, ws: string): boolean {
  const header = tryParse(line);
  if (header instanceof TomlError) return false;
  const sub = header[table];
  return Object.keys(header).length === 1 && isTable(sub) && Object.keys(sub).length === 1 && isTable(sub[ws]) && Object.keys(sub[ws]).length === 0;
}

/** The proof: `edited` parses, and to exactly what `original` parses to plus the new keys. */
function meansOldPlusKeys(edited: string, original: string, table: string, ws: string, keyLines: string[]): boolean {
  const after = tryParse(edited);
  if (after instanceof TomlError) return false;
  const expected = tryParse(original);
  const added = tryParse(keyLines.join('\n'));
  if (expected instanceof TomlError || added instanceof TomlError) return false;
  const tableValue = (expected[table] ??= {}) as TomlTable;
  const entry = (tableValue[ws] ??= {}) as TomlTable;
  Object.assign(entry, added);
  return sameTomlValue(after, expected);
}

/** Deep equality of parsed TOML, dates compared by their TOML text (local dates keep their kind). */
function sameTomlValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.constructor === b.constructor && a.toISOString() === b.toISOString();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameTomlValue(v, b[i]));
  }
  if (isTable(a) && isTable(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameTomlValue(a[k], b[k]));
  }
  return Object.is(a, b);
}

function tryParse(text: string): TomlTable | TomlError {
  try {
    return parse(text, { integersAsBigInt: 'asNeeded' });
  } catch (err) {
    if (err instanceof TomlError) return err;
    // The parser's own limits (nesting depth) count as "cannot understand", never as a crash.
    return new TomlError(err instanceof Error ? err.message : String(err), { toml: text, ptr: 0, cause: err });
  }
}

function describeTomlError(err: TomlError): string {
  const first = err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
  return err.line ? `${first} at line ${err.line}, column ${err.column}` : first;
}

function isTable(v: unknown): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function describeToml(v: unknown): string {
  return Array.isArray(v) ? 'an array' : v instanceof Date ? 'a date' : `a ${typeof v}`;
}

function formatTomlValue(v: unknown): string {
  return typeof v === 'string' ? tomlBasicString(v) : v instanceof Date ? v.toISOString() : String(v);
}

function handFix(scheme: TomlTrustScheme, ws: string): string {
  const [key, value] = scheme.entries[0]!;
  return `to trust the folder, add ${key} = ${value} for ${scheme.table}.${tomlBasicString(ws)} by hand, or pass --no-trust`;
}
