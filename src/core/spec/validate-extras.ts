/**
 * Validation of what hangs off the FSM: controls (§6), notifications and delegates
 * (§7.1–7.2) and signal rules (§7.3). The reference checks none of these except signal
 * rules (which it drops with a warning); invalid entries are errors here.
 */
import { validateCursorKeys, SELECT_MODES } from './validate-states.js';
import { hasKey, isRecord, joinPath, showGot, showValue, type ValidationContext } from './validate-context.js';

/** Allowed `control_bar[].action.type` values. */
export const CONTROL_ACTION_TYPES = ['send_keys', 'open_picker', 'attach_image'] as const;
/** Allowed `signal_rules[].kind` values (spec-format §7.3). */
export const SIGNAL_KINDS = ['usage_limit', 'auth_error', 'rate_limit', 'service_error', 'info'] as const;
/** §7.3: signal rule ids are short snake_case tokens. */
export const SIGNAL_ID_RE = /^[a-z0-9][a-z0-9_]{0,63}$/;
/** §7.3: longer signal patterns are refused by the reference. */
const MAX_SIGNAL_PATTERN_CHARS = 200;

export function forEachEntry(ctx: ValidationContext, value: unknown, path: string, what: string, visit: (entry: Record<string, unknown>, entryPath: string) => void): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    ctx.error('SPEC_TYPE', path, `must be an array of ${what}`, showGot(value));
    return;
  }
  value.forEach((entry, i) => {
    const entryPath = `${path}[${i}]`;
    if (!isRecord(entry)) ctx.error('SPEC_TYPE', entryPath, `must be ${what.replace(/s$/, '')} object`, showGot(entry));
    else visit(entry, entryPath);
  });
}

/** Reports an id seen before in the same list. */
export function trackUniqueId(ctx: ValidationContext, seen: Map<string, string>, id: string | undefined, path: string): void {
  if (id === undefined) return;
  const first = seen.get(id);
  if (first) ctx.error('SPEC_DUPLICATE_ID', `${path}.id`, `"${id}" is duplicated`, `first declared at ${first}`, 'ids must be unique');
  else seen.set(id, path);
}

/** `control_bar`: unique ids, known states, and a complete action per type. */
export function validateControlBar(ctx: ValidationContext, value: unknown): void {
  const seen = new Map<string, string>();
  forEachEntry(ctx, value, 'control_bar', 'controls', (c, path) => {
    ctx.unknownKeys(c, path, ['id', 'label', 'visible_when_state', 'action'], 'a control');
    trackUniqueId(ctx, seen, ctx.string(c, 'id', path, { required: true }), path);
    ctx.string(c, 'label', path, { required: true, fix: 'add the button text' });
    const visible = ctx.stringArray(c, 'visible_when_state', path);
    // An id naming no state only hides the control there, as in the reference (seed 002).
    visible?.forEach((id, k) => ctx.beyondReference(() => ctx.stateRef(id, `${path}.visible_when_state[${k}]`)));
    if (c.action === undefined) ctx.error('SPEC_REQUIRED', `${path}.action`, 'is required', 'missing', `use {"type": one of ${CONTROL_ACTION_TYPES.join(', ')}, …}`);
    else validateAction(ctx, c.action, `${path}.action`);
  });
}

function validateAction(ctx: ValidationContext, action: unknown, path: string): void {
  if (!isRecord(action)) {
    ctx.error('SPEC_TYPE', path, 'must be an action object {type, …}', showGot(action));
    return;
  }
  switch (action.type) {
    case 'send_keys':
      ctx.unknownKeys(action, path, ['type', 'keys'], 'a send_keys action');
      ctx.string(action, 'keys', path, { required: true, fix: 'give the bytes to write, e.g. "\\u0003"' });
      return;
    case 'open_picker':
      validateOpenPicker(ctx, action, path);
      return;
    case 'attach_image': {
      ctx.unknownKeys(action, path, ['type', 'method', 'keys_template'], 'an attach_image action');
      if (hasKey(action, 'method') && action.method !== 'tempfile_then_keys') {
        ctx.error('SPEC_ENUM', `${path}.method`, 'must be "tempfile_then_keys"', showGot(action.method));
      }
      const template = ctx.string(action, 'keys_template', path, { required: true, fix: 'e.g. "{path}\\r"' });
      if (template !== undefined && !template.includes('{path}')) {
        ctx.error('SPEC_BAD_TEMPLATE', `${path}.keys_template`, 'must contain "{path}" (replaced by the image file path)', showValue(template), 'e.g. "{path}\\r"');
      }
      return;
    }
    default:
      ctx.error('SPEC_ENUM', `${path}.type`, `must be ${CONTROL_ACTION_TYPES.join('|')}`, showGot(action.type));
  }
}

