/**
 * Validation of transition guards (spec-format §3, §8 rule 10), recursive with a depth cap.
 */
import { CONDITION_FIELDS, CONDITION_KIND_NAMES, classifyCondition, listMatchingKinds, type ConditionKind } from './condition-kind.js';
import { hasBareLineAnchor } from './regex-lint.js';
import { formatDidYouMean, suggestName } from './suggest.js';
import { hasKey, isRecord, joinPath, showValue, type ValidationContext } from './validate-context.js';

/** Deeper guards are refused: recursion must stay bounded on hostile input. */
export const MAX_CONDITION_DEPTH = 64;
/** Deeper guards validate but earn a readability warning. */
export const DEEP_CONDITION_WARN_DEPTH = 8;

const ALL_CONDITION_KEYS = [...new Set(Object.values(CONDITION_FIELDS).flat())];
const KIND_LIST = 'all, any, not, signal, elapsed_ms, stable_ms, matches, window_title, osc or cursor_above+changed';

/**
 * Validates one guard tree rooted at `path` and returns its depth (a leaf is 1).
 * Recursion stops at {@link MAX_CONDITION_DEPTH} with an error.
 */
export function validateCondition(ctx: ValidationContext, cond: unknown, path: string, depth = 1): number {
  if (depth > MAX_CONDITION_DEPTH) {
    ctx.error('SPEC_TOO_DEEP', path, `nesting deeper than ${MAX_CONDITION_DEPTH} levels`, undefined, 'flatten the guard with all/any');
    return depth;
  }
  if (!isRecord(cond)) {
    ctx.error('SPEC_BAD_CONDITION', path, 'is not a recognized condition', showValue(cond), `use an object with one of ${KIND_LIST}`);
    return depth;
  }
  const kind = classifyCondition(cond);
  if (kind === 'unknown') {
    reportUnknownCondition(ctx, cond, path);
    return depth;
  }
  reportStrayKeys(ctx, cond, path, kind);
  switch (kind) {
    case 'all':
    case 'any':
      return validateComposite(ctx, cond[kind], joinPath(path, kind), depth);
    case 'not':
      return validateCondition(ctx, cond.not, joinPath(path, 'not'), depth + 1);
    case 'signal':
      validateSignal(ctx, cond, path);
      break;
    case 'elapsed':
      // The reference checks the type only; a negative wait is over at once, there and here.
      ctx.numberRangeBeyondReference(cond, 'elapsed_ms', path, { required: true });
      break;
    case 'stable':
      validateStable(ctx, cond, path);
      break;
    case 'regex':
      validateRegexLeaf(ctx, cond, path);
      break;
    case 'window_title':
      validateWindowTitle(ctx, cond, path);
      break;
    case 'osc':
      validateOsc(ctx, cond, path);
      break;
    case 'changed':
      ctx.number(cond, 'cursor_above', path, { integer: true });
      ctx.boolean(cond, 'changed', path);
      break;
  }
  return depth;
}

function validateComposite(ctx: ValidationContext, items: unknown, path: string, depth: number): number {
  if (!Array.isArray(items)) {
    ctx.error('SPEC_TYPE', path, 'must be an array of conditions', showValue(items), 'wrap the condition(s) in [ ]');
    return depth;
  }
  let deepest = depth;
  items.forEach((child, i) => {
    deepest = Math.max(deepest, validateCondition(ctx, child, `${path}[${i}]`, depth + 1));
  });
  return deepest;
}

function reportUnknownCondition(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  const keys = Object.keys(cond).filter((k) => !k.startsWith('_'));
  let fix = `use one of ${KIND_LIST}`;
  if (hasKey(cond, 'cursor_above') !== hasKey(cond, 'changed')) {
    fix = 'a changed condition needs both "cursor_above" and "changed"';
  } else {
    const selectors = ['all', 'any', 'not', 'signal', 'elapsed_ms', 'stable_ms', 'matches', 'window_title', 'osc'];
    for (const key of keys) {
      const suggestion = suggestName(key, selectors);
      if (suggestion) {
        fix = `did you mean "${suggestion}" instead of "${key}"?`;
        break;
      }
    }
  }
  ctx.error('SPEC_BAD_CONDITION', path, 'is not a recognized condition', showValue(cond), fix);
}

/** Warns about keys the chosen kind ignores: other kinds' selectors (a mixed object) or typos. */
function reportStrayKeys(ctx: ValidationContext, cond: Record<string, unknown>, path: string, kind: Exclude<ConditionKind, 'unknown'>): void {
  const kinds = listMatchingKinds(cond);
  const allowed = CONDITION_FIELDS[kind];
  if (kinds.length > 1) {
    const ignored = Object.keys(cond).filter((k) => !allowed.includes(k) && !k.startsWith('_'));
    const mixed = kinds.map((k) => CONDITION_KIND_NAMES[k]).join(' + ');
    const extra = kind === 'stable' && hasKey(cond, 'changed') ? ['changed'] : [];
    // The likeliest mix: an OSC leaf written with "matches" (a screen regex, which wins).
    const oscFix = kinds.includes('osc') && kind === 'regex' ? 'an OSC payload regex goes in "payload": {"osc": N, "payload": "…"}; otherwise ' : '';
    ctx.warn(
      'SPEC_MIXED_CONDITION',
      path,
      `mixes keys of several condition kinds (${mixed}); it is evaluated as a ${CONDITION_KIND_NAMES[kind]} condition and ${[...ignored, ...extra].map((k) => `"${k}"`).join(', ')} ignored`,
      undefined,
      `${oscFix}split it into separate conditions inside "all" (evaluator order: all, any, not, signal, elapsed_ms, stable_ms, matches, window_title, osc, cursor_above+changed)`,
    );
    return;
  }
  for (const key of Object.keys(cond)) {
    if (key.startsWith('_') || allowed.includes(key)) continue;
    if (ALL_CONDITION_KEYS.includes(key)) {
      ctx.warn('SPEC_IGNORED_FIELD', joinPath(path, key), `does not apply to a ${CONDITION_KIND_NAMES[kind]} condition; it is ignored`, undefined, 'remove it');
    } else {
      const hint = formatDidYouMean(key, allowed).slice(2);
      ctx.warn('SPEC_UNKNOWN_FIELD', joinPath(path, key), `unknown field in a ${CONDITION_KIND_NAMES[kind]} condition; it is ignored`, undefined, hint || `known fields: ${allowed.join(', ')}`);
    }
  }
}

