/**
 * Validation of launch-time configuration: spec-format §8 rules 3–6 (pre_launch_trust,
 * interactive_prompts, startup_dismiss, refocus_when_stalled_ms), with the reference's
 * wording after the path.
 */
import { hasKey, isRecord, joinPath, showGot, showValue, type ValidationContext } from './validate-context.js';

/** Named trust schemes the newest loader accepts (spec-format §15.1). */
export const PRE_LAUNCH_TRUST_SCHEMES = ['kimi_workspace_file', 'grok_toml_file', 'codex_toml_file', 'claude_json_projects', 'gemini_trusted_folders', 'qwen_trusted_folders'] as const;
/** Allowed `interactive_prompts.scheme` values. */
export const INTERACTIVE_PROMPT_SCHEMES = ['claude_tui', 'kimi_wire'] as const;

/** Rule 3. */
export function validatePreLaunchTrust(ctx: ValidationContext, value: unknown): void {
  if (value === undefined) return;
  const path = 'pre_launch_trust';
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', path, 'must be an object', showGot(value), 'use {"scheme": "…"} or {"settings_path": "…", "key": "…"}');
    return;
  }
  if (hasKey(value, 'scheme')) {
    const scheme = value.scheme;
    if (typeof scheme !== 'string' || !(PRE_LAUNCH_TRUST_SCHEMES as readonly string[]).includes(scheme)) {
      ctx.error('SPEC_ENUM', joinPath(path, 'scheme'), `must be one of ${PRE_LAUNCH_TRUST_SCHEMES.map((s) => `"${s}"`).join(', ')}`, showGot(scheme));
    }
    if (hasKey(value, 'settings_path') || hasKey(value, 'key')) {
      ctx.error('SPEC_FIELD_CONFLICT', path, 'with scheme excludes settings_path/key', undefined, 'keep either "scheme" or "settings_path" + "key"');
    }
    ctx.unknownKeys(value, path, ['scheme', 'settings_path', 'key'], 'pre_launch_trust');
    return;
  }
  ctx.string(value, 'settings_path', path, { required: true, fix: 'name the JSON settings file, e.g. "~/.tool/settings.json"' });
  ctx.string(value, 'key', path, { required: true, fix: 'name the array key that lists trusted folders' });
  ctx.unknownKeys(value, path, ['settings_path', 'key'], 'pre_launch_trust');
}

/** Rule 4. */
export function validateInteractivePrompts(ctx: ValidationContext, value: unknown): void {
  if (value === undefined) return;
  const path = 'interactive_prompts';
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', path, 'must be an object', showGot(value), 'use {"scheme": "claude_tui"}');
    return;
  }
  const scheme = value.scheme;
  if (typeof scheme !== 'string' || !(INTERACTIVE_PROMPT_SCHEMES as readonly string[]).includes(scheme)) {
    ctx.error('SPEC_ENUM', joinPath(path, 'scheme'), 'must be "claude_tui" or "kimi_wire"', showGot(scheme));
  }
  ctx.unknownKeys(value, path, ['scheme'], 'interactive_prompts');
}

/** Rule 5. */
export function validateStartupDismiss(ctx: ValidationContext, value: unknown): void {
  if (value === undefined) return;
  const path = 'startup_dismiss';
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', path, 'must be an object', showGot(value), 'use {"patterns": [{"regex": "…"}], "key": "\\r"}');
    return;
  }
  ctx.unknownKeys(value, path, ['patterns', 'key', 'max_attempts', 'window_ms'], 'startup_dismiss');
  ctx.string(value, 'key', path, { required: true, fix: 'give the keys that dismiss the prompt, e.g. "\\r"' });
  const patterns = value.patterns;
  if (!Array.isArray(patterns) || patterns.length === 0) {
    ctx.error('SPEC_TYPE', joinPath(path, 'patterns'), 'must be a non-empty array', showGot(patterns), 'list at least one {"regex": "…"}');
  } else {
    patterns.forEach((p, i) => {
      const pPath = `${path}.patterns[${i}]`;
      if (!isRecord(p)) {
        ctx.error('SPEC_TYPE', pPath, 'must be an object {regex, flags?}', showGot(p));
        return;
      }
      ctx.unknownKeys(p, pPath, ['regex', 'flags'], 'a startup_dismiss pattern');
      const flags = ctx.flags(p, 'flags', pPath);
      const regex = ctx.string(p, 'regex', pPath, { required: true });
      if (regex !== undefined && flags !== false) {
        ctx.regex(`${pPath}.regex`, regex, flags ?? '', 'does not compile');
      }
    });
  }
  ctx.number(value, 'max_attempts', path, { integer: true });
  ctx.number(value, 'window_ms', path);
}

/** Rule 6. Needs `send_on_spawn` to be known. */
export function validateRefocus(ctx: ValidationContext, spec: Record<string, unknown>): void {
  if (!hasKey(spec, 'refocus_when_stalled_ms')) return;
  const v = spec.refocus_when_stalled_ms;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    ctx.error('SPEC_RANGE', 'refocus_when_stalled_ms', 'must be a positive number', showValue(v), 'give the stall window in ms, e.g. 30000');
    return;
  }
  const wake = spec.send_on_spawn;
  if (!Array.isArray(wake) || !wake.some((s) => typeof s === 'string' && s.length > 0)) {
    ctx.error('SPEC_FIELD_CONFLICT', 'refocus_when_stalled_ms', 'requires send_on_spawn (the wake sequence to re-inject)', showValue(v), 'add "send_on_spawn": ["\\u001b[I"] or remove refocus_when_stalled_ms');
  }
}
