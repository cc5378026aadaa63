/**
 * specterm's programmatic API. Everything else under dist/ is internal.
 */

/** The spec model, validation, JSON Schema and graph rendering (pure). */
export * from './core/spec/index.js';

/** Pure evaluation: sections, conditions, FSM step, extraction. */
export {
  resolveSections, sectionText, evaluateCondition, evaluateFsm, evaluateConditionPreview, extractTitle, extractButtons, deriveModal,
  type Cursor, type ResolvedSection, type FsmClock, type EvalExtras, type CondResult, type TransitionEval, type FsmEvaluation,
  type ModalButton, type ModalSnapshot,
} from './core/eval/index.js';

/** Time as a parameter. */
export type { Scheduler, TimerHandle } from './core/clock.js';
export { RealScheduler, VirtualScheduler } from './driver/schedulers.js';

/** The driver: one agent CLI under one spec. */
export { FsmDriver, DriverConfigError, type FsmDriverOptions, type SpecSource, type SpecReloadResult } from './driver/fsm-driver.js';
export type {
  DashboardEvent, DashboardCommand, DispatchResult, RefusalCode, StateView, ModalView, ControlView, DriverHistoryEntry, FsmSnapshotEntry,
} from './driver/events.js';
export { planSpawn, type SpawnPlan } from './driver/spawn-plan.js';
export { applyPreLaunchTrust } from './driver/pre-launch-trust.js';

/** Terminal edge: real PTY transport and the headless screen. */
export { createPtyTransport, TerminalScreen, type PtyTransport, type SpawnRequest } from './terminal/index.js';

/** Recordings: asciicast v2 and the replay transport. */
export { parseAsciicast, AsciicastRecorder, ReplayTransport, RecordingError } from './recording/index.js';

/** Specs on disk: built-in ids and files. */
export { loadSpec, loadSpecFromText, screenRegexWithRecheck } from './catalog/index.js';
export { resolveSpecRef, loadSpecRef, listBuiltinSpecs } from './catalog/builtin.js';

/** Sessions: live (real PTY) and replayed (virtual time). */
export { startLiveSession, type LiveSession, type LiveSessionOptions } from './harness/live-session.js';
export { catalogSpecSource } from './harness/spec-source.js';
export { replaySession, type ReplayOptions, type ReplayResult, type StateChangeRecord } from './harness/replay-session.js';