function validateSignal(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  const name = cond.signal;
  if (typeof name !== 'string' || name.trim() === '') {
    ctx.error('SPEC_TYPE', joinPath(path, 'signal'), 'must be a non-empty string', showValue(name), 'name a daemon signal such as "final_assistant_present"');
  }
  if (hasKey(cond, 'equals') && typeof cond.equals !== 'boolean') {
    ctx.error('SPEC_TYPE', joinPath(path, 'equals'), 'must be a boolean', showValue(cond.equals));
  }
}

function validateStable(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  ctx.numberRangeBeyondReference(cond, 'stable_ms', path, { required: true });
  if (hasKey(cond, 'section')) ctx.sectionRef(cond, 'section', path);
  ctx.number(cond, 'cursor_above', path, { integer: true });
  if (hasKey(cond, 'changed')) ctx.boolean(cond, 'changed', path);
  const ignore = ctx.string(cond, 'ignore_lines', path);
  if (ignore !== undefined) ctx.regex(joinPath(path, 'ignore_lines'), ignore, 'm');
  if (hasKey(cond, 'section') && hasKey(cond, 'cursor_above')) {
    ctx.warn('SPEC_IGNORED_FIELD', joinPath(path, 'cursor_above'), 'is ignored because "section" takes precedence', undefined, 'keep one of section / cursor_above');
  }
}

function validateCursorBounds(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  for (const axis of ['row', 'col'] as const) {
    const min = ctx.number(cond, `cursor_${axis}_min`, path, { integer: true });
    const max = ctx.number(cond, `cursor_${axis}_max`, path, { integer: true });
    if (min !== undefined && max !== undefined && min > max) {
      ctx.warn('SPEC_NO_EFFECT', joinPath(path, `cursor_${axis}_min`), `is greater than cursor_${axis}_max, so the condition never matches`, `${min} > ${max}`, 'swap the bounds');
    }
  }
}

function validateRegexLeaf(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  const matchesPath = joinPath(path, 'matches');
  const source = cond.matches;
  const flags = ctx.flags(cond, 'flags', path);
  if (typeof source !== 'string') {
    ctx.error('SPEC_TYPE', matchesPath, 'must be a regex string', showValue(source));
  } else if (flags !== false) {
    // `flags` replaces the default "i" (spec-format §13.28).
    const effective = flags ?? 'i';
    if (ctx.regex(matchesPath, source, effective) && !effective.includes('m') && hasBareLineAnchor(source)) {
      ctx.warn(
        'SPEC_ANCHOR_LINT',
        matchesPath,
        'uses ^ or $ without the "m" flag — the anchor binds to the whole screen, not a line',
        showValue(source),
        `Add "flags": "${effective}m" or use the (?:^|\\n) idiom`,
      );
    }
  }
  if (hasKey(cond, 'section')) ctx.sectionRef(cond, 'section', path);
  validateCursorBounds(ctx, cond, path);
}

function validateWindowTitle(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  const source = cond.window_title;
  const flags = ctx.flags(cond, 'flags', path);
  if (typeof source !== 'string') {
    ctx.error('SPEC_TYPE', joinPath(path, 'window_title'), 'must be a regex string', showValue(source));
  } else if (flags !== false) {
    ctx.regex(joinPath(path, 'window_title'), source, flags ?? 'i');
  }
}

/** The OSC numbers an `osc` leaf may name: what terminals parse as an OSC identifier. */
export const MAX_OSC_NUMBER = 65535;

/** specterm extension: `{"osc": N, "payload": regex, "flags"?, "held_ms"?}` (docs/writing-specs.md). */
function validateOsc(ctx: ValidationContext, cond: Record<string, unknown>, path: string): void {
  const n = cond.osc;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_OSC_NUMBER) {
    ctx.error('SPEC_BAD_OSC', joinPath(path, 'osc'), `must be an OSC number, a whole number from 0 to ${MAX_OSC_NUMBER}`, showValue(n), 'give the number the CLI writes after ESC ] (e.g. 7501 for "ESC ] 7501 ; state=idle")');
  }
  const source = cond.payload;
  const flags = ctx.flags(cond, 'flags', path);
  if (!hasKey(cond, 'payload')) {
    ctx.error('SPEC_REQUIRED', joinPath(path, 'payload'), 'is required: the regex the last payload of that OSC number must match', undefined, 'add e.g. "payload": "^state=idle" (use ".*" for "any payload was seen")');
  } else if (typeof source !== 'string') {
    ctx.error('SPEC_TYPE', joinPath(path, 'payload'), 'must be a regex string', showValue(source));
  } else if (flags !== false) {
    ctx.regex(joinPath(path, 'payload'), source, flags ?? 'i');
  }
  ctx.number(cond, 'held_ms', path, { fix: 'give the milliseconds the payload must have stood, e.g. 150' });
}
