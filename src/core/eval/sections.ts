/**
 * Section resolution: named line ranges computed from the current screen (spec-format §2).
 *
 * Two passes, exactly as the reference: pass 1 gives every section a provisional range from
 * its anchor / from_top / from_bottom; pass 2 applies `until` (a `^…` regex, or another
 * section's PASS-1 start, so there is no chaining and declaration order does not matter).
 */
import type { AnchorContext, SectionDef, SectionSize } from '../spec/types.js';
import type { ResolvedSection } from './types.js';
import { compileRegex } from './regex-cache.js';
import { DEFAULT_ROW_CACHE, type RowCache, type RowTester } from './row-tester.js';
import type { FrameReads } from './frame-reads.js';

/** A flags string no engine accepts: makes `compileRegex` report a non-string flags field as invalid. */
const INVALID_FLAGS = '\u0000';

interface Range {
  from: number;
  to: number;
}

interface AnchorCandidate {
  re: RegExp;
  prev: RegExp | null;
  next: RegExp | null;
}

/**
 * Resolves every declared section over `lines` (already split by `splitScreenLines`).
 * Returns one entry per declared section, in declaration (JSON key) order; a declared
 * section is never missing, only possibly empty. Never throws: a non-object `defs` yields
 * `[]`, and a malformed definition degrades to the whole screen.
 *
 * `cache` carries per-row anchor results from the previous frame (a driver passes its own).
 */
export function resolveSections(
  defs: Record<string, SectionDef> | undefined,
  lines: string[],
  screen?: string | (() => string),
  cache: RowCache = DEFAULT_ROW_CACHE,
  reads?: FrameReads,
): ResolvedSection[] {
  if (!defs || typeof defs !== 'object' || !Array.isArray(lines)) return [];
  const total = lines.length;
  const { ids, list, indexOf } = sectionEntries(defs);
  const pass1: Range[] = new Array<Range>(list.length);
  for (let k = 0; k < list.length; k += 1) pass1[k] = resolvePass1(list[k]!, lines, total, cache);

  const out: ResolvedSection[] = new Array<ResolvedSection>(list.length);
  for (let k = 0; k < list.length; k += 1) {
    const def = list[k]!;
    const id = ids[k]!;
    const { from } = pass1[k]!;
    let { to } = pass1[k]!;
    const until = def.until;
    if (typeof until === 'string') {
      if (until.startsWith('^')) {
        // The reference compiles `until` WITHOUT flags and searches below `from` (not below
        // the anchor line as `until_regex` does).
        const re = compileRegex(until, '');
        if (re) {
          const end = findLine(lines, re, from + 1, cache);
          if (end !== -1) to = end;
        }
      } else {
        const target = indexOf.get(until);
        if (target !== undefined) to = pass1[target]!.from;
      }
    }
    if (to < from) to = from;
    out[k] = new LazySection(id, from, to, lines, screen, reads);
  }
  return out;
}

/**
 * The same sections (ids and ranges) over other lines: for a frame known to resolve exactly as
 * the one they were resolved on (see FrameReads), whose text may differ inside them.
 */
export function rebindSections(sections: readonly ResolvedSection[], lines: string[], screen?: string | (() => string)): ResolvedSection[] {
  return sections.map((s) => new LazySection(s.id, s.fromLine, s.toLine, lines, screen, undefined));
}

/** A definitions object's ids and (sanitised) definitions in key order, and each id's position. */
interface SectionEntries {
  ids: string[];
  /** The definitions as given (to notice an edited object). */
  raw: unknown[];
  list: SectionDef[];
  indexOf: Map<string, number>;
}

/**
 * Entries per definitions object, worked out once instead of allocating `Object.entries` per
 * frame. Checked against the object's own keys and values (no allocation),
 * so an object edited in place is read again.
 */
const entriesCache = new WeakMap<object, SectionEntries>();

function sectionEntries(defs: Record<string, SectionDef>): SectionEntries {
  const known = entriesCache.get(defs);
  if (known && sameEntries(known, defs)) return known;
  const ids: string[] = [];
  const raw: unknown[] = [];
  const list: SectionDef[] = [];
  const indexOf = new Map<string, number>();
  for (const [id, def] of Object.entries(defs)) {
    indexOf.set(id, ids.length);
    ids.push(id);
    raw.push(def);
    list.push(asDef(def));
  }
  const entries = { ids, raw, list, indexOf };
  entriesCache.set(defs, entries);
  return entries;
}

function sameEntries(e: SectionEntries, defs: Record<string, SectionDef>): boolean {
  let k = 0;
  for (const id in defs) {
    if (!Object.prototype.hasOwnProperty.call(defs, id)) continue;
    if (e.ids[k] !== id || e.raw[k] !== defs[id]) return false;
    k += 1;
  }
  return k === e.ids.length;
}

/**
 * The text a condition or rule looks at: no id → the whole (cleaned) screen; an id that is
 * not a resolved section → `''` (so a regex on it simply fails to match).
 */
