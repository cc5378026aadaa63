/**
 * What an FsmDriver is built from: its options, the spec source hot reload loads again, and the
 * error of options that cannot work together. Re-exported by `fsm-driver.ts` (its public API).
 *
 * @module
 */
import type { Scheduler } from '../core/clock.js';
import type { CliSpecV4 } from '../core/spec/types.js';
import type { PtyTransport } from '../terminal/transport.js';
import type { ListenerErrorSink } from '../terminal/index.js';
import type { Win32SubmitMode } from './message-sender.js';
import type { RedrawNudgeOptions } from './watchdogs.js';
import type { SpawnPlan } from './spawn-plan.js';
import type { SpecDriftOptions } from './spec-drift.js';

/** What loading the spec file again gave: the checked spec, or why it cannot run. */
export type SpecReloadResult =
  | { ok: true; spec: CliSpecV4; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[] };

/**
 * Where the running spec came from and how to load it again. The driver never reads spec files
 * itself: the harness passes the catalog's loader (ReDoS screen, size cap, line/column errors),
 * so a reload is refused for exactly what the first load refuses.
 */
export interface SpecSource {
  /** The spec's file: watched for hot reload, reported by `getSpecPath()`. */
  path: string;
  /** Reads and checks the file again. Never throws. */
  load(): SpecReloadResult;
}

/** A driver built with options that cannot work together (a programming error, not bad input). */
export class DriverConfigError extends Error {
  readonly code: 'SPEC_SOURCE_REQUIRED';
  constructor(code: 'SPEC_SOURCE_REQUIRED', message: string) {
    super(message);
    this.name = 'DriverConfigError';
    this.code = code;
  }
}

export interface FsmDriverOptions {
  spec: CliSpecV4;
  /** The spec's file and its loader: needed by hot reload and `reloadSpec()`. */
  specSource?: SpecSource;
  workingDir: string;
  transport: PtyTransport;
  scheduler?: Scheduler;
  cols?: number;
  rows?: number;
  scrollback?: number;
  extraArgs?: string[];
  removeArgs?: string[];
  extraEnv?: Record<string, string>;
  baseEnv?: Record<string, string | undefined>;
  /** Skip spawn planning and start exactly this (replays pass a placeholder). */
  spawnPlan?: SpawnPlan;
  /** Watch `specSource.path` and reload on change (requires `specSource`). Default false. */
  hotReload?: boolean;
  /** Edit the CLI's trust store before spawn (pre_launch_trust). Default true. */
  applyTrust?: boolean;
  /** The spec_drift check (a prompt the spec does not recognise); false: off. Default on, 5 s. */
  specDrift?: SpecDriftOptions | false;
  /** Read the CLI's version (spec `cli_version`) and report `version_unproven`. Default: when the driver plans the spawn. */
  checkVersion?: boolean;
  homeDir?: string;
  platform?: NodeJS.Platform;
  win32SubmitMode?: Win32SubmitMode;
  /** Minimum time between two evaluations inside a continuous output stream. */
  evalIntervalMs?: number;
  /**
   * Re-decide a frame whose text-reading leaves provably answer as in the last full evaluation
   * (only time leaves recomputed, see FrameReads). Default true; false evaluates every frame in
   * full — the differential test's reference.
   */
  reuseEvaluations?: boolean;
  redrawNudge?: Partial<RedrawNudgeOptions>;
  hostname?: string;
  /**
   * Start in this state (entered at `enteredAt`) instead of the spec's initial one: a daemon that
   * re-attaches to a running agent resumes the state it stored. The first evaluation re-checks it
   * against the screen (the state's own transitions fire if the screen says otherwise). An id the
   * spec does not have falls back to the initial state.
   */
  resumeFrom?: { state: string; enteredAt: number };
  /**
   * Where an exception thrown by a subscriber goes (the event name is `driver event`); the other
   * subscribers still get the event. Default: a process warning (`SPECTERM_LISTENER_ERROR`).
   */
  onListenerError?: ListenerErrorSink;
}
