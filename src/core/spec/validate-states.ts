/**
 * Validation of the FSM itself: states (§8 rules 8, 9, 11 plus extraction), transitions
 * (rule 10) and the graph lints (unreachable states, `"*"` self-loops).
 */
import { DEEP_CONDITION_WARN_DEPTH, MAX_CONDITION_DEPTH, validateCondition } from './validate-condition.js';
import { countCaptureGroups } from './regex-lint.js';
import { validateSubject } from './validate-subject.js';
import { hasKey, isRecord, showGot, showValue, type ValidationContext } from './validate-context.js';

/** Allowed `status` values (newest loader, spec-format §15.1). */
export const STATE_STATUSES = ['idle', 'generating', 'approval', 'waiting_external'] as const;
/** Allowed `modal_kind` values. */
export const MODAL_KINDS = ['approval', 'picker', 'confirm'] as const;
/** Allowed `select_mode` values (buttons and pickers). */
export const SELECT_MODES = ['index', 'arrow_keys'] as const;

const STATE_FIELDS = ['id', 'label', 'initial', 'modal', 'modal_kind', 'status', 'extract'];
const TRANSITION_FIELDS = ['from', 'to', 'when', 'min_hold_ms', 'priority', 'label'];
const TITLE_FIELDS = ['section', 'first_line', 'regex', 'flags', 'join_wrapped'];
const BUTTON_FIELDS = [
  'section', 'pattern', 'flags', 'key_for_index', 'min_count', 'continuation_lines', 'select_mode',
  'cursor_keys', 'cursor_marker', 'label_group', 'key_group', 'label_continuation', 'skip_headings', 'label_style', 'label_column',
];

/** Rules 8 and 9. Fills `ctx.stateIds` with the valid, unique ids. */
export function validateStates(ctx: ValidationContext, states: unknown[]): void {
  const firstIndex = new Map<string, number>();
  const initials: string[] = [];
  states.forEach((state, i) => {
    const path = `states[${i}]`;
    if (!isRecord(state)) {
      ctx.error('SPEC_TYPE', path, 'must be a state object {id, label, …}', showGot(state));
      return;
    }
    const id = ctx.string(state, 'id', path, { required: true, fix: 'give the state a unique id such as "idle"' });
    if (id === undefined) return; // the reference skips the rest of a state without id
    if (id === '*') {
      ctx.error('SPEC_RESERVED_ID', `${path}.id`, '"*" is reserved (it means every state in transitions[].from)', showValue(id), 'choose another id');
    } else if (firstIndex.has(id)) {
      ctx.error('SPEC_DUPLICATE_ID', `${path}.id`, `"${id}" is duplicated`, `first declared at states[${firstIndex.get(id)}]`, 'state ids must be unique');
    } else {
      firstIndex.set(id, i);
    }
    ctx.string(state, 'label', path, { required: true, fix: 'add a human label, e.g. "Idle"' });
    if (hasKey(state, 'status') && !(STATE_STATUSES as readonly unknown[]).includes(state.status)) {
      ctx.error('SPEC_ENUM', `${path}.status`, `must be ${STATE_STATUSES.join('|')}`, showGot(state.status));
    }
    const initial = ctx.boolean(state, 'initial', path);
    if (initial === true) initials.push(id);
    const modal = ctx.boolean(state, 'modal', path);
    if (hasKey(state, 'modal_kind') && !(MODAL_KINDS as readonly unknown[]).includes(state.modal_kind)) {
      ctx.error('SPEC_ENUM', `${path}.modal_kind`, `must be ${MODAL_KINDS.join('|')}`, showGot(state.modal_kind));
    } else if (hasKey(state, 'modal_kind') && modal !== true) {
      ctx.warn('SPEC_IGNORED_FIELD', `${path}.modal_kind`, 'is ignored on a state without "modal": true', showValue(state.modal_kind), 'add "modal": true or remove modal_kind');
    }
    if (state.status === 'waiting_external' && modal === true) {
      ctx.error('SPEC_FIELD_CONFLICT', `${path}.status`, '"waiting_external" must not be modal (it waits on a human outside the terminal)', showValue(state.status), 'remove "modal": true or use status "approval"');
    }
    ctx.unknownKeys(state, path, STATE_FIELDS, 'a state');
  });
  ctx.stateIds = [...firstIndex.keys()];
  if (initials.length !== 1) {
    const found = initials.length === 0 ? 'none found' : `${initials.length} found: ${initials.join(', ')}`;
    ctx.error('SPEC_INITIAL_STATE', 'states', 'exactly one state must have initial:true', found, 'mark the starting state with "initial": true');
  }
}