export function sectionText(sections: ResolvedSection[], id: string | undefined, fullScreen: string): string {
  if (!id) return fullScreen;
  if (!Array.isArray(sections)) return '';
  for (const s of sections) if (s.id === id) return s.text;
  return '';
}

/** Finds a resolved section by id (undefined when absent). */
export function findSection(sections: ResolvedSection[] | undefined, id: string): ResolvedSection | undefined {
  if (!Array.isArray(sections)) return undefined;
  for (const s of sections) if (s.id === id) return s;
  return undefined;
}

function asDef(raw: unknown): SectionDef {
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as SectionDef) : {};
}

function resolvePass1(def: SectionDef, lines: string[], total: number, cache: RowCache): Range {
  if (def.anchor !== undefined) return resolveAnchored(def, lines, total, cache);
  if (def.from_top !== undefined) return { from: resolveSize(def.from_top, total), to: total };
  if (def.from_bottom !== undefined) return { from: total - resolveSize(def.from_bottom, total), to: total };
  return { from: 0, to: total };
}

/**
 * Anchored pass-1 range. Each candidate resolves independently (first match, or last with
 * `anchor_last`); the TOPMOST resolved line wins, because an anchor marks the top of a block
 * and a stray lower landmark must not clip it (spec-format §13.10).
 */
function resolveAnchored(def: SectionDef, lines: string[], total: number, cache: RowCache): Range {
  const candidates = compileCandidates(def);
  // Any uncompilable anchor/context regex abandons the whole anchor block: whole screen,
  // even with anchor_miss (reference behaviour, §2.2 step 1.7).
  if (!candidates) return { from: 0, to: total };
  let idx = -1;
  for (const c of candidates) {
    const found = def.anchor_last ? findCandidateLast(c, lines, total, cache) : findCandidateFirst(c, lines, total, idx, cache);
    if (found !== -1 && (idx === -1 || found < idx)) idx = found;
  }
  if (idx === -1) return def.anchor_miss === 'empty' ? { from: 0, to: 0 } : { from: 0, to: total };

  const above = def.above;
  const from = typeof above === 'number' && above > 0 ? Math.max(0, idx - Math.floor(above)) : idx;
  let to = total;
  if (def.until_regex !== undefined) {
    // until_regex searches below the ANCHOR line (not below `from`); a bad regex is ignored.
    const re = typeof def.until_regex === 'string' ? compileRegex(def.until_regex, flagsOr(def.until_regex_flags, '') ?? INVALID_FLAGS) : null;
    if (re) {
      const end = findLine(lines, re, idx + 1, cache);
      if (end !== -1) to = end;
    }
  } else if (typeof def.lines === 'number' && !Number.isNaN(def.lines)) {
    to = Math.min(total, from + Math.floor(def.lines));
  }
  return { from, to };
}

/**
 * Compiled anchor candidates per section definition. Spec objects are treated as immutable once
 * evaluated (a reload builds new ones), so the definition object is the cache key.
 */
const candidateCache = new WeakMap<SectionDef, AnchorCandidate[] | null>();

function compileCandidates(def: SectionDef): AnchorCandidate[] | null {
  const hit = candidateCache.get(def);
  if (hit !== undefined) return hit;
  const compiled = compileCandidatesUncached(def);
  candidateCache.set(def, compiled);
  return compiled;
}

function compileCandidatesUncached(def: SectionDef): AnchorCandidate[] | null {
  const patterns: unknown[] = Array.isArray(def.anchor) ? def.anchor : [def.anchor];
  const ctxRaw = def.anchor_context;
  const flags = flagsOr(def.anchor_flags, '');
  const out: AnchorCandidate[] = [];
  for (let k = 0; k < patterns.length; k += 1) {
    const pattern = patterns[k];
    if (typeof pattern !== 'string' || flags === null) return null;
    const re = compileRegex(pattern, flags);
    if (!re) return null;
    const ctx = (Array.isArray(ctxRaw) ? ctxRaw[k] : ctxRaw) as AnchorContext | null | undefined;
    let prev: RegExp | null = null;
    let next: RegExp | null = null;
    if (ctx && typeof ctx === 'object') {
      if (ctx.prev !== undefined) {
        prev = typeof ctx.prev === 'string' ? compileRegex(ctx.prev, flagsOr(ctx.prev_flags, '') ?? INVALID_FLAGS) : null;
        if (!prev) return null;
      }
      if (ctx.next !== undefined) {
        next = typeof ctx.next === 'string' ? compileRegex(ctx.next, flagsOr(ctx.next_flags, '') ?? INVALID_FLAGS) : null;
        if (!next) return null;
      }
    }
    out.push({ re, prev, next });
  }
  return out;
}

/** `flags` when it is a string, `fallback` when absent, `null` (invalid) otherwise. */
function flagsOr(flags: unknown, fallback: string): string | null {
  if (flags === undefined || flags === null) return fallback;
  return typeof flags === 'string' ? flags : null;
}

/** A candidate's anchor and context testers over one frame. */
interface CandidateRows {
  re: RowTester;
  prev: RowTester | null;
  next: RowTester | null;
}

