/**
 * Validation of section definitions (spec-format §2). The reference leaves these
 * unchecked and silently degrades bad anchors at runtime; we report them.
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
  const flags = ctx.flags(def, 'anchor_flags', path);
  if (typeof flags === 'string' && /[gy]/.test(flags)) {
    // §13.27: a stateful RegExp (lastIndex) makes test() alternate between true and false.
    ctx.warn('SPEC_STATEFUL_FLAGS', joinPath(path, 'anchor_flags'), `contains "${flags.match(/[gy]/)![0]}", which makes each test() depend on the previous one`, showValue(flags), 'remove "g"/"y" from anchor_flags');
  }
  const anchor = def.anchor;
  const anchorPath = joinPath(path, 'anchor');
  let candidates = 1;
  if (typeof anchor === 'string') {
    if (flags !== false) ctx.regex(anchorPath, anchor, flags ?? '');
  } else if (Array.isArray(anchor) && anchor.length > 0) {
    candidates = anchor.length;
    anchor.forEach((item, i) => {
      if (typeof item !== 'string') ctx.error('SPEC_TYPE', `${anchorPath}[${i}]`, 'must be a regex string', showGot(item));
      else if (flags !== false) ctx.regex(`${anchorPath}[${i}]`, item, flags ?? '');
    });
  } else {
    ctx.error('SPEC_TYPE', anchorPath, 'must be a regex string or a non-empty array of regex strings', showGot(anchor));
  }
  ctx.boolean(def, 'anchor_last', path);
  ctx.number(def, 'above', path, { integer: true });
  ctx.number(def, 'lines', path, { integer: true });
  if (hasKey(def, 'anchor_miss') && def.anchor_miss !== 'empty') {
    ctx.error('SPEC_ENUM', joinPath(path, 'anchor_miss'), 'must be "empty"', showGot(def.anchor_miss), 'use "empty" or omit it (a miss then covers the whole screen)');
  }
  const untilFlags = ctx.flags(def, 'until_regex_flags', path);
  const untilRegex = ctx.string(def, 'until_regex', path);
  if (untilRegex !== undefined && untilFlags !== false) ctx.regex(joinPath(path, 'until_regex'), untilRegex, untilFlags ?? '');
  if (hasKey(def, 'until_regex_flags') && !hasKey(def, 'until_regex')) {
    ctx.warn('SPEC_IGNORED_FIELD', joinPath(path, 'until_regex_flags'), 'has no effect without until_regex', undefined, 'remove it');
  }
  if (hasKey(def, 'anchor_context')) validateAnchorContext(ctx, def.anchor_context, joinPath(path, 'anchor_context'), candidates);
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
    ctx.error('SPEC_TYPE', path, 'must be an object {prev?, prev_flags?, next?, next_flags?} (or null inside an array)', showGot(value));
    return;
  }
  ctx.unknownKeys(value, path, CONTEXT_FIELDS, 'an anchor context');
  for (const side of ['prev', 'next'] as const) {
    const flags = ctx.flags(value, `${side}_flags`, path);
    const source = ctx.string(value, side, path);
    if (source !== undefined && flags !== false) ctx.regex(joinPath(path, side), source, flags ?? '');
  }
}

/** A size is a line count ≥ 0 or a percentage string "NN%" / "NN.N%" up to 100%. */
function validateSize(ctx: ValidationContext, def: Record<string, unknown>, key: string, path: string): void {
  if (!hasKey(def, key)) return;
  const v = def[key];
  if (typeof v === 'string') {
    if (!PERCENT_RE.test(v)) {
      ctx.error('SPEC_BAD_SIZE', joinPath(path, key), 'must be a line count or a percentage such as "25%" (0–100%)', showGot(v), 'any other string resolves to 0 lines');
    }
    return;
  }
  ctx.number(def, key, path, { integer: true, fix: 'or use a percentage string such as "25%"' });
}

function validateUntil(ctx: ValidationContext, id: string, def: Record<string, unknown>, path: string): void {
  const until = ctx.string(def, 'until', path, { nonEmpty: true });
  if (until === undefined) return;
  const untilPath = joinPath(path, 'until');
  if (until.startsWith('^')) {
    // Pass 2 compiles an until regex without flags (spec-format §2.2).
    ctx.regex(untilPath, until, '');
    return;
  }
  const known = ctx.sectionIds ? [...ctx.sectionIds] : [];
  if (!known.includes(until)) {
    ctx.error('SPEC_UNKNOWN_SECTION', untilPath, `unknown section "${until}"`, `known: ${known.join(', ')}`, didYouMeanOr(until, known, 'a regex must start with "^"; otherwise name a declared section'));
  } else if (until === id) {
    ctx.warn('SPEC_NO_EFFECT', untilPath, 'names its own section, so the section is always empty', showValue(until), 'name another section or use a "^…" regex');
  }
}
