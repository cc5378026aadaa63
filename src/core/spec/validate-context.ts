/**
 * The validator's working state: collected messages, known names, and the small typed
 * field checks every rule uses. Messages follow one format:
 * `<json path>: <what is wrong> (<offending value>)[; <fix>]`.
 */
import { describeCompileError, describeFlagProblem } from './regex-lint.js';
import { formatDidYouMean } from './suggest.js';
import type { SpecIssue, SpecIssueCode } from './issue-codes.js';

/**
 * Errors block loading; warnings are lint the author should read. `issues` holds both, in
 * order, with a stable code and a path each; `errors`/`warnings` are their messages.
 */
export interface ValidationResult {
  errors: string[];
  warnings: string[];
  issues: SpecIssue[];
}

/**
 * A ReDoS screen: classifies how a regex's matching time can grow with input length.
 * `unscreened` says the screen could not tell (syntax it does not know, its time ran out, not
 * screened yet), with the reason: a warning every time the spec loads, an error under strict.
 * `null` says nothing at all (a screen with no opinion).
 */
export type RegexScreen = (
  source: string,
  flags: string,
) => { complexity: 'safe' | 'polynomial' | 'exponential'; attack?: string } | { complexity: 'unscreened'; reason: string } | null;

/** Messages kept per list; a spec broken everywhere still yields a readable report. */
const MAX_MESSAGES = 200;
/** Longest rendering of an offending value inside a message. */
const MAX_VALUE_CHARS = 80;

