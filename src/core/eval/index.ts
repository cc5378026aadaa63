/**
 * The pure evaluation core: sections, conditions, FSM transitions, extraction.
 *
 * Everything here is a deterministic function of its inputs (time is a parameter) and
 * never throws on malformed input.
 */

/** Screen text → lines (one trailing `\r` stripped per line). */
export { splitScreenLines } from '../screen/lines.js';

/** Compile-once regexes and stateless use of shared `RegExp` objects. */
export { compileRegex, testRegex, execRegex, execRow, execAll } from './regex-cache.js';

/** Per-row results carried across frames (one cache per session). */
export { RowCache, DEFAULT_ROW_CACHE } from './row-tester.js';
export { FrameReads, StaleLeaves } from './frame-reads.js';

/** Sections: named line ranges over the current frame. */
export { resolveSections, rebindSections, sectionText, findSection } from './sections.js';

/** Conditions: a guard tree → a `CondResult` tree. */
export { evaluateCondition, MAX_CONDITION_DEPTH, type ConditionContext } from './conditions.js';
export { conditionKind, type ConditionKindName } from './condition-kind.js';

/** FSM: which outgoing transition fires on this frame, and why. */
export { decideFsmLines, evaluateFsm, evaluateFsmLines, soonestFlipMs, type FsmDecision, type FsmFrameArgs } from './fsm.js';

/** Extraction for modal states. */
export { extractButtons, deriveModal, mapKeyToken } from './extract.js';
export { extractTitle } from './extract-title.js';
export type { FrameCells } from './label-continuation.js';

/** Editor preview with a synthetic clock. */
export { evaluateConditionPreview } from './preview.js';

/** Region tracking the driver performs for `stable_ms`. */
export {
  stableRegionKey,
  collectStableRegions,
  regionChanged,
  WHOLE_SCREEN_REGION_KEY,
  type StableRegion,
} from './stable-regions.js';

/** Equality of two line windows as the reference defines it (joined texts), checked from the bottom. */
export { sameJoinedLines } from './line-compare.js';

/** Result shapes. */
export type {
  Cursor,
  ResolvedSection,
  TraceEntry,
  FsmClock,
  EvalExtras,
  OscValue,
  CondKind,
  CondResult,
  TransitionEval,
  FsmEvaluation,
  ModalButton,
  ModalSnapshot,
  RegexMemo,
} from './types.js';
