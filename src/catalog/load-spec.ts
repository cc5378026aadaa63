/**
 * Loading a spec file: read (size-capped), decode strict UTF-8, strip a BOM, parse JSON with a
 * line/column on failure, validate with the ReDoS screen. Never throws; every failure is an
 * issue with a stable code. Load and hot reload go through here alike (issue 12, item 2).
 */
import { readFileSync, statSync } from 'node:fs';
import { splitIssues, validateSpec, type CliSpecV4, type SpecIssue, type SpecIssueCode } from '../core/spec/index.js';
import { findJsonFault, locateOffset } from './json-location.js';
import { createBlockingScreen, createCachedScreen, type ScreenListener } from './redos.js';
import { decodeUtf8Strict } from './utf8.js';

/**
 * Largest spec file accepted. Real specs are 5–30 KB; anything near this size is the
 * wrong file, and refusing it before reading keeps a 50 MB mistake from stalling start-up.
 */
export const MAX_SPEC_BYTES = 5 * 1024 * 1024;

/**
 * Outcome of loading a spec. `warnings` are lint; `errors` explain why it cannot run; `issues`
 * holds both with a stable code and JSON path each (`errors`/`warnings` are their messages).
 */
export type LoadResult =
  | { ok: true; spec: CliSpecV4; warnings: string[]; issues: SpecIssue[]; sourcePath: string }
  | { ok: false; errors: string[]; warnings: string[]; issues: SpecIssue[]; sourcePath: string };

/** Options of {@link loadSpec} / {@link loadSpecFromText}. */
export interface LoadSpecOptions {
  /**
   * Treat the checks the reference loader does not make (bad section definitions, …) as errors
   * rather than warnings: `specterm validate --strict`. Running sessions load leniently.
   */
  strict?: boolean;
  /**
   * How regexes are screened for ReDoS: `analyse` (default) screens a pattern with no known
   * verdict, blocking, and keeps the verdict; `cached` never blocks and reports such a pattern
   * as unscreened (a daemon screens them with `screenRegexesInBackground` first).
   */
  redos?: 'analyse' | 'cached';
  /** Told of each pattern `analyse` screens (one with no known verdict): e.g. to say why a load takes time. */
  onAnalyse?: ScreenListener;
}

const READ_PREFIX = 'Failed to read/parse spec';

function fail(sourcePath: string, code: SpecIssueCode, message: string, at?: { line: number; column: number }): LoadResult {
  const issue: SpecIssue = { path: 'spec', code, message, severity: 'error', ...at };
  return { ok: false, errors: [message], warnings: [], issues: [issue], sourcePath };
}

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Reads, parses and validates the spec at `path`. Never throws.
 *
 * @example
 * const r = loadSpec('specs/claude/spec.json');
 * if (!r.ok) console.error(r.errors.join('\n'));
 */
export function loadSpec(path: string, opts: LoadSpecOptions = {}): LoadResult {
  const sourcePath = String(path);
  try {
    const stat = statSync(sourcePath);
    if (!stat.isFile()) return fail(sourcePath, 'SPEC_READ_FAILED', `${READ_PREFIX}: not a regular file (${sourcePath}); pass the path of a .json spec`);
    if (stat.size > MAX_SPEC_BYTES) {
      return fail(sourcePath, 'SPEC_TOO_LARGE', `${READ_PREFIX}: file is ${stat.size} bytes, over the ${MAX_SPEC_BYTES}-byte limit (${sourcePath}); a spec is a few KB — check the path`);
    }
    const decoded = decodeUtf8Strict(readFileSync(sourcePath));
    if (!decoded.ok) {
      const { offset, line, column, byte } = decoded.fault;
      const shown = byte < 0 ? 'the file ends inside a character' : `byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} begins no valid UTF-8 sequence (an invalid or incomplete one)`;
      return fail(
        sourcePath,
        'SPEC_NOT_UTF8',
        `${READ_PREFIX}: not valid UTF-8 at byte ${offset} (line ${line}, column ${column}): ${shown} (${sourcePath}); save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)`,
        { line, column },
      );
    }
    return loadSpecFromText(decoded.text, sourcePath, opts);
  } catch (err) {
    return fail(sourcePath, 'SPEC_READ_FAILED', `${READ_PREFIX}: ${describeError(err)} (${sourcePath}); check the path and its permissions`);
  }
}

/**
 * Parses and validates spec text (a leading UTF-8 BOM is ignored). `sourcePath` only
 * labels messages. Never throws.
 */
export function loadSpecFromText(text: string, sourcePath: string, opts: LoadSpecOptions = {}): LoadResult {
  try {
    if (typeof text !== 'string') return fail(sourcePath, 'SPEC_NOT_TEXT', `${READ_PREFIX}: expected text (got ${typeof text})`);
    // The same cap as for a file, in UTF-8 bytes (the character count is a cheap first bound:
    // a text never has fewer bytes than characters).
    const bytes = text.length > MAX_SPEC_BYTES ? text.length : Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_SPEC_BYTES) {
      return fail(sourcePath, 'SPEC_TOO_LARGE', `${READ_PREFIX}: text is ${text.length > MAX_SPEC_BYTES ? `${text.length} characters` : `${bytes} bytes`}, over the ${MAX_SPEC_BYTES}-byte limit (${sourcePath}); a spec is a few KB`);
    }
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      // JSON.parse's message quotes the text around the fault; a spec path may name a file the
      // caller cannot read (/etc/passwd, a token), so the scanner's own words stand in for it.
      const fault = findJsonFault(body) ?? { offset: body.length, expected: 'not valid JSON' };
      const at = locateOffset(body, fault.offset);
      return fail(
        sourcePath,
        'SPEC_JSON_SYNTAX',
        `${READ_PREFIX}: invalid JSON at line ${at.line}, column ${at.column}: ${fault.expected} (${sourcePath}); fix the syntax (no comments in JSON)`,
        at,
      );
    }
    const screenRegex = opts.redos === 'cached' ? createCachedScreen() : createBlockingScreen({ onAnalyse: opts.onAnalyse });
    const { issues } = validateSpec(raw, { screenRegex, strict: opts.strict === true });
    const { errors, warnings } = splitIssues(issues);
    if (errors.length > 0) return { ok: false, errors, warnings, issues, sourcePath };
    return { ok: true, spec: raw as CliSpecV4, warnings, issues, sourcePath };
  } catch (err) {
    return fail(sourcePath, 'SPEC_INTERNAL', `${READ_PREFIX}: ${describeError(err)} (${sourcePath})`);
  }
}
