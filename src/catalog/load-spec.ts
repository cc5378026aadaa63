/**
 * Loading a spec file: read (size-capped), decode strict UTF-8, strip a BOM, parse JSON with a
 * line/column on failure, validate with the ReDoS screen. Never throws; every failure is a message.
 */
import { readFileSync, statSync } from 'node:fs';
import { validateSpec, type CliSpecV4 } from '../core/spec/index.js';
import { findJsonErrorOffset, locateOffset } from './json-location.js';
import { createBudgetedScreen } from './redos.js';
import { decodeUtf8Strict } from './utf8.js';

/**
 * Largest spec file accepted. Real specs are 5–30 KB; anything near this size is the
 * wrong file, and refusing it before reading keeps a 50 MB mistake from stalling start-up.
 */
export const MAX_SPEC_BYTES = 5 * 1024 * 1024;

/** Outcome of loading a spec. `warnings` are lint; `errors` explain why it cannot run. */
export type LoadResult =
  | { ok: true; spec: CliSpecV4; warnings: string[]; sourcePath: string }
  | { ok: false; errors: string[]; warnings: string[]; sourcePath: string };

/** Most time one load spends in ReDoS analysis (verdicts are cached, so reloads are fast). */
export const REDOS_BUDGET_MS = 4_000;

const READ_PREFIX = 'Failed to read/parse spec';

function fail(sourcePath: string, message: string): LoadResult {
  return { ok: false, errors: [message], warnings: [], sourcePath };
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
export function loadSpec(path: string): LoadResult {
  const sourcePath = String(path);
  try {
    const stat = statSync(sourcePath);
    if (!stat.isFile()) return fail(sourcePath, `${READ_PREFIX}: not a regular file (${sourcePath}); pass the path of a .json spec`);
    if (stat.size > MAX_SPEC_BYTES) {
      return fail(sourcePath, `${READ_PREFIX}: file is ${stat.size} bytes, over the ${MAX_SPEC_BYTES}-byte limit (${sourcePath}); a spec is a few KB — check the path`);
    }
    const decoded = decodeUtf8Strict(readFileSync(sourcePath));
    if (!decoded.ok) {
      const { offset, line, column, byte } = decoded.fault;
      const shown = byte < 0 ? 'the file ends inside a character' : `byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} begins no valid UTF-8 sequence (an invalid or incomplete one)`;
      return fail(sourcePath, `${READ_PREFIX}: not valid UTF-8 at byte ${offset} (line ${line}, column ${column}): ${shown} (${sourcePath}); save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)`);
    }
    return loadSpecFromText(decoded.text, sourcePath);
  } catch (err) {
    return fail(sourcePath, `${READ_PREFIX}: ${describeError(err)} (${sourcePath}); check the path and its permissions`);
  }
}

/**
 * Parses and validates spec text (a leading UTF-8 BOM is ignored). `sourcePath` only
 * labels messages. Never throws.
 */
export function loadSpecFromText(text: string, sourcePath: string): LoadResult {
  try {
    if (typeof text !== 'string') return fail(sourcePath, `${READ_PREFIX}: expected text (got ${typeof text})`);
    // Characters, not bytes: a close enough bound for text already in memory.
    if (text.length > MAX_SPEC_BYTES) {
      return fail(sourcePath, `${READ_PREFIX}: text is ${text.length} characters, over the ${MAX_SPEC_BYTES} limit (${sourcePath}); a spec is a few KB`);
    }
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch (err) {
      const offset = findJsonErrorOffset(body);
      const { line, column } = locateOffset(body, offset < 0 ? body.length : offset);
      return fail(sourcePath, `${READ_PREFIX}: invalid JSON at line ${line}, column ${column}: ${describeError(err)} (${sourcePath}); fix the syntax (no trailing commas or comments in JSON)`);
    }
    const budget = createBudgetedScreen(REDOS_BUDGET_MS);
    const { errors, warnings } = validateSpec(raw, { screenRegex: budget.screen });
    if (budget.skipped() > 0) {
      warnings.push(`spec: ReDoS screening stopped after ${REDOS_BUDGET_MS} ms; ${budget.skipped()} regexes were not screened (they are checked on the next load)`);
    }
    if (errors.length > 0) return { ok: false, errors, warnings, sourcePath };
    return { ok: true, spec: raw as CliSpecV4, warnings, sourcePath };
  } catch (err) {
    return fail(sourcePath, `${READ_PREFIX}: ${describeError(err)} (${sourcePath})`);
  }
}
