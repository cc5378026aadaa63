/**
 * When a session's turn is finished (`turn.finished`): the status returns to idle after a turn —
 * and the agent runs no work of its own any more. An agent idle at its prompt while its own
 * background shells or sub-agents run (the state's `background`, read by the spec's
 * `background_work`) is not done: the notification waits for the work to end, and a turn the agent
 * starts again meanwhile (Claude Code answers when a background shell finishes) is the same unit
 * of work. Work that never ends (a dev server, a watcher) holds it at most
 * {@link BACKGROUND_WAIT_MS}; then it fires with the state that still shows the work.
 *
 * @module
 */
import type { Scheduler, TimerHandle } from '../core/clock.js';
import type { StateView } from '../driver/events.js';

/**
 * How long an idle agent's own background work may hold "turn finished" back: long enough for a
 * background test run or a sub-agent to finish, short enough that a dev server left running
 * (which never ends) does not hide a finished turn for long.
 */
export const BACKGROUND_WAIT_MS = 5 * 60_000;

/** A finished turn: the state it ended in, and when it began and ended. */
export interface FinishedTurn {
  state: StateView;
  since: number;
  at: number;
}

/** Tracks one session's turn from its start to its finish (see the module doc). */
export class TurnCompletion {
  readonly #scheduler: Scheduler;
  readonly #onFinished: (turn: FinishedTurn) => void;
  /** When the turn under way began; null between turns. */
  #since: number | null = null;
  /** The idle state held back while the agent's own work runs, and the bound's timer. */
  #held: StateView | null = null;
  #timer: TimerHandle | null = null;

  constructor(scheduler: Scheduler, onFinished: (turn: FinishedTurn) => void) {
    this.#scheduler = scheduler;
    this.#onFinished = onFinished;
  }

  /** Whether a turn is under way or held back (the session is not done). */
  get isOpen(): boolean {
    return this.#since !== null;
  }

  /**
   * One state the session reported. `inTurn`: it belongs to a turn (generating, or a consent
   * prompt once the agent was ready), so a turn is (still) under way.
   */
  observe(state: StateView, inTurn: boolean, now: number): void {
    if (inTurn) {
      this.#since ??= now;
      this.#release();
      return;
    }
    if (this.#since === null || state.status !== 'idle') return;
    if (!state.background) {
      this.#finish(state, now);
      return;
    }
    this.#held = state;
    // The bound runs from the first idle moment with work; later counts do not restart it.
    this.#timer ??= this.#scheduler.setTimeout(() => {
      this.#timer = null;
      if (this.#held) this.#finish(this.#held, this.#scheduler.now());
    }, BACKGROUND_WAIT_MS);
  }

  /** Forgets the turn (the session exited, restarts or is let go): nothing fires. */
  reset(): void {
    this.#since = null;
    this.#release();
  }

  #finish(state: StateView, at: number): void {
    const since = this.#since!;
    this.reset();
    this.#onFinished({ state, since, at });
  }

  #release(): void {
    this.#held = null;
    this.#scheduler.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
