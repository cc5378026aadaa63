/**
 * A `PtyTransport` that plays an asciicast recording on a `Scheduler` instead of running a child:
 * the driver under test cannot tell it from a live PTY, and with a `VirtualScheduler` a whole
 * session replays deterministically in milliseconds.
 *
 * @module
 */

import type { Scheduler, TimerHandle } from '../core/clock.js';
import { SpawnError, TerminalError, assertDimension } from '../terminal/errors.js';
import { ListenerSet, warnListenerError, type ListenerErrorSink } from '../terminal/listener-set.js';
import type { Disposable, ExitInfo, PtyTransport, SpawnRequest } from '../terminal/transport.js';
import { parseResizeData, type Asciicast, type CastEvent } from './asciicast.js';

/**
 * Recording seconds → whole milliseconds on the replay timeline. Whole numbers keep the
 * scheduler arithmetic exact (`now + (due - now) === due`), so `advanceTo(endTimeMs)` always
 * plays the last event; 1 ms is far finer than any timing rule of a spec.
 */
export function toReplayMs(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** Options for {@link ReplayTransport}. */
export interface ReplayTransportOptions {
  /**
   * Report an exit right after the last event. Default false, so the driver keeps running on the
   * final screen (e.g. for `--tail-ms`) until the caller stops advancing or calls `kill()`.
   */
  exitAtEnd?: boolean;
  /** Exit code reported with `exitAtEnd`; default 0. */
  exitCode?: number;
  /** Receives exceptions thrown by listeners (default: a process warning). */
  onListenerError?: ListenerErrorSink;
}

/** Something written to or recorded around the replay; `t` is milliseconds since `spawn()`. */
export interface ReplayWrite {
  /** Milliseconds since `spawn()` on the scheduler's timeline. */
  t: number;
  data: string;
}

/** A size change, requested by the driver or replayed from the recording. */
export interface ReplayResize {
  /** Milliseconds since `spawn()`. */
  t: number;
  cols: number;
  rows: number;
}

/**
 * Replays a parsed recording: `o` events become `onData` at their times (whole ms, relative to the
 * scheduler's time at `spawn()`), `r` events fire `onResize`, `m` events fire `onMarker`, and
 * `i` events (what the user typed when recording) are only listed in `recordedInputs`.
 * What the driver writes is captured in `writes`.
 *
 * @example
 * const clock = new VirtualScheduler();
 * const transport = new ReplayTransport(parseAsciicast(text), clock);
 * transport.onResize(({ cols, rows }) => screen.resize(cols, rows));
 * transport.onData((chunk) => screen.write(chunk));
 * transport.spawn(request);
 * clock.advanceTo(transport.endTimeMs);
 */
export class ReplayTransport implements PtyTransport {
  /** No process behind a replay. */
  readonly pid: number | undefined = undefined;
  /** Time of the last event in whole milliseconds since `spawn()` (0 for an empty recording). */
  readonly endTimeMs: number;
  /** Recording geometry from the header: size the screen with it before `spawn()`. */
  readonly cols: number;
  /** Recording geometry from the header. */
  readonly rows: number;
  /** Everything the driver wrote, in order. */
  readonly writes: ReplayWrite[] = [];
  /** Resizes the driver requested, in order. */
  readonly requestedResizes: ReplayResize[] = [];
  /** The `i` events of the recording (what the user typed at the time), for explain output. */
  readonly recordedInputs: readonly ReplayWrite[];

  readonly #events: readonly CastEvent[];
  readonly #scheduler: Scheduler;
  readonly #exitAtEnd: boolean;
  readonly #exitCode: number;
  readonly #data: ListenerSet<string>;
  readonly #exit: ListenerSet<ExitInfo>;
  readonly #resize: ListenerSet<{ cols: number; rows: number }>;
  readonly #marker: ListenerSet<string>;
  #spawnedAtMs: number | undefined;
  #next = 0;
  #timer: TimerHandle | undefined;
  #exitInfo: ExitInfo | undefined;

  /**
   * @param cast - a parsed recording (see `parseAsciicast`).
   * @param scheduler - the timeline to play on (usually a `VirtualScheduler`).
   * @param options - see {@link ReplayTransportOptions}.
   */
  constructor(cast: Asciicast, scheduler: Scheduler, options: ReplayTransportOptions = {}) {
    const sink = options.onListenerError ?? warnListenerError;
    this.#events = cast.events;
    this.#scheduler = scheduler;
    this.#exitAtEnd = options.exitAtEnd ?? false;
    this.#exitCode = options.exitCode ?? 0;
    this.#data = new ListenerSet('data', sink);
    this.#exit = new ListenerSet('exit', sink);
    this.#resize = new ListenerSet('resize', sink);
    this.#marker = new ListenerSet('marker', sink);
    // A parsed recording is already within the limits; a hand-built one is checked here.
    this.cols = assertDimension('cols', cast.header.width, 'recording header width');
    this.rows = assertDimension('rows', cast.header.height, 'recording header height');
    const last = cast.events[cast.events.length - 1];
    this.endTimeMs = last ? toReplayMs(last.t) : 0;
    this.recordedInputs = cast.events.filter((e) => e.type === 'i').map((e) => ({ t: toReplayMs(e.t), data: e.data }));
  }

  /** Scheduler time at which `spawn()` was called, or undefined before. */
  get spawnedAtMs(): number | undefined {
    return this.#spawnedAtMs;
  }

  /** Exit info once the replay has exited (end of recording with `exitAtEnd`, or `kill()`). */
  get exitInfo(): ExitInfo | undefined {
    return this.#exitInfo;
  }

  /** How many recording events have been played so far. */
  get playedEvents(): number {
    return this.#next;
  }

  /**
   * Starts playback at the scheduler's current time. The request is accepted as-is (a replay
   * runs no program); its geometry is not applied — the recording's header size is the truth.
   *
   * @throws SpawnError (`PTY_ALREADY_SPAWNED`) on a second call.
   */
  spawn(req: SpawnRequest): void {
    if (this.#spawnedAtMs !== undefined) {
      throw new SpawnError('spawn() was already called on this replay transport; create a new ReplayTransport per run', {
        code: 'PTY_ALREADY_SPAWNED',
        file: String(req?.file),
        cwd: String(req?.cwd),
      });
    }
    this.#spawnedAtMs = this.#scheduler.now();
    this.#scheduleNext();
  }

  /** Records what the driver sent (kept even after exit, so tests see late writes too). */
  write(data: string): void {
    this.#requireSpawned('write');
    this.writes.push({ t: this.#elapsedMs(), data });
  }

  /**
   * Records a driver-requested resize; the recording is not affected.
   *
   * @throws TerminalError (`TERMINAL_INVALID_SIZE`) beyond the terminal limits, as the real PTY.
   */
  resize(cols: number, rows: number): void {
    assertDimension('cols', cols);
    assertDimension('rows', rows);
    this.#requireSpawned('resize');
    this.requestedResizes.push({ t: this.#elapsedMs(), cols, rows });
  }

  /** Stops playback (cancels the pending timer) and reports an exit by SIGHUP once. Idempotent. */
  kill(): void {
    if (this.#spawnedAtMs === undefined || this.#exitInfo) return;
    this.#scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#finish({ exitCode: null, signal: 'SIGHUP' });
  }

  onData(listener: (chunk: string) => void): Disposable {
    return this.#data.add(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.#exit.add(listener);
  }

  /** Fires for each `r` event of the recording: resize the screen to follow it. */
  onResize(listener: (size: { cols: number; rows: number }) => void): Disposable {
    return this.#resize.add(listener);
  }

  /** Fires for each `m` (marker) event of the recording with its label. */
  onMarker(listener: (label: string) => void): Disposable {
    return this.#marker.add(listener);
  }

  #requireSpawned(operation: string): void {
    if (this.#spawnedAtMs === undefined) {
      throw new TerminalError('PTY_NOT_SPAWNED', `ReplayTransport.${operation}() called before spawn(); call spawn() first`);
    }
  }

  #elapsedMs(): number {
    return this.#scheduler.now() - (this.#spawnedAtMs ?? 0);
  }

  /** Arms one timer for the next event (not one per event: recordings hold 100k+ chunks). */
  #scheduleNext(): void {
    const start = this.#spawnedAtMs ?? 0;
    const event = this.#events[this.#next];
    if (!event) {
      if (this.#exitAtEnd) {
        this.#timer = this.#scheduler.setTimeout(() => this.#finish({ exitCode: this.#exitCode, signal: null }), 0);
      }
      return;
    }
    const dueAt = start + toReplayMs(event.t);
    this.#timer = this.#scheduler.setTimeout(this.#playDueBound, Math.max(0, dueAt - this.#scheduler.now()));
  }

  /** One callback for every event's timer (recordings hold 100k+ chunks). */
  readonly #playDueBound = (): void => this.#playDue();

  /** Plays the next event and every following one recorded at the same instant. */
  #playDue(): void {
    this.#timer = undefined;
    const first = this.#events[this.#next];
    if (!first) return;
    while (!this.#exitInfo) {
      const event = this.#events[this.#next];
      if (!event || toReplayMs(event.t) !== toReplayMs(first.t)) break;
      this.#next++;
      this.#play(event);
    }
    if (!this.#exitInfo) this.#scheduleNext();
  }

  #play(event: CastEvent): void {
    switch (event.type) {
      case 'o':
        this.#data.emit(event.data);
        break;
      case 'r': {
        const size = parseResizeData(event.data);
        if (size) this.#resize.emit(size);
        break;
      }
      case 'm':
        this.#marker.emit(event.data);
        break;
      case 'i':
        // The user's keystrokes at recording time: the recorded output already reflects them.
        break;
    }
  }

  #finish(info: ExitInfo): void {
    if (this.#exitInfo) return;
    this.#exitInfo = info;
    this.#exit.emit(info);
  }
}
