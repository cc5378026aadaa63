/**
 * `validateSpec`: the only place that looks at untrusted spec JSON. Runs the rules of
 * spec-format §8 in order, then what the reference leaves unchecked (types, sections,
 * controls, notifications, signal rules, graph lints). Pure and total: it never throws.
 */
import { lintModalKinds } from './validate-kinds.js';
import { validateCliVersion } from './validate-version.js';
import { SPEC_SCHEMA_ID } from './types.js';
import { collectSectionIds, validateSections } from './validate-sections.js';
import { validateInteractivePrompts, validatePreLaunchTrust, validateRefocus, validateStartupDismiss } from './validate-launch.js';
import { lintGraph, validateStateExtracts, validateStates, validateTransitions } from './validate-states.js';
import { validateControlBar, validateSignalRules, validateStateRules } from './validate-extras.js';
import { validateNativeHistory } from './validate-history.js';
import { validateBackgroundWork } from './validate-background.js';
import { hasKey, isRecord, joinPath, splitIssues, showGot, showValue, ValidationContext, type RegexScreen, type ValidationResult } from './validate-context.js';

export type { RegexScreen, ValidationResult } from './validate-context.js';

/** Every top-level field of spec-format §1 (documentation keys `_*` are always allowed). */
export const TOP_LEVEL_FIELDS = [
  '$schema', 'id', 'name', 'binary', 'spawn_args', 'env', 'cli_version_range', 'cli_version', 'install', 'send_on_spawn',
  'send_on_spawn_delay_ms', 'send_on_spawn_max_wait_ms', 'refocus_when_stalled_ms', 'pre_launch_trust',
  'startup_dismiss', 'interactive_prompts', 'send_message', 'sections', 'states', 'transitions',
  'control_bar', 'signal_rules', 'background_work', 'notifications', 'delegate', 'native_history',
  'requiresFinalAssistantBeforeIdle', 'holdCompletionForTranscript',
] as const;

const SEND_MESSAGE_FIELDS = ['submit_key', 'delay_ms_before_submit', 'delay_ms_per_char', 'posix_bracketed_paste_for_images', 'mid_generation_queue'];

/** Options for {@link validateSpec}. */
export interface ValidateOptions {
  /** ReDoS screen for every regex in the spec: exponential → error, polynomial → warning. */
  screenRegex?: RegexScreen;
  /**
   * Report the checks the reference loader does not make as errors (`specterm validate
   * --strict`); by default they are warnings, marked `strictOnly`, so every spec the reference
   * accepts loads (docs/validation.md, "Reference compatibility").
   */
  strict?: boolean;
}

/**
 * Validates a parsed spec. Messages read `<json path>: <what is wrong> (<value>)[; <fix>]`;
 * `issues` gives each with its stable code and path. A spec is usable iff `errors` is empty;
 * `warnings` are lint.
 *
 * @example
 * validateSpec({ $schema: 'adhdev:cli/spec@3' }).errors
 * // ['$schema: must be "adhdev:cli/spec@4" (got "adhdev:cli/spec@3"); …']
 */
export function validateSpec(raw: unknown, opts: ValidateOptions = {}): ValidationResult {
  try {
    return runRules(raw, opts);
  } catch (err) {
    // Last resort for exotic inputs (throwing getters, proxies): report, never throw.
    const msg = err instanceof Error ? err.message : String(err);
    return splitIssues([{ path: 'spec', code: 'SPEC_INTERNAL', severity: 'error', message: `spec: could not be validated (${msg}); pass plain JSON data` }]);
  }
}

