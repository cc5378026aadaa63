/**
 * When the driver evaluates: the output evaluation timer and the wake timer, two slots of the
 * driver's TimerStore whose callbacks are bound once (both re-arm on the per-frame path).
 *
 * Output is parsed into the screen at once; evaluation is scheduled:
 *  - output after at least QUIET_MS of silence (an agent starting to work, a modal popping up
 *    on a still screen) is evaluated EVAL_SETTLE_MS later — the chunks of one repaint are seen
 *    together, and detection takes a few milliseconds;
 *  - inside a stream (chunks less than QUIET_MS apart: a spinner repainting, text streaming)
 *    evaluation waits for QUIET_MS of silence (the end of the stream), but never longer than
 *    `evalIntervalMs` after the previous evaluation, so a long stream is still sampled.
 * Timers (holds, elapsed_ms, stable_ms) always evaluate at their exact due time. Spinners
 * repaint every 60–120 ms, so they count as streams; the reference evaluated every 80 ms.
 *
 * @module
 */
import type { StateStatus } from '../core/spec/types.js';
import { WAKE_FLOOR_MS, WAKE_SLACK_MS, type TimerSlot, type TimerStore } from './timer-store.js';

const EVAL_SETTLE_MS = 4;
const QUIET_MS = 150;
const DEFAULT_EVAL_INTERVAL_MS = 250;
/** While a modal is up, re-read it at least this often even on a silent screen (§13.16). */
const APPROVAL_REFRESH_MS = 2000;
/** A transition re-evaluates at once so chains settle; this many in a row without output stop that. */
const MAX_CHAINED_TRANSITIONS = 16;

/** Why a timer of the cadence evaluates. */
export type CadenceReason = 'output' | 'timer' | 'chain';

/** What the cadence reads from and does through the driver. */
export interface EvalCadenceHost {
  now(): number;
  status(): StateStatus;
  reevaluate(reason: CadenceReason): void;
}

export class EvalCadence {
  readonly #host: EvalCadenceHost;
  readonly #evalIntervalMs: number;
  readonly #evalTimer: TimerSlot;
  #evalIsLeading = false;
  /** When the output evaluation is due; may move past the armed timer, which then re-arms. */
  #evalDueAt = 0;
  readonly #wakeTimer: TimerSlot;
  #wakeIsChain = false;
  #lastEvalAt = -Infinity;
  #chainedTransitions = 0;

  constructor(host: EvalCadenceHost, timers: TimerStore, evalIntervalMs: number = DEFAULT_EVAL_INTERVAL_MS) {
    this.#host = host;
    this.#evalIntervalMs = evalIntervalMs;
    this.#evalTimer = timers.slot(this.#onEvalTimer);
    this.#wakeTimer = timers.slot(this.#onWake);
  }

  /** Output arrived at `now` after `silenceMs` of silence: schedules its evaluation. */
  onOutput(now: number, silenceMs: number): void {
    let dueAt: number;
    const leading = silenceMs >= QUIET_MS && !this.#evalTimer.isArmed();
    if (leading) {
      dueAt = now + EVAL_SETTLE_MS;
    } else {
      // A pending leading-edge evaluation will see this chunk too.
      if (this.#evalTimer.isArmed() && this.#evalIsLeading) return;
      dueAt = Math.min(now + QUIET_MS, Math.max(this.#lastEvalAt + this.#evalIntervalMs, now + EVAL_SETTLE_MS));
      // Inside a stream the due time only moves later: keep the armed timer and let it re-arm
      // itself for the rest when it fires (one timer per stream, not one per chunk).
      if (this.#evalTimer.isArmed() && dueAt >= this.#evalDueAt) {
        this.#evalDueAt = dueAt;
        return;
      }
    }
    this.#evalIsLeading = leading;
    this.#armEvalTimer(now, dueAt);
  }

  /** An evaluation runs at `now` (one that was not skipped); output ends a chain of transitions. */
  onEvaluation(now: number, reason: string): void {
    if (reason === 'output') this.#chainedTransitions = 0;
    this.#lastEvalAt = now;
  }

  /**
   * Arms the wake after a decision. After a move to another state the wake comes at once (up to
   * MAX_CHAINED_TRANSITIONS in a row), so chains (A→B→C, §15.6) settle instead of waiting for
   * output or a wake from a stale table; otherwise `soonestMs` from now.
   */
  afterDecision(movedState: boolean, soonestMs: number): void {
    if (movedState && this.#chainedTransitions < MAX_CHAINED_TRANSITIONS) {
      this.#chainedTransitions += 1;
      this.#armWake(0);
    } else {
      this.#scheduleWake(soonestMs);
    }
  }

  #armEvalTimer(now: number, dueAt: number): void {
    this.#evalDueAt = dueAt;
    this.#evalTimer.arm(dueAt - now);
  }

  /** The evaluation timer's callback (one function for every arm: it is re-armed per stream). */
  readonly #onEvalTimer = (): void => {
    const t = this.#host.now();
    if (t < this.#evalDueAt) { this.#armEvalTimer(t, this.#evalDueAt); return; }
    this.#host.reevaluate('output');
  };

  readonly #onWake = (): void => {
    this.#host.reevaluate(this.#wakeIsChain ? 'chain' : 'timer');
  };

  #armWake(delayMs: number): void {
    const chain = delayMs === 0;
    const dueAt = this.#host.now() + delayMs;
    // Most evaluations ask for the wake that is already armed (a hold or a countdown that did not
    // move): keep that timer rather than cancel it and arm an equal one.
    if (this.#wakeTimer.isArmed() && this.#wakeTimer.dueAt() === dueAt && this.#wakeIsChain === chain) return;
    this.#wakeIsChain = chain;
    this.#wakeTimer.arm(delayMs);
  }

  /**
   * Re-evaluate when the soonest time condition or hold could flip (§10.1): `soonestMs` from now
   * (+slack, floored), or never (Infinity); at most 2 s away in approval.
   */
  #scheduleWake(soonestMs: number): void {
    let soonest = soonestMs;
    if (this.#host.status() === 'approval') soonest = Math.min(soonest, APPROVAL_REFRESH_MS);
    if (!Number.isFinite(soonest)) {
      this.#wakeTimer.cancel();
      return;
    }
    this.#armWake(Math.max(soonest + WAKE_SLACK_MS, WAKE_FLOOR_MS));
  }
}
