/**
 * `native_history` (spec-format "Around the machine"): which parser reads the CLI's own
 * transcript, where its files are, how a session's id is known and how the CLI resumes one.
 * The reference's own keys (`reader`, `source`, `override_path`) load as before, unchecked.
 */
import { HISTORY_FORMATS, HISTORY_PATH_PLACEHOLDERS } from './types.js';
import { suggestName } from './suggest.js';
import { didYouMeanOr, hasKey, isRecord, showGot, showValue, type ValidationContext } from './validate-context.js';

const FIELDS = ['format', 'path', 'session_id', 'resume_args', 'new_session_on', 'reader', 'source', 'override_path'];
const SESSION_ID_FROM = ['launch_flag', 'newest_file'];
const SESSION_TOKEN = '{session_id}';

/** Checks a `native_history` block; every message names the field, the value and the fix. */
export function validateNativeHistory(ctx: ValidationContext, value: unknown): void {
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', 'native_history', 'must be an object', showGot(value));
    return;
  }
  ctx.unknownKeys(value, 'native_history', FIELDS, 'native_history');
  const format = ctx.string(value, 'format', 'native_history');
  if (format !== undefined && !(HISTORY_FORMATS as readonly string[]).includes(format)) {
    ctx.error('SPEC_ENUM', 'native_history.format', 'is not a history format specterm reads', showGot(format), didYouMeanOr(format, HISTORY_FORMATS, `use one of ${HISTORY_FORMATS.join(', ')}`));
  }
  const path = ctx.string(value, 'path', 'native_history', { required: format !== undefined, fix: 'say where the CLI writes its history, e.g. "~/.demo/sessions/{session_id}.jsonl"' });
  if (path !== undefined) checkPathTemplate(ctx, path);
  if (hasKey(value, 'session_id')) checkSessionId(ctx, value.session_id);
  const resume = ctx.stringArray(value, 'resume_args', 'native_history');
  if (resume && !resume.some((a) => a.includes(SESSION_TOKEN))) {
    ctx.error('SPEC_BAD_TEMPLATE', 'native_history.resume_args', `must contain "${SESSION_TOKEN}"`, showValue(resume), 'e.g. ["--resume", "{session_id}"]');
  }
  const commands = ctx.stringArray(value, 'new_session_on', 'native_history');
  for (const [i, command] of (commands ?? []).entries()) {
    if (!/^\/[^\s/]+$/.test(command)) {
      ctx.error('SPEC_TYPE', `native_history.new_session_on[${i}]`, 'must be one slash command', showGot(command), 'e.g. ["/clear"]: the command after which the CLI starts a new history file');
    }
  }
}

function checkPathTemplate(ctx: ValidationContext, path: string): void {
  const at = 'native_history.path';
  if (!/^(~\/|\$\{[A-Za-z_][A-Za-z0-9_]*(:-~\/[^}]*)?\}\/)/.test(path)) {
    ctx.error('SPEC_BAD_TEMPLATE', at, 'must start at the home directory ("~/…") or a variable ("${VAR:-~/…}")', showGot(path), 'history is read from under the home directory only');
    return;
  }
  if (path.split('/').includes('..')) {
    ctx.error('SPEC_BAD_TEMPLATE', at, 'must not contain ".."', showGot(path), 'name the folder the CLI writes to directly');
    return;
  }
  // `${VAR…}` is the environment, `{name}` a placeholder specterm fills.
  for (const m of path.replace(/\$\{[^}]*\}/g, '').matchAll(/\{([^}]*)\}/g)) {
    const name = m[1] ?? '';
    if ((HISTORY_PATH_PLACEHOLDERS as readonly string[]).includes(name)) continue;
    const near = suggestName(name, HISTORY_PATH_PLACEHOLDERS);
    const fix = near ? `did you mean {${near}}?` : `use ${HISTORY_PATH_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`;
    ctx.error('SPEC_BAD_TEMPLATE', at, `has a placeholder specterm does not fill ({${name}})`, undefined, fix);
  }
}

function checkSessionId(ctx: ValidationContext, rule: unknown): void {
  const at = 'native_history.session_id';
  if (!isRecord(rule)) {
    ctx.error('SPEC_TYPE', at, 'must be an object', showGot(rule), 'use {"from": "launch_flag", "args": ["--session-id", "{session_id}"]} or {"from": "newest_file"}');
    return;
  }
  ctx.unknownKeys(rule, at, ['from', 'args'], 'native_history.session_id');
  if (!SESSION_ID_FROM.includes(rule.from as string)) {
    ctx.error('SPEC_ENUM', `${at}.from`, 'must be "launch_flag" or "newest_file"', showGot(rule.from), '"launch_flag" when the CLI takes an id on its command line, else "newest_file"');
    return;
  }
  if (rule.from !== 'launch_flag') return;
  const args = ctx.stringArray(rule, 'args', at);
  if (!hasKey(rule, 'args')) ctx.error('SPEC_REQUIRED', `${at}.args`, 'is required', 'missing', 'e.g. ["--session-id", "{session_id}"]');
  else if (args && !args.some((a) => a.includes(SESSION_TOKEN))) {
    ctx.error('SPEC_BAD_TEMPLATE', `${at}.args`, `must contain "${SESSION_TOKEN}"`, showValue(args), 'e.g. ["--session-id", "{session_id}"]');
  }
}