function runRules(raw: unknown, opts: ValidateOptions): ValidationResult {
  const ctx = new ValidationContext(opts?.screenRegex, { strict: opts?.strict === true });
  if (!isRecord(raw)) {
    ctx.error('SPEC_TYPE', 'spec', `must be a JSON object with "$schema": "${SPEC_SCHEMA_ID}"`, showGot(raw));
    return ctx.finish();
  }
  // Rule 1: a wrong schema is the only thing worth saying (the rest is another format).
  if (raw.$schema !== SPEC_SCHEMA_ID) {
    ctx.error('SPEC_SCHEMA_MISMATCH', '$schema', `must be "${SPEC_SCHEMA_ID}"`, showGot(raw.$schema), `set "$schema": "${SPEC_SCHEMA_ID}"`);
    return ctx.finish();
  }
  // Rule 2.
  ctx.string(raw, 'id', '', { required: true, fix: 'give the provider id, e.g. "claude-cli"' });
  ctx.string(raw, 'binary', '', { required: true, fix: 'give the command to launch, e.g. "claude"' });
  validateSendMessage(ctx, raw.send_message);
  validateTopLevelTypes(ctx, raw);
  // Rules 3–6.
  validatePreLaunchTrust(ctx, raw.pre_launch_trust);
  validateInteractivePrompts(ctx, raw.interactive_prompts);
  validateStartupDismiss(ctx, raw.startup_dismiss);
  validateRefocus(ctx, raw);
  // Rule 7: without both lists nothing below can be checked.
  const states = raw.states;
  if (!Array.isArray(states) || states.length === 0) {
    ctx.error('SPEC_REQUIRED', 'states', 'must be a non-empty array', showGot(states), 'declare at least one state {id, label, initial: true}');
    return ctx.finish();
  }
  const transitions = raw.transitions;
  if (!Array.isArray(transitions)) {
    ctx.error('SPEC_TYPE', 'transitions', 'must be an array', showGot(transitions), 'use [] for a machine without transitions');
    return ctx.finish();
  }
  collectSectionIds(ctx, raw.sections);
  validateStates(ctx, states); // rules 8–9
  validateTransitions(ctx, transitions); // rule 10
  validateStateExtracts(ctx, states); // rule 11
  // Beyond the reference.
  validateSections(ctx, raw.sections);
  validateControlBar(ctx, raw.control_bar);
  validateStateRules(ctx, raw.notifications, raw.delegate);
  validateSignalRules(ctx, raw.signal_rules);
  validateBackgroundWork(ctx, raw.background_work);
  lintGraph(ctx, states, transitions);
  lintModalKinds(ctx, states, transitions);
  return ctx.finish();
}

function validateSendMessage(ctx: ValidationContext, value: unknown): void {
  if (value === undefined) {
    ctx.error('SPEC_REQUIRED', 'send_message.submit_key', 'is required', 'missing', 'add "send_message": {"submit_key": "\\r"}');
    return;
  }
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', 'send_message', 'must be an object', showGot(value), 'use {"submit_key": "\\r"}');
    return;
  }
  ctx.string(value, 'submit_key', 'send_message', { required: true, fix: 'every shipped spec uses "\\r"' });
  ctx.number(value, 'delay_ms_before_submit', 'send_message');
  ctx.number(value, 'delay_ms_per_char', 'send_message');
  ctx.boolean(value, 'posix_bracketed_paste_for_images', 'send_message');
  ctx.boolean(value, 'mid_generation_queue', 'send_message');
  ctx.unknownKeys(value, 'send_message', SEND_MESSAGE_FIELDS, 'send_message');
}

/** Types of the plain top-level fields, and unknown top-level keys (warnings: the reference tolerates them). */
function validateTopLevelTypes(ctx: ValidationContext, raw: Record<string, unknown>): void {
  ctx.string(raw, 'name', '');
  ctx.string(raw, 'cli_version_range', '');
  ctx.string(raw, 'install', '');
  validateCliVersion(ctx, raw.cli_version);
  ctx.stringArray(raw, 'spawn_args', '');
  const wake = ctx.stringArray(raw, 'send_on_spawn', '');
  if (wake && wake.length > 0 && wake.every((s) => s === '')) {
    ctx.warn('SPEC_NO_EFFECT', 'send_on_spawn', 'holds only empty strings, which are skipped', showValue(wake), 'give the bytes to write, e.g. "\\u001b[I"');
  }
  ctx.number(raw, 'send_on_spawn_delay_ms', '');
  ctx.number(raw, 'send_on_spawn_max_wait_ms', '');
  if (hasKey(raw, 'env')) {
    if (!isRecord(raw.env)) ctx.error('SPEC_TYPE', 'env', 'must be an object of string values', showGot(raw.env));
    else {
      const env = raw.env;
      for (const key of Object.keys(env)) {
        if (typeof env[key] !== 'string') ctx.error('SPEC_TYPE', joinPath('env', key), 'must be a string', showGot(env[key]), 'quote the value');
      }
    }
  }
  if (hasKey(raw, 'native_history')) validateNativeHistory(ctx, raw.native_history);
  ctx.boolean(raw, 'requiresFinalAssistantBeforeIdle', '');
  ctx.boolean(raw, 'holdCompletionForTranscript', '');
  ctx.unknownKeys(raw, '', TOP_LEVEL_FIELDS, 'the spec');
}
