/**
 * Validation of section definitions (spec-format §2). The reference leaves these unchecked
 * and degrades them at runtime (§2.1, §2.2), and `resolveSections` degrades them the same way;
 * so what the reference would run is reported through `ctx.beyondReference` (a warning, an
 * error under strict). Shapes whose runtime meaning the reference leaves unknown (a number as
 * an anchor, a non-string `until`) stay errors.
 */
import { didYouMeanOr, hasKey, isRecord, joinPath, showGot, showValue, type ValidationContext } from './validate-context.js';

const SECTION_FIELDS = [
  'anchor', 'anchor_flags', 'anchor_last', 'anchor_context', 'above', 'anchor_miss',
  'lines', 'until_regex', 'until_regex_flags', 'until', 'from_top', 'from_bottom',
] as const;
const CONTEXT_FIELDS = ['prev', 'prev_flags', 'next', 'next_flags'] as const;
/** A percentage size, 0–100% (the JSON Schema uses the same pattern). */
export const PERCENT_RE = /^(?:100(?:\.0+)?|\d{1,2}(?:\.\d+)?)%$/;
/** Fields that only act on anchored sections. */
const ANCHOR_ONLY_FIELDS = ['anchor_flags', 'anchor_last', 'anchor_context', 'above', 'anchor_miss', 'lines', 'until_regex', 'until_regex_flags'] as const;

/**
 * Reads the declared section ids into the context (null when `sections` is malformed,
 * so references are not reported twice). Call before validating anything that refers
 * to sections.
 */
export function collectSectionIds(ctx: ValidationContext, sections: unknown): void {
  if (sections === undefined) ctx.sectionIds = new Set();
  else if (isRecord(sections)) ctx.sectionIds = new Set(Object.keys(sections));
  else ctx.sectionIds = null;
}

/** Validates `spec.sections` and every definition in it. */
export function validateSections(ctx: ValidationContext, sections: unknown): void {
  if (sections === undefined) return;
  if (!isRecord(sections)) {
    ctx.error('SPEC_TYPE', 'sections', 'must be an object mapping section ids to definitions', showGot(sections), 'use {"body": {"from_top": 0}}');
    return;
  }
  for (const [id, def] of Object.entries(sections)) {
    const path = joinPath('sections', id);
    if (!isRecord(def)) {
      ctx.error('SPEC_TYPE', path, 'must be a section definition object', showGot(def));
      continue;
    }
    validateSectionDef(ctx, id, def, path);
  }
}

function validateSectionDef(ctx: ValidationContext, id: string, def: Record<string, unknown>, path: string): void {
  ctx.unknownKeys(def, path, SECTION_FIELDS, 'a section definition');
  const anchored = hasKey(def, 'anchor');
  if (anchored) validateAnchor(ctx, def, path);
  else {
    for (const key of ANCHOR_ONLY_FIELDS) {
      if (hasKey(def, key)) ctx.warn('SPEC_IGNORED_FIELD', joinPath(path, key), 'only applies to anchored sections; it is ignored without "anchor"', undefined, 'add an "anchor" or remove it');
    }
  }
  validateSize(ctx, def, 'from_top', path);
  validateSize(ctx, def, 'from_bottom', path);
  if (anchored && (hasKey(def, 'from_top') || hasKey(def, 'from_bottom'))) {
    ctx.warn('SPEC_IGNORED_FIELD', path, '"anchor" takes precedence, so from_top/from_bottom are ignored', undefined, 'keep either the anchor or the size');
  } else if (hasKey(def, 'from_top') && hasKey(def, 'from_bottom')) {
    ctx.warn('SPEC_IGNORED_FIELD', joinPath(path, 'from_bottom'), 'is ignored because from_top takes precedence', undefined, 'keep one of from_top / from_bottom');
  }
  validateUntil(ctx, id, def, path);
}

function validateAnchor(ctx: ValidationContext, def: Record<string, unknown>, path: string): void {
  // Bad flags make the anchor fail to compile: the block is abandoned (§2.2 step 1.7).
  const flags = ctx.beyondReference(() => ctx.flags(def, 'anchor_flags', path));
  if (typeof flags === 'string' && /[gy]/.test(flags)) {
    // §13.27: a stateful RegExp (lastIndex) makes test() alternate between true and false.
    ctx.warn('SPEC_STATEFUL_FLAGS', joinPath(path, 'anchor_flags'), `contains "${flags.match(/[gy]/)![0]}", which makes each test() depend on the previous one`, showValue(flags), 'remove "g"/"y" from anchor_flags');
  }
  const anchor = def.anchor;
  const anchorPath = joinPath(path, 'anchor');
  let candidates = 1;
  if (typeof anchor === 'string') {
    if (flags !== false) tolerantRegex(ctx, anchorPath, anchor, flags ?? '');
  } else if (Array.isArray(anchor) && anchor.length > 0) {
    candidates = anchor.length;
    anchor.forEach((item, i) => {
      if (typeof item !== 'string') ctx.error('SPEC_TYPE', `${anchorPath}[${i}]`, 'must be a regex string', showGot(item));
      else if (flags !== false) tolerantRegex(ctx, `${anchorPath}[${i}]`, item, flags ?? '');
    });
  } else {
    ctx.error('SPEC_TYPE', anchorPath, 'must be a regex string or a non-empty array of regex strings', showGot(anchor));
  }
  // Read for truthiness, as the reference does; anything else is "first match".
  ctx.beyondReference(() => ctx.boolean(def, 'anchor_last', path));
  // Any number runs as in the reference (≤ 0 → no `above`; a negative `lines` → an empty
  // section); a non-number stays an error (`"3"` as `lines` would concatenate there).
  ctx.numberRangeBeyondReference(def, 'above', path, { integer: true });
  ctx.numberRangeBeyondReference(def, 'lines', path, { integer: true });
  if (hasKey(def, 'anchor_miss') && def.anchor_miss !== 'empty') {
    // Only "empty" means anything; any other value is a miss covering the whole screen.
    ctx.beyondReference(() => ctx.error('SPEC_ENUM', joinPath(path, 'anchor_miss'), 'must be "empty"', showGot(def.anchor_miss), 'use "empty" or omit it (a miss then covers the whole screen)'));
  }
  const untilFlags = ctx.beyondReference(() => ctx.flags(def, 'until_regex_flags', path));
  const untilRegex = ctx.string(def, 'until_regex', path);
  // A bad until_regex is ignored: the section runs to the bottom (§2.2 step 1.5).
  if (untilRegex !== undefined && untilFlags !== false) tolerantRegex(ctx, joinPath(path, 'until_regex'), untilRegex, untilFlags ?? '');
  if (hasKey(def, 'until_regex_flags') && !hasKey(def, 'until_regex')) {
    ctx.warn('SPEC_IGNORED_FIELD', joinPath(path, 'until_regex_flags'), 'has no effect without until_regex', undefined, 'remove it');
  }
  if (hasKey(def, 'anchor_context')) validateAnchorContext(ctx, def.anchor_context, joinPath(path, 'anchor_context'), candidates);
}