/** A plain JSON-like object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property presence; prototype keys never count as spec fields. */
export function hasKey(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** `base.key`, or `base["odd key"]` when the key is not identifier-like. */
export function joinPath(base: string, key: string): string {
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return base === '' ? (safe.startsWith('.') ? key : safe) : base + safe;
}

function truncate(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** A short, JSON-looking rendering of any value for a message. Never throws. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function' || typeof value === 'symbol') return typeof value;
  try {
    return truncate(JSON.stringify(value) ?? String(value));
  } catch {
    return Array.isArray(value) ? 'array' : typeof value;
  }
}

/** `got <value>` — used where the value has the wrong type or range. */
export function showGot(value: unknown): string {
  return value === undefined ? 'missing' : `got ${showValue(value)}`;
}

/** Collects messages, knows the spec's names, and offers typed field checks. */
export class ValidationContext {
  readonly #issues: SpecIssue[] = [];
  #errorCount = 0;
  #warningCount = 0;
  #droppedErrors = 0;
  #droppedWarnings = 0;
  /** Inside {@link beyondReference}: errors become warnings unless strict. */
  #tolerating = false;
  /** Declared section ids, or null when `sections` itself is malformed (refs not checked). */
  sectionIds: Set<string> | null = new Set();
  stateIds: string[] = [];
  readonly #screen: RegexScreen | undefined;
  readonly #strict: boolean;

  constructor(screen?: RegexScreen, opts: { strict?: boolean } = {}) {
    this.#screen = typeof screen === 'function' ? screen : undefined;
    this.#strict = opts.strict === true;
  }

  /** Records `<path>: <what>[ (<value>)][; <fix>]` as an error. */
  error(code: SpecIssueCode, path: string, what: string, value?: string, fix?: string): void {
    const lenient = this.#tolerating && !this.#strict;
    this.#record(lenient ? 'warning' : 'error', code, path, withValue(what, value), fix, this.#tolerating);
  }

  /** Records a message as a warning (same format as {@link error}). */
  warn(code: SpecIssueCode, path: string, what: string, value?: string, fix?: string): void {
    this.#record('warning', code, path, withValue(what, value), fix, false);
  }

  /**
   * Runs checks the reference loader does not make (spec-format §8 "Not validated"): what they
   * find is a warning, marked `strictOnly`, unless the context is strict. Only wrap checks whose
   * runtime degrades the way the reference's does (docs/validation.md lists them).
   */
  beyondReference<T>(check: () => T): T {
    const outer = this.#tolerating;
    this.#tolerating = true;
    try {
      return check();
    } finally {
      this.#tolerating = outer;
    }
  }

  #record(severity: 'error' | 'warning', code: SpecIssueCode, path: string, detail: string, fix: string | undefined, strictOnly: boolean): void {
    const isError = severity === 'error';
    if ((isError ? this.#errorCount : this.#warningCount) >= MAX_MESSAGES) {
      if (isError) this.#droppedErrors++;
      else this.#droppedWarnings++;
      return;
    }
    if (isError) this.#errorCount++;
    else this.#warningCount++;
    const shownPath = path === '' ? 'spec' : path;
    const note = strictOnly && !isError ? '; the reference accepts this, so it is a warning (an error under --strict)' : '';
    const issue: SpecIssue = { path: shownPath, code, message: `${shortenPath(shownPath)}: ${detail}${fix ? `; ${fix}` : ''}${note}`, severity };
    if (strictOnly) issue.strictOnly = true;
    this.#issues.push(issue);
  }

  /** The collected issues, with a tally issue when the caps dropped some. */
  finish(): ValidationResult {
    const issues = [...this.#issues];
    if (this.#droppedErrors) issues.push({ path: 'spec', code: 'SPEC_TOO_MANY_ISSUES', severity: 'error', message: `spec: ${this.#droppedErrors} more errors not shown (fix the ones above first)` });
    if (this.#droppedWarnings) issues.push({ path: 'spec', code: 'SPEC_TOO_MANY_ISSUES', severity: 'warning', message: `spec: ${this.#droppedWarnings} more warnings not shown` });
    return splitIssues(issues);
  }

  /** A string field. Missing is an error only when `required`. Returns the string or undefined. */
  string(obj: Record<string, unknown>, key: string, base: string, opt: { required?: boolean; nonEmpty?: boolean; fix?: string } = {}): string | undefined {
    const path = joinPath(base, key);
    const v = obj[key];
    if (!hasKey(obj, key) || v === undefined) {
      if (opt.required) this.error('SPEC_REQUIRED', path, 'is required', 'missing', opt.fix);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.error('SPEC_TYPE', path, 'must be a string', showGot(v), opt.fix);
      return undefined;
    }
    if ((opt.nonEmpty || opt.required) && v.length === 0) {
      this.error(opt.required ? 'SPEC_REQUIRED' : 'SPEC_TYPE', path, 'must be a non-empty string', showGot(v), opt.fix);
      return undefined;
    }
    return v;
  }

  /** An optional boolean field. */
  boolean(obj: Record<string, unknown>, key: string, base: string): boolean | undefined {
    if (!hasKey(obj, key)) return undefined;
    const v = obj[key];
    if (typeof v !== 'boolean') {
      this.error('SPEC_TYPE', joinPath(base, key), 'must be true or false', showGot(v));
      return undefined;
    }
    return v;
  }

  /**
   * A number field: finite, and by default ≥ 0 (`min: null` allows negatives).
   * `integer` demands a whole number (line and group counts).
   */
  number(
    obj: Record<string, unknown>,
    key: string,
    base: string,
    opt: { required?: boolean; min?: number | null; exclusiveMin?: boolean; integer?: boolean; fix?: string } = {},
  ): number | undefined {
    const path = joinPath(base, key);
    if (!hasKey(obj, key) || obj[key] === undefined) {
      if (opt.required) this.error('SPEC_REQUIRED', path, 'is required', 'missing', opt.fix);
      return undefined;
    }
    const v = obj[key];
    const min = opt.min === undefined ? 0 : opt.min;
    const kind = opt.integer ? 'a whole number' : 'a number';
    const range = min === null ? '' : opt.exclusiveMin ? ` > ${min}` : ` ≥ ${min}`;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.error(typeof v === 'number' ? 'SPEC_RANGE' : 'SPEC_TYPE', path, `must be ${kind}${range}`, showGot(v), opt.fix);
      return undefined;
    }
    if (opt.integer && !Number.isInteger(v)) {
      this.error('SPEC_RANGE', path, `must be ${kind}${range}`, showGot(v), opt.fix);
      return undefined;
    }
    if (min !== null && (opt.exclusiveMin ? v <= min : v < min)) {
      this.error('SPEC_RANGE', path, `must be ${kind}${range}`, showGot(v), opt.fix);
      return undefined;
    }
    return v;
  }

  /**
   * A {@link number} field whose range the reference does not check: a number out of range is
   * reported through {@link beyondReference} (the runtime treats it as the reference does, e.g.
   * a negative wait is already over); a value that is not a number is reported as usual, because
   * the reference would coerce it in arithmetic ("800" as a hold waits 800 ms) and specterm does not.
   */
  numberRangeBeyondReference(obj: Record<string, unknown>, key: string, base: string, opt: { required?: boolean; integer?: boolean; fix?: string } = {}): number | undefined {
    if (typeof obj[key] === 'number') return this.beyondReference(() => this.number(obj, key, base, opt));
    return this.number(obj, key, base, opt);
  }

  /** An optional array of strings. Returns the array when every item is a string. */
  stringArray(obj: Record<string, unknown>, key: string, base: string): string[] | undefined {
    if (!hasKey(obj, key)) return undefined;
    const path = joinPath(base, key);
    const v = obj[key];
    if (!Array.isArray(v)) {
      this.error('SPEC_TYPE', path, 'must be an array of strings', showGot(v));
      return undefined;
    }
    let ok = true;
    v.forEach((item, i) => {
      if (typeof item !== 'string') {
        this.error('SPEC_TYPE', `${path}[${i}]`, 'must be a string', showGot(item));
        ok = false;
      }
    });
    return ok ? (v as string[]) : undefined;
  }

  /** Optional regex flags at `obj[key]`: a string of distinct flags from `dgimsuyv`. */
  flags(obj: Record<string, unknown>, key: string, base: string): string | undefined | false {
    if (!hasKey(obj, key)) return undefined;
    const path = joinPath(base, key);
    const v = obj[key];
    if (typeof v !== 'string') {
      this.error('SPEC_TYPE', path, 'must be a string of regex flags', showGot(v), 'use letters from "dgimsuyv"');
      return false;
    }
    const problem = describeFlagProblem(v);
    if (problem) {
      this.error('SPEC_BAD_FLAGS', path, problem, showValue(v), 'use each of d, g, i, m, s, u, v, y at most once (not u with v)');
      return false;
    }
    return v;
  }

  /**
   * Compiles a regex the way the engine will and passes it to the ReDoS screen.
   * Returns true when it compiles. `wording` precedes the compiler message
   * (the reference says "invalid regex" for guards, "does not compile" for startup_dismiss).
   */
  regex(path: string, source: string, flags: string, wording = 'invalid regex'): boolean {
    const problem = describeCompileError(source, flags);
    if (problem !== null) {
      this.error('SPEC_BAD_REGEX', path, `${wording}: ${problem}`, showValue(source), 'fix the pattern (JSON strings need "\\\\" for one regex backslash)');
      return false;
    }
    this.#screenRegex(path, source, flags);
    return true;
  }

  #screenRegex(path: string, source: string, flags: string): void {
    if (!this.#screen) return;
    let verdict: ReturnType<RegexScreen>;
    try {
      verdict = this.#screen(source, flags);
    } catch {
      // A screen that fails says nothing about the pattern; the validator must not crash.
      return;
    }
    if (!verdict || typeof verdict !== 'object') return;
    if (verdict.complexity === 'unscreened') {
      // Not a fault of the pattern as far as anyone knows: the reference never screens, so only
      // strict refuses it — a spec that must be proven safe cannot carry an unproven regex.
      this.#record(this.#strict ? 'error' : 'warning', 'SPEC_REDOS_UNSCREENED', path, withValue(`regex was not screened for ReDoS: ${verdict.reason}`, showValue(source)), 'run `specterm validate` on the spec to screen it; a regex the screen cannot read (such as one with the "v" flag) stays unscreened, so rewrite it without that syntax', true);
      return;
    }
    const attack = typeof verdict.attack === 'string' ? `; attack string: ${truncate(verdict.attack)}` : '';
    if (verdict.complexity === 'exponential') {
      // Always an error, even where the reference accepts the field: the reference would freeze
      // on such a screen, and specterm's runtime must not.
      this.#record('error', 'SPEC_REDOS', path, withValue(`regex can take exponential time on some screens (ReDoS)${attack}`, showValue(source)), 'remove nested or overlapping quantifiers such as (a+)+ or (a|a)*', false);
    } else if (verdict.complexity === 'polynomial') {
      this.warn('SPEC_REDOS_POLYNOMIAL', path, `regex can take polynomial time on long screens (ReDoS)${attack}`, showValue(source), 'avoid adjacent quantifiers that can match the same text, e.g. \\s*(.+?)\\s*');
    }
  }

  /** A section reference: must name a declared section. */
  sectionRef(obj: Record<string, unknown>, key: string, base: string): void {
    const id = this.string(obj, key, base, { nonEmpty: true });
    if (id === undefined || this.sectionIds === null || this.sectionIds.has(id)) return;
    const known = [...this.sectionIds];
    this.error('SPEC_UNKNOWN_SECTION', joinPath(base, key), `unknown section "${id}"`, `known: ${known.length ? known.join(', ') : 'none declared'}`, didYouMeanOr(id, known, `declare it under "sections" or remove "${key}"`));
  }

  /** A state reference: must name a declared state. Returns the id when it is known. */
  stateRef(value: unknown, path: string, opt: { required?: boolean } = {}): string | undefined {
    if (value === undefined) {
      if (opt.required) this.error('SPEC_REQUIRED', path, 'is required', 'missing', 'name a state id');
      return undefined;
    }
    if (typeof value !== 'string' || value.length === 0) {
      this.error('SPEC_TYPE', path, 'must be a state id', showGot(value));
      return undefined;
    }
    if (!this.stateIds.includes(value)) {
      this.error('SPEC_UNKNOWN_STATE', path, `unknown state "${value}"`, `known: ${this.stateIds.join(', ') || 'none'}`, didYouMeanOr(value, this.stateIds, 'use one of the declared state ids'));
      return undefined;
    }
    return value;
  }

  /** Warns about keys outside `allowed` (documentation keys `_*` are always fine). */
  unknownKeys(obj: Record<string, unknown>, base: string, allowed: readonly string[], what: string): void {
    for (const key of Object.keys(obj)) {
      if (key.startsWith('_') || allowed.includes(key)) continue;
      const hint = formatDidYouMean(key, allowed).replace(/^; /, '');
      this.warn('SPEC_UNKNOWN_FIELD', joinPath(base, key), `unknown field in ${what}; it is ignored`, undefined, hint || `known fields: ${allowed.join(', ')}`);
    }
  }
}

function withValue(what: string, value: string | undefined): string {
  return value === undefined ? what : `${what} (${value})`;
}

/** Splits issues into the `errors` / `warnings` message lists callers read. */
export function splitIssues(issues: SpecIssue[]): ValidationResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const issue of issues) (issue.severity === 'error' ? errors : warnings).push(issue.message);
  return { errors, warnings, issues };
}

/** Paths longer than this (deep guards) are shortened in the middle of a message. */
const MAX_PATH_CHARS = 160;

function shortenPath(path: string): string {
  return path.length > MAX_PATH_CHARS ? `${path.slice(0, 70)}…${path.slice(-70)}` : path;
}

/** `did you mean "x"?` when a close name exists, else the fallback fix. */
export function didYouMeanOr(input: string, candidates: Iterable<string>, fallback: string): string {
  const hint = formatDidYouMean(input, candidates);
  return hint ? hint.slice(2) : fallback;
}
