/**
 * One-off condition evaluation for a spec editor's live preview (spec-format §3.8).
 */
import type { Condition, SectionDef } from '../spec/types.js';
import { splitScreenLines } from '../screen/lines.js';
import type { CondResult, Cursor } from './types.js';
import { evaluateCondition } from './conditions.js';
import { resolveSections } from './sections.js';

/**
 * Evaluates `cond` against `screenText` with `sections` resolved over it and a synthetic
 * clock (`now = 0`, state entered at 0, no region timestamps, no previous frame). So regex
 * leaves report real matches, `elapsed_ms`/`stable_ms` > 0 are false with their full
 * countdown, and `changed` is false. Never throws.
 */
export function evaluateConditionPreview(
  cond: Condition,
  sections: Record<string, SectionDef> | undefined,
  screenText: string,
  cursor?: Cursor,
): CondResult {
  const lines = splitScreenLines(screenText);
  return evaluateCondition(cond, {
    lines,
    screen: lines.join('\n'),
    sections: resolveSections(sections, lines),
    cursor,
    clock: { now: 0, stateEnteredAt: 0, regionLastChangedAt: new Map() },
    traceLabel: 'preview',
  });
}
