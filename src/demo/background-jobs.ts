/**
 * The Demo Agent's background jobs (`/bg N`): work of its own that goes on after its answer, as
 * Claude Code's background shells do, so the idle-with-background-work path can be driven
 * deterministically. Time is scenario time, fed by the session's `advance`.
 * @module
 */

/** Longest job `/bg` starts (an hour): enough for any test, bounded so a typo cannot run for days. */
const MAX_JOB_SECONDS = 3600;
const MIN_JOB_SECONDS = 0.1;

/** What `/bg` answers to a duration it cannot use. */
export const BG_USAGE = `Usage: /bg <seconds> — a number from ${MIN_JOB_SECONDS} to ${MAX_JOB_SECONDS}, e.g. /bg 3`;

/** `/bg`'s argument in milliseconds, or null when it is not a plain number of seconds within bounds. */
export function parseJobSeconds(arg: string | undefined): number | null {
  if (arg === undefined || !/^\d+(?:\.\d+)?$/.test(arg)) return null;
  const seconds = Number(arg);
  return seconds >= MIN_JOB_SECONDS && seconds <= MAX_JOB_SECONDS ? Math.round(seconds * 1000) : null;
}

/** The jobs running, each with its time left. */
export class BackgroundJobs {
  #remainingMs: number[] = [];

  get count(): number {
    return this.#remainingMs.length;
  }

  start(durationMs: number): void {
    this.#remainingMs.push(durationMs);
  }

  /** Advances every job by `ms`; true when one ended (the hint line changes). */
  advance(ms: number): boolean {
    if (this.#remainingMs.length === 0) return false;
    const before = this.#remainingMs.length;
    this.#remainingMs = this.#remainingMs.map((left) => left - ms).filter((left) => left > 0);
    return this.#remainingMs.length !== before;
  }

  /** The hint line's words for the jobs running ('' when none). */
  hint(): string {
    const n = this.count;
    return n === 0 ? '' : ` · ${n} background job${n === 1 ? '' : 's'}`;
  }
}
