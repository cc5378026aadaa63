/**
 * Replaying a recording through the real driver in virtual time: the same FsmDriver that
 * runs live, fed by a ReplayTransport on a VirtualScheduler, so a whole session replays
 * deterministically in milliseconds and every timing rule behaves as it did live.
 */
import type { CliSpecV4 } from '../core/spec/types.js';
import { FsmDriver } from '../driver/fsm-driver.js';
import type { DashboardEvent, ModalView } from '../driver/events.js';
import { VirtualScheduler } from '../driver/schedulers.js';
import { ReplayTransport, type Asciicast } from '../recording/index.js';
import { catalogSpecSource } from './spec-source.js';

/** After the last event, virtual time runs on this long so time-based transitions settle. */
export const DEFAULT_TAIL_MS = 10_000;

/** One line of `specterm replay --json`: a change of the reported state, status or modal. */
export interface StateChangeRecord {
  /** Seconds in recording time. */
  t: number;
  state: string;
  status: string;
  modal: ModalView | null;
}

export interface ReplayOptions {
  cast: Asciicast;
  spec: CliSpecV4;
  specPath?: string;
  /** Virtual time to run after the last event (default 10 000 ms). */
  tailMs?: number;
  /** Stop at this recording time (ms) instead of the end + tail. */
  untilMs?: number;
  /** Override the driver's evaluation cadence inside output streams (tuning and benchmarks). */
  evalIntervalMs?: number;
  /** Evaluate every frame in full (the driver's `reuseEvaluations: false`): the differential test's reference. */
  fullEvaluations?: boolean;
  /** Every driver event, with its time in ms. */
  onEvent?: (ev: DashboardEvent, atMs: number) => void;
}

export interface ReplayResult {
  changes: StateChangeRecord[];
  /** The driver, still alive at the stop time (inspect it, then call `shutdown()`). */
  driver: FsmDriver;
  transport: ReplayTransport;
  scheduler: VirtualScheduler;
  /** Time of the recording's last event (ms). */
  endMs: number;
  /** Where virtual time stopped (ms). */
  stoppedAtMs: number;
  /** The recording's resize (`r`) events played before the stop, in order. */
  resizes: Array<{ atMs: number; cols: number; rows: number }>;
}

/**
 * Whether `b` repeats the change `a` recorded: same state, status and modal. The modal's cursor
 * (`current`) does not count: a state change list (`specterm replay`, a recording's timeline)
 * lists what the session showed, not each step of a person arrowing through the options.
 */
export function sameChange(a: StateChangeRecord | undefined, b: StateChangeRecord): boolean {
  return !!a && a.state === b.state && a.status === b.status && modalKey(a.modal) === modalKey(b.modal);
}

function modalKey(m: ModalView | null): string {
  return m === null ? 'null' : JSON.stringify([m.title, m.kind, m.buttons.map((b) => [b.index, b.label])]);
}

/** Replays `cast` under `spec` and returns the state changes (the initial state included). */
export function replaySession(opts: ReplayOptions): ReplayResult {
  const scheduler = new VirtualScheduler(0);
  const transport = new ReplayTransport(opts.cast, scheduler);
  const driver = new FsmDriver({
    spec: opts.spec,
    specSource: opts.specPath ? catalogSpecSource(opts.specPath) : undefined,
    workingDir: process.cwd(),
    transport,
    scheduler,
    cols: transport.cols,
    rows: transport.rows,
    applyTrust: false,
    // A replay runs no program: nothing to plan, nothing to look up on PATH.
    spawnPlan: { file: opts.spec.binary, args: [], cwd: process.cwd(), env: {}, cols: transport.cols, rows: transport.rows, resolvedBinary: opts.spec.binary, viaShell: false, argvForDisplay: [opts.spec.binary] },
    redrawNudge: { silentMs: 0 },
    ...(opts.evalIntervalMs !== undefined ? { evalIntervalMs: opts.evalIntervalMs } : {}),
    ...(opts.fullEvaluations ? { reuseEvaluations: false } : {}),
  });
  const changes: StateChangeRecord[] = [];
  driver.subscribe((ev) => {
    opts.onEvent?.(ev, scheduler.now());
    if (ev.kind !== 'state_changed') return;
    const rec: StateChangeRecord = { t: Math.round(scheduler.now()) / 1000, state: ev.state.id, status: ev.state.status, modal: ev.modal };
    if (!sameChange(changes[changes.length - 1], rec)) changes.push(rec);
  });
  const resizes: ReplayResult['resizes'] = [];
  transport.onResize(({ cols, rows }) => {
    resizes.push({ atMs: scheduler.now(), cols, rows });
    driver.resize(cols, rows);
  });
  driver.start();
  const endMs = transport.endTimeMs;
  const stopAt = opts.untilMs ?? endMs + (opts.tailMs ?? DEFAULT_TAIL_MS);
  scheduler.advanceTo(stopAt);
  return { changes, driver, transport, scheduler, endMs, stoppedAtMs: stopAt, resizes };
}
