/**
 * Screening a spec's regexes before it loads, off the event loop: a daemon awaits
 * {@link prescreenSpecRef} (recheck's agent process does the work, the loop keeps serving), then
 * loads with `redos: 'cached'`, which only reads verdicts. What could not be screened is reported
 * as unscreened by that load, as anywhere else.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { validateSpec } from '../core/spec/index.js';
import { resolveSpecRef } from './builtin.js';
import { MAX_SPEC_BYTES } from './load-spec.js';
import { screenRegexesInBackground } from './redos.js';

/** A regex as the engine compiles it. */
export interface ScreenedPattern {
  source: string;
  flags: string;
}

/** Every regex a load of `raw` screens, found by the validator's own walk (so none is missed). */
export function specPatterns(raw: unknown): ScreenedPattern[] {
  const seen: ScreenedPattern[] = [];
  try {
    validateSpec(raw, { screenRegex: (source, flags) => { seen.push({ source, flags }); return null; } });
  } catch {
    // A spec the validator cannot walk has nothing to screen; its load says what is wrong.
  }
  return seen;
}

/** Screens the regexes of spec text that have no verdict yet; resolves to how many were analysed. */
export async function prescreenSpecText(text: string): Promise<number> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return 0;
  }
  return screenRegexesInBackground(specPatterns(raw));
}

/** {@link prescreenSpecText} for a built-in id or a path; a file that cannot be read screens nothing. */
export async function prescreenSpecRef(ref: string): Promise<number> {
  const resolved = resolveSpecRef(ref);
  if (!resolved.ok) return 0;
  try {
    if (statSync(resolved.path).size > MAX_SPEC_BYTES) return 0;
    return await prescreenSpecText(readFileSync(resolved.path, 'utf8'));
  } catch {
    return 0;
  }
}