/** Rule 11 and the rest of each state's extraction rules (run after transitions, as §8 orders). */
export function validateStateExtracts(ctx: ValidationContext, states: unknown[]): void {
  states.forEach((state, i) => {
    if (!isRecord(state) || typeof state.id !== 'string' || state.id === '') return;
    validateExtract(ctx, state, `states[${i}]`, state.modal === true);
  });
}

function validateExtract(ctx: ValidationContext, state: Record<string, unknown>, path: string, modal: boolean): void {
  const extract = state.extract;
  const extractPath = `${path}.extract`;
  if (extract === undefined) {
    if (modal) ctx.warn('SPEC_MODAL_NO_BUTTONS', path, 'is modal but has no extract.buttons rule, so no buttons can be pressed', undefined, 'add "extract": {"buttons": {"pattern": …}}');
    return;
  }
  if (!isRecord(extract)) {
    ctx.error('SPEC_TYPE', extractPath, 'must be an object {title?, buttons?, subject?}', showGot(extract));
    return;
  }
  ctx.unknownKeys(extract, extractPath, ['title', 'buttons', 'subject'], 'extract');
  if (hasKey(extract, 'subject')) validateSubject(ctx, extract.subject, `${extractPath}.subject`, modal ? (state.modal_kind ?? 'approval') : null);
  if (hasKey(extract, 'title')) validateTitleRule(ctx, extract.title, `${extractPath}.title`);
  if (hasKey(extract, 'buttons')) validateButtonRule(ctx, extract.buttons, `${extractPath}.buttons`);
  else if (modal) ctx.warn('SPEC_MODAL_NO_BUTTONS', path, 'is modal but has no extract.buttons rule, so no buttons can be pressed', undefined, 'add "extract": {"buttons": {"pattern": …}}');
}

function validateTitleRule(ctx: ValidationContext, title: unknown, path: string): void {
  if (!isRecord(title)) {
    ctx.error('SPEC_TYPE', path, 'must be an object {section?, first_line?, regex?, flags?, join_wrapped?}', showGot(title));
    return;
  }
  ctx.unknownKeys(title, path, TITLE_FIELDS, 'a title rule');
  if (hasKey(title, 'section')) ctx.sectionRef(title, 'section', path);
  const firstLine = ctx.boolean(title, 'first_line', path);
  const flags = ctx.flags(title, 'flags', path);
  const regex = ctx.string(title, 'regex', path);
  if (regex !== undefined && flags !== false) ctx.regex(`${path}.regex`, regex, flags ?? 'i');
  const joinWrapped = ctx.boolean(title, 'join_wrapped', path);
  if (joinWrapped === true && (firstLine === true || !hasKey(title, 'regex'))) {
    ctx.error(
      'SPEC_FIELD_CONFLICT', `${path}.join_wrapped`,
      firstLine === true ? 'cannot be combined with "first_line": true (it joins the rows wrapped above a regex match, and first_line wins over regex)' : 'needs "regex" (it joins the rows wrapped above the regex\'s match)',
      showValue(joinWrapped), 'give a "regex" that matches the title\'s last row and remove first_line, or remove join_wrapped',
    );
  }
  if (firstLine !== true && !hasKey(title, 'regex')) {
    ctx.warn('SPEC_NO_EFFECT', path, 'has neither "first_line": true nor "regex", so it never yields a title', undefined, 'add one of them');
  }
}