/**
 * A regex the reference compiles at runtime and skips when it fails: a failure is tolerated,
 * an exponential ReDoS verdict stays an error (the context records it as one regardless).
 */
function tolerantRegex(ctx: ValidationContext, path: string, source: string, flags: string): void {
  ctx.beyondReference(() => ctx.regex(path, source, flags));
}

function validateAnchorContext(ctx: ValidationContext, value: unknown, path: string, candidates: number): void {
  if (Array.isArray(value)) {
    if (value.length !== candidates) {
      ctx.warn('SPEC_NO_EFFECT', path, `has ${value.length} entries for ${candidates} anchor candidate(s); entries are matched by position`, undefined, 'give one entry (or null) per anchor');
    }
    value.forEach((entry, i) => {
      if (entry !== null) validateContextObject(ctx, entry, `${path}[${i}]`);
    });
  } else {
    validateContextObject(ctx, value, path);
  }
}

function validateContextObject(ctx: ValidationContext, value: unknown, path: string): void {
  if (!isRecord(value)) {
    // A context that is not an object has no prev/next: the candidate is unguarded.
    ctx.beyondReference(() => ctx.error('SPEC_TYPE', path, 'must be an object {prev?, prev_flags?, next?, next_flags?} (or null inside an array)', showGot(value)));
    return;
  }
  ctx.unknownKeys(value, path, CONTEXT_FIELDS, 'an anchor context');
  for (const side of ['prev', 'next'] as const) {
    const flags = ctx.beyondReference(() => ctx.flags(value, `${side}_flags`, path));
    const source = ctx.string(value, side, path);
    if (source !== undefined && flags !== false) tolerantRegex(ctx, joinPath(path, side), source, flags ?? '');
  }
}

/**
 * A size is a line count ≥ 0 or a percentage string "NN%" / "NN.N%" up to 100%. Anything else
 * runs as the reference runs it (§2.1): numbers are clamped to the screen, percentages over 100%
 * too, and any other value — a numeric string such as "3" included — is 0 lines.
 */
function validateSize(ctx: ValidationContext, def: Record<string, unknown>, key: string, path: string): void {
  if (!hasKey(def, key)) return;
  const v = def[key];
  ctx.beyondReference(() => {
    if (typeof v !== 'number') {
      if (typeof v !== 'string' || !PERCENT_RE.test(v)) {
        ctx.error('SPEC_BAD_SIZE', joinPath(path, key), 'must be a line count or a percentage such as "25%" (0–100%)', showGot(v), `any other value is 0 lines, so ${key === 'from_top' ? 'the section is the whole screen' : 'the section is empty'}`);
      }
      return;
    }
    ctx.number(def, key, path, { integer: true, fix: 'or use a percentage string such as "25%"' });
  });
}

function validateUntil(ctx: ValidationContext, id: string, def: Record<string, unknown>, path: string): void {
  const until = ctx.string(def, 'until', path, { nonEmpty: true });
  if (until === undefined) return;
  const untilPath = joinPath(path, 'until');
  if (until.startsWith('^')) {
    // Pass 2 compiles an until regex without flags and ignores it when invalid (spec-format §2.2).
    tolerantRegex(ctx, untilPath, until, '');
    return;
  }
  const known = ctx.sectionIds ? [...ctx.sectionIds] : [];
  if (!known.includes(until)) {
    // An unknown id has no effect at runtime (§2.2 pass 2).
    ctx.beyondReference(() => ctx.error('SPEC_UNKNOWN_SECTION', untilPath, `unknown section "${until}"`, `known: ${known.join(', ')}`, didYouMeanOr(until, known, 'a regex must start with "^"; otherwise name a declared section')));
  } else if (until === id) {
    ctx.warn('SPEC_NO_EFFECT', untilPath, 'names its own section, so the section is always empty', showValue(until), 'name another section or use a "^…" regex');
  }
}