function candidateRows(c: AnchorCandidate, lines: string[], cache: RowCache): CandidateRows {
  return {
    re: cache.regex(c.re, lines),
    prev: c.prev ? cache.regex(c.prev, lines) : null,
    next: c.next ? cache.regex(c.next, lines) : null,
  };
}

/** Whether row i is this candidate's anchor. A context regex on a neighbour row that does not exist fails (`test` is false off the frame). */
function candidateAt(r: CandidateRows, i: number): boolean {
  return r.re.test(i) && (!r.prev || r.prev.test(i - 1)) && (!r.next || r.next.test(i + 1));
}

/**
 * Last anchor row. The scan jumps between rows the anchor matches (and, with a `next` context,
 * rows the context matches right below): a frame of 240 rows mostly costs a few searches of the
 * testers' known answers, not a visit per row — even for an anchor like `\S` whose context
 * matches nowhere.
 */
function findCandidateLast(c: AnchorCandidate, lines: string[], total: number, cache: RowCache): number {
  const rows = candidateRows(c, lines, cache);
  let end = total; // candidates lie in [0, end)
  while (end > 0) {
    const i = rows.re.lastMatch(0, end);
    if (i === -1) return -1;
    if (rows.next) {
      // The context row of an anchor at i ≤ k is at most k + 1.
      const j = rows.next.lastMatch(1, i + 2);
      if (j === -1) return -1;
      if (j !== i + 1) { end = j; continue; }
    }
    if (candidateAt(rows, i)) return i;
    end = i;
  }
  return -1;
}

/**
 * First anchor row, jumping like {@link findCandidateLast}. Scanning past the best index found
 * so far cannot change the topmost result, so the scan stops there (keeps multi-candidate anchors
 * linear on tall frames).
 */
function findCandidateFirst(c: AnchorCandidate, lines: string[], total: number, bestSoFar: number, cache: RowCache): number {
  const stop = bestSoFar === -1 ? total : bestSoFar;
  const rows = candidateRows(c, lines, cache);
  let from = 0; // candidates lie in [from, stop)
  while (from < stop) {
    const i = rows.re.firstMatch(from, stop);
    if (i === -1) return -1;
    if (rows.next) {
      const j = rows.next.firstMatch(i + 1, Math.min(stop, total - 1) + 1);
      if (j === -1) return -1;
      if (j !== i + 1) { from = j - 1; continue; }
    }
    if (candidateAt(rows, i)) return i;
    from = i + 1;
  }
  return -1;
}

function findLine(lines: string[], re: RegExp, start: number, cache: RowCache): number {
  return cache.regex(re, lines).firstMatch(start, lines.length);
}

/**
 * A size: a number clamped to [0, total] (fractions floored); a `"NN%"`/`"NN.N%"` string
 * becomes round(total × pct / 100) clamped; anything else → 0.
 */
function resolveSize(size: SectionSize | undefined, total: number): number {
  if (typeof size === 'number') {
    if (Number.isNaN(size)) return 0;
    return Math.max(0, Math.min(total, Math.floor(size)));
  }
  if (typeof size !== 'string') return 0;
  const m = /^(\d+(?:\.\d+)?)%$/.exec(size);
  if (!m) return 0;
  return Math.max(0, Math.min(total, Math.round((total * Number(m[1])) / 100)));
}

/**
 * A resolved section whose `text` is joined on first read: most guards read one or two
 * sections, and joining every section of a 240-line frame on every evaluation was measurable.
 *
 * `text` is an own enumerable property (spreads, JSON and deep equality see a plain section)
 * whose getter is one shared function. A getter written in an object literal is a new closure
 * per section that V8 holds from the old generation, so every frame it closed over survived
 * the young-generation GC (promoted, freed only by a full GC).
 */
class LazySection implements ResolvedSection {
  declare readonly text: string;
  readonly #lines: string[];
  readonly #screen: string | (() => string) | undefined;
  readonly #reads: FrameReads | undefined;
  #text: string | undefined;

  constructor(
    readonly id: string,
    readonly fromLine: number,
    readonly toLine: number,
    lines: string[],
    screen: string | (() => string) | undefined,
    reads: FrameReads | undefined,
  ) {
    this.#lines = lines;
    this.#screen = screen;
    this.#reads = reads;
    Object.defineProperty(this, 'text', TEXT_PROPERTY);
  }

  static textOf(section: LazySection): string {
    section.#reads?.text(section.fromLine, section.toLine);
    if (section.#text === undefined) {
      const lines = section.#lines;
      const screen = section.#screen;
      const { fromLine, toLine } = section;
      const whole = fromLine === 0 && toLine === lines.length;
      section.#text = whole && screen !== undefined ? (typeof screen === 'function' ? screen() : screen) : joinRange(lines, fromLine, toLine);
    }
    return section.#text;
  }
}

const TEXT_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  configurable: false,
  get(this: LazySection): string {
    return LazySection.textOf(this);
  },
};

function joinRange(lines: string[], from: number, to: number): string {
  if (to <= from) return '';
  if (from === 0 && to === lines.length) return lines.join('\n');
  return lines.slice(from, to).join('\n');
}