function validateOpenPicker(ctx: ValidationContext, action: Record<string, unknown>, path: string): void {
  ctx.unknownKeys(action, path, ['type', 'trigger_keys', 'wait_for', 'extract_choices', 'submit_key', 'select_mode', 'cursor_keys'], 'an open_picker action');
  ctx.string(action, 'trigger_keys', path, { required: true, fix: 'e.g. "/model\\r"' });
  // wait_for.regex defaults to flag "i"; extract_choices.pattern to no flags (§6).
  for (const [key, field, defaultFlags] of [['wait_for', 'regex', 'i'], ['extract_choices', 'pattern', '']] as const) {
    const sub = action[key];
    const subPath = joinPath(path, key);
    if (!isRecord(sub)) {
      ctx.error('SPEC_REQUIRED', subPath, `is required: an object {section?, ${field}, flags?}`, showValue(sub));
      continue;
    }
    ctx.unknownKeys(sub, subPath, ['section', field, 'flags'], key);
    if (hasKey(sub, 'section')) ctx.sectionRef(sub, 'section', subPath);
    const flags = ctx.flags(sub, 'flags', subPath);
    const source = ctx.string(sub, field, subPath, { required: true, nonEmpty: true });
    if (source !== undefined && flags !== false) ctx.regex(joinPath(subPath, field), source, flags ?? defaultFlags);
  }
  ctx.string(action, 'submit_key', path);
  if (hasKey(action, 'select_mode') && !(SELECT_MODES as readonly unknown[]).includes(action.select_mode)) {
    ctx.error('SPEC_ENUM', `${path}.select_mode`, `must be ${SELECT_MODES.join('|')}`, showGot(action.select_mode));
  }
  if (hasKey(action, 'cursor_keys')) validateCursorKeys(ctx, action.cursor_keys, `${path}.cursor_keys`);
}

/**
 * `notifications` and `delegate`: state-keyed rules whose `when_state` must name a state. The
 * reference does not check `when_state` and compares it with the current state id, so one naming
 * no state never fires: tolerated (an error under strict).
 */
export function validateStateRules(ctx: ValidationContext, notifications: unknown, delegates: unknown): void {
  const seenNotes = new Map<string, string>();
  forEachEntry(ctx, notifications, 'notifications', 'notifications', (n, path) => {
    ctx.unknownKeys(n, path, ['id', 'when_state', 'title', 'body'], 'a notification');
    trackUniqueId(ctx, seenNotes, ctx.string(n, 'id', path, { required: true }), path);
    ctx.beyondReference(() => ctx.stateRef(n.when_state, `${path}.when_state`, { required: true }));
    ctx.string(n, 'title', path, { required: true });
    ctx.string(n, 'body', path);
  });
  const seenDelegates = new Map<string, string>();
  forEachEntry(ctx, delegates, 'delegate', 'delegate triggers', (d, path) => {
    ctx.unknownKeys(d, path, ['id', 'when_state', 'after_duration_ms', 'task_template'], 'a delegate trigger');
    trackUniqueId(ctx, seenDelegates, ctx.string(d, 'id', path, { required: true }), path);
    ctx.beyondReference(() => ctx.stateRef(d.when_state, `${path}.when_state`, { required: true }));
    ctx.number(d, 'after_duration_ms', path);
    ctx.string(d, 'task_template', path, { required: true });
  });
}

/** `signal_rules` (§7.3). The reference drops bad rules with a warning; they are errors here. */
export function validateSignalRules(ctx: ValidationContext, value: unknown): void {
  const seen = new Map<string, string>();
  forEachEntry(ctx, value, 'signal_rules', 'signal rules', (r, path) => {
    ctx.unknownKeys(r, path, ['id', 'kind', 'section', 'pattern', 'flags', 'multiline', 'cooldown_ms'], 'a signal rule');
    const id = ctx.string(r, 'id', path, { required: true });
    if (id !== undefined && !SIGNAL_ID_RE.test(id)) {
      ctx.error('SPEC_BAD_ID', `${path}.id`, 'must match ^[a-z0-9][a-z0-9_]{0,63}$', showValue(id), 'use lower-case letters, digits and "_"');
    }
    trackUniqueId(ctx, seen, id, path);
    if (!(SIGNAL_KINDS as readonly unknown[]).includes(r.kind)) {
      ctx.error('SPEC_ENUM', `${path}.kind`, `must be ${SIGNAL_KINDS.join('|')}`, showGot(r.kind));
    }
    if (hasKey(r, 'section')) ctx.sectionRef(r, 'section', path);
    let flags: string | undefined;
    if (hasKey(r, 'flags')) {
      if (typeof r.flags !== 'string' || !/^(?!.*(.).*\1)[ig]*$/.test(r.flags)) {
        ctx.error('SPEC_BAD_FLAGS', `${path}.flags`, 'may only contain "i" and "g" (once each)', showGot(r.flags), '"g" is stripped anyway; use "i" or omit it');
        flags = undefined;
      } else flags = r.flags.replace('g', '');
    }
    const pattern = ctx.string(r, 'pattern', path, { required: true, nonEmpty: true });
    if (pattern !== undefined) {
      if (pattern.length > MAX_SIGNAL_PATTERN_CHARS) {
        ctx.error('SPEC_PATTERN_TOO_LONG', `${path}.pattern`, `is longer than ${MAX_SIGNAL_PATTERN_CHARS} characters`, `${pattern.length} chars`, 'shorten it');
      } else if (!hasKey(r, 'flags') || flags !== undefined) {
        ctx.regex(`${path}.pattern`, pattern, flags ?? '');
      }
    }
    ctx.boolean(r, 'multiline', path);
    ctx.number(r, 'cooldown_ms', path);
  });
}