function validateButtonRule(ctx: ValidationContext, rule: unknown, path: string): void {
  if (!isRecord(rule)) {
    ctx.error('SPEC_TYPE', path, 'must be an object {pattern, …}', showGot(rule));
    return;
  }
  ctx.unknownKeys(rule, path, BUTTON_FIELDS, 'a button rule');
  if (hasKey(rule, 'section')) ctx.sectionRef(rule, 'section', path);
  const continuation = ctx.boolean(rule, 'continuation_lines', path) === true;
  ctx.boolean(rule, 'skip_headings', path);
  ctx.boolean(rule, 'label_style', path);
  if (hasKey(rule, 'label_column') && rule.label_column !== 'title') {
    ctx.error('SPEC_ENUM', `${path}.label_column`, 'must be "title" (options start in the title\'s column)', showGot(rule.label_column), 'use "title" or remove the field');
  }
  const wrapped = hasKey(rule, 'label_continuation') && validateLabelContinuation(ctx, rule.label_continuation, `${path}.label_continuation`);
  if (continuation && wrapped) {
    ctx.error('SPEC_FIELD_CONFLICT', `${path}.label_continuation`, 'cannot be combined with "continuation_lines": true (both decide which rows join a label)', showValue(rule.label_continuation), 'keep label_continuation (it leaves descriptions out) and remove continuation_lines');
  }
  const flags = ctx.flags(rule, 'flags', path);
  const pattern = ctx.string(rule, 'pattern', path, { required: true, nonEmpty: true, fix: 'group 1 = index, group 2 = label' });
  const labelGroup = ctx.number(rule, 'label_group', path, { integer: true, min: 1 });
  const keyGroup = ctx.number(rule, 'key_group', path, { integer: true, min: 1 });
  if (pattern !== undefined && flags !== false) {
    // The engine forces "g" in the default mode and strips it per line (§5.2).
    const effective = continuation || wrapped ? (flags ?? 'm').replace('g', '') : ((f) => (f.includes('g') ? f : `${f}g`))(flags ?? 'gm');
    if (ctx.regex(`${path}.pattern`, pattern, effective)) {
      const groups = countCaptureGroups(pattern, effective);
      const patternPath = `${path}.pattern`;
      if (labelGroup !== undefined || keyGroup !== undefined) {
        for (const [key, group] of [['label_group', labelGroup], ['key_group', keyGroup]] as const) {
          if (group !== undefined && group > groups) ctx.error('SPEC_CAPTURE_GROUPS', `${path}.${key}`, `names capture group ${group} but the pattern has ${groups}`, showValue(group), 'add the group or fix the number');
        }
      } else if (groups < 2) {
        ctx.error('SPEC_CAPTURE_GROUPS', patternPath, `needs capture group 1 (index) and 2 (label) but has ${groups}`, showValue(pattern), 'e.g. "^\\\\s*(\\\\d+)\\\\.\\\\s*(.+?)\\\\s*$"');
      }
    }
  }
  const key = ctx.string(rule, 'key_for_index', path);
  ctx.number(rule, 'min_count', path, { integer: true });
  const mode = rule.select_mode;
  if (hasKey(rule, 'select_mode') && !(SELECT_MODES as readonly unknown[]).includes(mode)) {
    ctx.error('SPEC_ENUM', `${path}.select_mode`, `must be ${SELECT_MODES.join('|')}`, showGot(mode));
  }
  if (key !== undefined && mode !== 'arrow_keys' && labelGroup === undefined && !key.includes('{index}')) {
    ctx.warn('SPEC_NO_EFFECT', `${path}.key_for_index`, 'has no "{index}", so every button sends the same keys', showValue(key), 'use e.g. "{index}\\r" or select_mode "arrow_keys"');
  }
  if (hasKey(rule, 'cursor_keys')) validateCursorKeys(ctx, rule.cursor_keys, `${path}.cursor_keys`);
  ctx.string(rule, 'cursor_marker', path, { nonEmpty: true });
}

/** `label_continuation`: `{match_style?, word_wrap?, mirror_margin?}`. True when it is an object (the rule then joins wrapped rows). */
function validateLabelContinuation(ctx: ValidationContext, value: unknown, path: string): boolean {
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', path, 'must be an object {match_style?, word_wrap?, mirror_margin?}', showGot(value), 'use {"word_wrap": true, "match_style": true} to join only the rows a word-wrapper made, drawn like the label');
    return false;
  }
  ctx.unknownKeys(value, path, ['match_style', 'word_wrap', 'mirror_margin'], 'label_continuation');
  ctx.boolean(value, 'match_style', path);
  ctx.boolean(value, 'word_wrap', path);
  ctx.boolean(value, 'mirror_margin', path);
  if (value.mirror_margin === true && value.word_wrap !== true) {
    ctx.error('SPEC_FIELD_CONFLICT', `${path}.mirror_margin`, 'only narrows the width word_wrap measures against, and word_wrap is not true', showValue(value), 'add "word_wrap": true or remove mirror_margin');
  }
  return true;
}

/** `{up?, down?}` key strings (shared with open_picker controls). */
export function validateCursorKeys(ctx: ValidationContext, keys: unknown, path: string): void {
  if (!isRecord(keys)) {
    ctx.error('SPEC_TYPE', path, 'must be an object {up?, down?}', showGot(keys));
    return;
  }
  ctx.unknownKeys(keys, path, ['up', 'down'], 'cursor_keys');
  ctx.string(keys, 'up', path);
  ctx.string(keys, 'down', path);
}

