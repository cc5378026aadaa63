/**
 * Countdowns on the browser's clock: the daemon sends absolute due times in its own clock plus
 * `server_now`; the page keeps the offset between the two clocks (from the request with the
 * shortest round trip, whose midpoint is the best guess of when the server read its clock) and
 * ticks every bar from it, so a bar runs smoothly between refreshes and reaches zero when the
 * server's timer does.
 * @module
 */

/** How many recent samples the offset is chosen from (a slow answer is ignored while a fast one is known). */
const SAMPLES_KEPT = 8;

export class ClockOffset {
  readonly #samples: Array<{ rtt: number; offset: number }> = [];

  /** One answer: sent at local `sentAt`, received at local `receivedAt`, carrying `serverNow`. */
  sample(sentAt: number, receivedAt: number, serverNow: number): void {
    const rtt = Math.max(0, receivedAt - sentAt);
    this.#samples.push({ rtt, offset: serverNow - (sentAt + rtt / 2) });
    if (this.#samples.length > SAMPLES_KEPT) this.#samples.shift();
  }

  /** Server time minus local time, in ms (0 before any sample). */
  get offsetMs(): number {
    let best: { rtt: number; offset: number } | undefined;
    for (const s of this.#samples) if (!best || s.rtt < best.rtt) best = s;
    return best?.offset ?? 0;
  }

  /** The server's clock now, from the local one. */
  serverNow(localNow: number): number {
    return localNow + this.offsetMs;
  }
}

/** Milliseconds left until `dueAt` at server time `now`, never negative. */
export function remainingMs(dueAt: number, now: number): number {
  return Math.max(0, Math.round(dueAt - now));
}

/** The bar's fill (1 = all of the window left, 0 = due), for a window of `windowMs` (unknown → 1 until due). */
export function fractionLeft(dueAt: number, now: number, windowMs: number | null): number {
  const left = remainingMs(dueAt, now);
  if (!windowMs || windowMs <= 0) return left > 0 ? 1 : 0;
  return Math.min(1, left / windowMs);
}

/** `1.234 s` / `340 ms`, for bars and ages. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.floor((ms % 60_000) / 1000)} s`;
}
