/**
 * The last payload of each OSC number a spec reads (`ESC ] N ; payload BEL|ST`), with the time
 * it arrived: the input of `osc` condition leaves. Codex writes `OSC 7501;state=…` at every
 * transition, some CLIs `OSC 9;4;…` progress; OSC 0/2 (the title) are tracked the same way when
 * asked for, and xterm still sets the title from them.
 *
 * Bounded: only the numbers asked for (at most {@link MAX_TRACKED_OSC}), each payload cut at
 * {@link MAX_OSC_PAYLOAD_CHARS} — a CLI cannot grow this by writing many or long sequences.
 *
 * @module
 */

import type { Terminal as XtermTerminal } from '@xterm/headless';
import type { OscValue } from '../core/eval/types.js';

/** At most this many OSC numbers are tracked per screen (the rest are ignored). */
export const MAX_TRACKED_OSC = 16;
/** A payload is kept up to this many characters. */
export const MAX_OSC_PAYLOAD_CHARS = 1024;

export class OscTracker {
  readonly #term: XtermTerminal;
  /** Replaced, never changed in place: an evaluation that holds it keeps what it read. */
  #values: ReadonlyMap<number, OscValue> = new Map();
  readonly #handlers = new Map<number, { dispose(): void }>();
  #clock: () => number = Date.now;
  #seq = 0;

  constructor(term: XtermTerminal) {
    this.#term = term;
  }

  /**
   * Tracks exactly `numbers` from now on (values of numbers no longer tracked are dropped), with
   * arrival times from `clock` (the driver's scheduler: virtual in a replay). Numbers outside
   * 0–65535 and any past the first {@link MAX_TRACKED_OSC} are ignored.
   */
  track(numbers: Iterable<number>, clock: () => number): void {
    this.#clock = clock;
    const wanted = new Set<number>();
    for (const n of numbers) {
      if (wanted.size >= MAX_TRACKED_OSC) break;
      if (Number.isInteger(n) && n >= 0 && n <= 65535) wanted.add(n);
    }
    for (const [n, handler] of this.#handlers) {
      if (wanted.has(n)) continue;
      handler.dispose();
      this.#handlers.delete(n);
    }
    this.#values = new Map([...this.#values].filter(([n]) => wanted.has(n)));
    for (const n of wanted) {
      if (this.#handlers.has(n)) continue;
      // false: the sequence is not consumed, so xterm's own handler (the title for 0/2) still runs.
      this.#handlers.set(n, this.#term.parser.registerOscHandler(n, (data) => this.#record(n, data)));
    }
  }

  #record(n: number, data: string): false {
    const payload = data.length > MAX_OSC_PAYLOAD_CHARS ? data.slice(0, MAX_OSC_PAYLOAD_CHARS) : data;
    // A copy per payload: CLIs write these at state changes, not per frame.
    const next = new Map(this.#values);
    next.set(n, { payload, at: this.#clock() });
    this.#values = next;
    this.#seq += 1;
    return false;
  }

  /** The last payload per tracked number, as of now (a later payload replaces the map, not its entries). */
  get values(): ReadonlyMap<number, OscValue> {
    return this.#values;
  }

  /** Incremented by every tracked payload: equal values mean no OSC leaf can read anything new. */
  get seq(): number {
    return this.#seq;
  }

  dispose(): void {
    for (const handler of this.#handlers.values()) handler.dispose();
    this.#handlers.clear();
    this.#values = new Map();
  }
}