/** Rule 10. Requires `ctx.stateIds` (run {@link validateStates} first). */
export function validateTransitions(ctx: ValidationContext, transitions: unknown[]): void {
  transitions.forEach((t, i) => {
    const path = `transitions[${i}]`;
    if (!isRecord(t)) {
      ctx.error('SPEC_TYPE', path, 'must be a transition object {from, to, when?, …}', showGot(t));
      return;
    }
    validateFrom(ctx, t.from, `${path}.from`);
    if (!hasKey(t, 'to') || t.to === '' || t.to === undefined) ctx.error('SPEC_REQUIRED', `${path}.to`, 'is required', showValue(t.to), 'name the destination state');
    else ctx.stateRef(t.to, `${path}.to`);
    if (hasKey(t, 'when')) {
      const depth = validateCondition(ctx, t.when, `${path}.when`);
      if (depth > DEEP_CONDITION_WARN_DEPTH && depth <= MAX_CONDITION_DEPTH) {
        ctx.warn('SPEC_DEEP_GUARD', `${path}.when`, `nests ${depth} levels deep, which is hard to read and debug`, undefined, `keep guards within ${DEEP_CONDITION_WARN_DEPTH} levels`);
      }
    }
    // Unchecked by the reference: a negative hold is always satisfied, there and here.
    ctx.numberRangeBeyondReference(t, 'min_hold_ms', path);
    ctx.number(t, 'priority', path, { min: null });
    ctx.string(t, 'label', path);
    ctx.unknownKeys(t, path, TRANSITION_FIELDS, 'a transition');
  });
}

function validateFrom(ctx: ValidationContext, from: unknown, path: string): void {
  if (from === '*') return;
  if (typeof from === 'string') {
    if (from === '') ctx.error('SPEC_REQUIRED', path, 'is required', showValue(from), 'name a state, a list of states, or "*"');
    else ctx.stateRef(from, path);
    return;
  }
  if (!Array.isArray(from)) {
    ctx.error('SPEC_REQUIRED', path, 'is required', showValue(from), 'name a state, a list of states, or "*"');
    return;
  }
  if (from.length === 0) {
    ctx.error('SPEC_REQUIRED', path, 'is required', showValue(from), 'list at least one state, or use "*"');
    return;
  }
  from.forEach((id, k) => {
    if (id === '*') ctx.error('SPEC_RESERVED_ID', `${path}[${k}]`, '"*" inside a list names no state', showValue(id), 'use "from": "*" (a string) for every state');
    else ctx.stateRef(id, `${path}[${k}]`);
  });
}

/**
 * Graph lints (warnings): states no path reaches from the initial state, and every
 * `from: "*"` edge, which also leaves its own destination (§13.24).
 */
export function lintGraph(ctx: ValidationContext, states: unknown[], transitions: unknown[]): void {
  const ids = ctx.stateIds;
  if (ids.length === 0) return;
  const known = new Set(ids);
  const initialState = states.find((s) => isRecord(s) && s.initial === true && typeof s.id === 'string' && known.has(s.id)) as { id: string } | undefined;
  const start = initialState?.id ?? ids[0]!;
  const edges = new Map<string, string[]>();
  const starTargets: string[] = [];
  transitions.forEach((t, i) => {
    if (!isRecord(t) || typeof t.to !== 'string' || !known.has(t.to)) return;
    const to = t.to;
    if (t.from === '*') {
      starTargets.push(to);
      const others = ids.filter((id) => id !== to);
      ctx.warn(
        'SPEC_WILDCARD_FROM',
        `transitions[${i}].from`,
        `"*" also leaves "${to}" itself, so while the guard stays true this edge re-fires on every evaluation and resets the state clock`,
        showValue(t.from),
        `list the sources explicitly: ${showValue(others)}`,
      );
      return;
    }
    const sources = typeof t.from === 'string' ? [t.from] : Array.isArray(t.from) ? t.from : [];
    for (const s of sources) {
      if (typeof s !== 'string' || !known.has(s)) continue;
      const list = edges.get(s);
      if (list) list.push(to);
      else edges.set(s, [to]);
    }
  });
  const reached = new Set<string>([start, ...starTargets]);
  const queue = [...reached];
  while (queue.length > 0) {
    const next = edges.get(queue.pop()!) ?? [];
    for (const to of next) {
      if (!reached.has(to)) {
        reached.add(to);
        queue.push(to);
      }
    }
  }
  states.forEach((s, i) => {
    if (!isRecord(s) || typeof s.id !== 'string' || reached.has(s.id) || !known.has(s.id)) return;
    ctx.warn('SPEC_UNREACHABLE_STATE', `states[${i}]`, `state "${s.id}" is unreachable from the initial state "${start}"`, undefined, `add a transition with "to": "${s.id}" or remove the state`);
  });
}
