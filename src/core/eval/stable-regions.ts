/**
 * Stable-region bookkeeping the driver needs for `stable_ms` (spec-format §3.4, §10.1 step 4).
 *
 * The evaluator only READS `regionLastChangedAt`; the driver decides after every frame which
 * regions changed. These helpers keep the key format and the comparison rules in one place
 * so the two sides can never disagree.
 */
import type { CliSpecV4, StableCondition } from '../spec/types.js';
import type { ResolvedSection } from './types.js';
import { conditionKind } from './condition-kind.js';
import { sameJoinedLines } from './line-compare.js';
import { selectOutgoing } from './outgoing.js';
import { compileRegex, testRegex } from './regex-cache.js';
import { findSection } from './sections.js';
import { MAX_CONDITION_DEPTH } from './limits.js';

/** A region whose last-change time the driver tracks. */
export interface StableRegion {
  /** `regionLastChangedAt` key, see {@link stableRegionKey}. */
  key: number | string;
  /** Watch this section's lines (takes precedence over `cursorAbove`). */
  section?: string;
  /** Watch the N rows above the cursor. Absent with no section = the whole frame. */
  cursorAbove?: number;
  /** Lines matching this regex (flag `m`, per line) are dropped from both frames first. */
  ignoreLines?: string;
}

/** The whole-screen region key. */
export const WHOLE_SCREEN_REGION_KEY = -1;

/**
 * The `regionLastChangedAt` key of a stable leaf: `section:<id>` when it names a section,
 * else `N` when `cursor_above` N > 0, else `-1` (whole screen). With `ignore_lines` the key
 * becomes `<region>#ignore:<pattern>` so differently-filtered clauses track independently.
 */
export function stableRegionKey(cond: StableCondition): number | string {
  const c = (cond && typeof cond === 'object' ? cond : {}) as Partial<StableCondition>;
  const base = regionBase(c);
  const ignore = ignorePattern(c);
  return ignore === undefined ? base : `${String(base)}#ignore:${ignore}`;
}

/**
 * Distinct regions referenced by `stable_ms` leaves in `stateId`'s outgoing guards, always
 * starting with the whole-screen region (key -1), which the stall watchdog also reads.
 */
export function collectStableRegions(spec: CliSpecV4, stateId: string): StableRegion[] {
  // The outgoing list is cached per state (see selectOutgoing), so the regions are too.
  const outgoing = selectOutgoing(spec, stateId);
  const known = regionsCache.get(outgoing);
  if (known) return known;
  const regions = regionsOf(outgoing);
  regionsCache.set(outgoing, regions);
  return regions;
}

const regionsCache = new WeakMap<object, StableRegion[]>();

function regionsOf(outgoing: ReturnType<typeof selectOutgoing>): StableRegion[] {
  const regions: StableRegion[] = [{ key: WHOLE_SCREEN_REGION_KEY }];
  const seen = new Set<number | string>([WHOLE_SCREEN_REGION_KEY]);
  const visit = (cond: unknown, depth: number): void => {
    if (depth > MAX_CONDITION_DEPTH) return;
    const kind = conditionKind(cond);
    const c = cond as Record<string, unknown>;
    if (kind === 'all' || kind === 'any') {
      const children = c[kind];
      if (Array.isArray(children)) for (const child of children) visit(child, depth + 1);
    } else if (kind === 'not') {
      visit(c.not, depth + 1);
    } else if (kind === 'stable') {
      const region = regionFor(c as Partial<StableCondition>);
      if (!seen.has(region.key)) {
        seen.add(region.key);
        regions.push(region);
      }
    }
  };
  for (const { transition } of outgoing) visit(transition.when, 1);
  return regions;
}

/**
 * Whether `region` differs between the previous and the current frame.
 *
 * Section → that section's lines in each frame (sections resolved per frame); cursor_above N
 * → rows `[max(0, end - N), end)` with `end = clamp(cursorRow, 0, lineCount)` — when that
 * window is empty the region counts as CHANGED (an unmeasurable window must never read as
 * stable, §13.7); otherwise the whole frame. `ignore_lines` matches are dropped first.
 */
export function regionChanged(
  region: StableRegion,
  cur: { lines: string[]; sections: ResolvedSection[] },
  prev: { lines: string[]; sections: ResolvedSection[] },
  cursorRow: number,
): boolean {
  const curLines = Array.isArray(cur?.lines) ? cur.lines : [];
  const prevLines = Array.isArray(prev?.lines) ? prev.lines : [];
  let curFrom = 0;
  let curTo = curLines.length;
  let prevFrom = 0;
  let prevTo = prevLines.length;
  const r = (region && typeof region === 'object' ? region : { key: WHOLE_SCREEN_REGION_KEY }) as StableRegion;

  if (typeof r.section === 'string' && r.section) {
    const cs = findSection(cur?.sections, r.section);
    const ps = findSection(prev?.sections, r.section);
    [curFrom, curTo] = cs ? [cs.fromLine, cs.toLine] : [0, 0];
    [prevFrom, prevTo] = ps ? [ps.fromLine, ps.toLine] : [0, 0];
  } else if (typeof r.cursorAbove === 'number' && r.cursorAbove > 0) {
    const row = Number.isFinite(cursorRow) ? Math.floor(cursorRow) : 0;
    const end = Math.max(0, Math.min(row, curLines.length));
    const start = Math.max(0, end - Math.floor(r.cursorAbove));
    if (end <= start) return true;
    [curFrom, curTo, prevFrom, prevTo] = [start, end, start, end];
  }

  const ignore = typeof r.ignoreLines === 'string' && r.ignoreLines ? compileRegex(r.ignoreLines, 'm') : null;
  if (!ignore) return !sameJoinedLines(curLines, curFrom, curTo, prevLines, prevFrom, prevTo);
  const a = keepUnignored(curLines, curFrom, curTo, ignore);
  const b = keepUnignored(prevLines, prevFrom, prevTo, ignore);
  return !sameJoinedLines(a, 0, a.length, b, 0, b.length);
}

function regionBase(c: Partial<StableCondition>): number | string {
  if (typeof c.section === 'string' && c.section) return `section:${c.section}`;
  if (typeof c.cursor_above === 'number' && c.cursor_above > 0) return c.cursor_above;
  return WHOLE_SCREEN_REGION_KEY;
}

function ignorePattern(c: Partial<StableCondition>): string | undefined {
  return typeof c.ignore_lines === 'string' && c.ignore_lines ? c.ignore_lines : undefined;
}

function regionFor(c: Partial<StableCondition>): StableRegion {
  const region: StableRegion = { key: stableRegionKey(c as StableCondition) };
  if (typeof c.section === 'string' && c.section) region.section = c.section;
  else if (typeof c.cursor_above === 'number' && c.cursor_above > 0) region.cursorAbove = c.cursor_above;
  const ignore = ignorePattern(c);
  if (ignore !== undefined) region.ignoreLines = ignore;
  return region;
}

function keepUnignored(lines: string[], from: number, to: number, ignore: RegExp): string[] {
  const out: string[] = [];
  const end = Math.min(to, lines.length);
  for (let i = Math.max(0, from); i < end; i += 1) if (!testRegex(ignore, lines[i]!)) out.push(lines[i]!);
  return out;
}
