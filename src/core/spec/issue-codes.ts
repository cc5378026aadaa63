/**
 * Stable codes of spec issues (validator and loader). Programs (the daemon's API, editors,
 * `specterm validate --json`) branch on the code; people read the message. A code never
 * changes meaning once published; docs/validation.md lists each with its fix.
 */

/** Every code, with the one-line meaning docs/validation.md expands on. */
export const SPEC_ISSUE_CODES = {
  // Loader (src/catalog/load-spec.ts): the file before it is a spec.
  SPEC_READ_FAILED: 'the file could not be read (missing, unreadable, not a regular file)',
  SPEC_TOO_LARGE: 'the file or text is over the 5 MB cap',
  SPEC_NOT_UTF8: 'the file holds bytes that are not UTF-8',
  SPEC_JSON_SYNTAX: 'the text is not valid JSON',
  SPEC_NOT_TEXT: 'loadSpecFromText was given something other than a string',
  SPEC_UNKNOWN_REF: 'a spec reference names neither a file nor a built-in spec',
  SPEC_REDOS_BUDGET: 'no longer raised: each regex that was not screened is SPEC_REDOS_UNSCREENED at its own path',
  SPEC_INTERNAL: 'the input could not be validated at all (exotic objects, a validator defect)',
  // Validator (src/core/spec/validate*.ts): errors.
  SPEC_SCHEMA_MISMATCH: '"$schema" is not "adhdev:cli/spec@4"',
  SPEC_REQUIRED: 'a required field is missing or empty',
  SPEC_TYPE: 'a field has the wrong JSON type',
  SPEC_RANGE: 'a number is out of range, not finite, or not whole where a count is expected',
  SPEC_ENUM: 'a field is not one of its allowed values',
  SPEC_BAD_FLAGS: 'a regex flags string is invalid',
  SPEC_BAD_REGEX: 'a regex does not compile',
  SPEC_REDOS: 'a regex can take exponential time (catastrophic backtracking)',
  SPEC_UNKNOWN_STATE: 'a reference names no declared state',
  SPEC_UNKNOWN_SECTION: 'a reference names no declared section',
  SPEC_DUPLICATE_ID: 'two entries share an id',
  SPEC_RESERVED_ID: 'a state is called "*"',
  SPEC_INITIAL_STATE: 'not exactly one state has initial: true',
  SPEC_FIELD_CONFLICT: 'fields that exclude or require each other are combined wrongly',
  SPEC_BAD_CONDITION: 'a guard is not a recognized condition',
  SPEC_TOO_DEEP: 'a guard nests deeper than 64 levels',
  SPEC_CAPTURE_GROUPS: 'a pattern lacks the capture groups its rule reads (a button mode, a count_group)',
  SPEC_BAD_TEMPLATE: 'a keys template lacks its placeholder',
  SPEC_BAD_SIZE: 'a section size is neither a line count nor a percentage',
  SPEC_BAD_ID: 'an id does not have the required form',
  SPEC_PATTERN_TOO_LONG: 'a signal rule pattern is over 200 characters',
  SPEC_BAD_OSC: 'an osc condition names no valid OSC number (a whole number 0–65535)',
  SPEC_TOO_MANY_ISSUES: 'more issues than are listed (the tally line)',
  // Validator: warnings (lint).
  SPEC_UNKNOWN_FIELD: 'a field nothing reads (likely a typo)',
  SPEC_IGNORED_FIELD: 'a field that is known but has no effect where it is',
  SPEC_MIXED_CONDITION: 'a condition mixes keys of several kinds',
  SPEC_ANCHOR_LINT: 'a ^ or $ without the "m" flag binds to the whole screen',
  SPEC_REDOS_POLYNOMIAL: 'a regex can take polynomial time on long screens',
  SPEC_REDOS_UNSCREENED: 'a regex was not screened for ReDoS (not yet, or the screen cannot read it); an error under --strict',
  SPEC_NO_EFFECT: 'a rule that can never do anything (never matches, always empty, same keys)',
  SPEC_STATEFUL_FLAGS: '"g"/"y" in anchor_flags make each test depend on the previous one',
  SPEC_MODAL_NO_BUTTONS: 'a modal state has no button rule',
  SPEC_DEEP_GUARD: 'a guard nests deeper than 8 levels',
  SPEC_UNREACHABLE_STATE: 'a state cannot be reached from the initial state',
  SPEC_KIND_MISMATCH: 'an approval modal reads as a startup gate (trust, bypass permissions): declare it confirm',
  SPEC_WILDCARD_FROM: 'a "*" transition also leaves its own destination',
} as const;

/** A stable issue code, e.g. `SPEC_UNKNOWN_STATE`. */
export type SpecIssueCode = keyof typeof SPEC_ISSUE_CODES;

/** One problem found in a spec. */
export interface SpecIssue {
  /** JSON path of the offending value (`transitions[2].to`); `spec` for the whole document. */
  path: string;
  code: SpecIssueCode;
  /** The human line, exactly as listed in `errors` / `warnings`. */
  message: string;
  severity: 'error' | 'warning';
  /**
   * Set on a check the reference loader does not make: a warning when loading (the runtime
   * degrades as the reference does), an error under strict validation.
   */
  strictOnly?: true;
  /** Where in the file, for issues found before parsing (UTF-8, JSON syntax); 1-based. */
  line?: number;
  column?: number;
}
