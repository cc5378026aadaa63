/**
 * The driver's watchdogs: what it does on its own, not because a transition fired.
 *  - send_on_spawn (§10.3): the focus-in prime, once, after the first output (+ delay) or after
 *    the max wait without output;
 *  - stall refocus (§10.4): the prime again when a generating screen froze;
 *  - redraw nudge (§10.5): a SIGWINCH wiggle after long silence while generating;
 *  - startup_dismiss (§7.4): a boot-time prompt answered a bounded number of times.
 * Their timers are slots of the driver's TimerStore, so the driver's one `dispose()` ends them.
 *
 * @module
 */
import type { CliSpecV4, StateStatus } from '../core/spec/types.js';
import { compileRegex } from '../core/eval/index.js';
import { WAKE_FLOOR_MS, WAKE_SLACK_MS, type TimerSlot, type TimerStore } from './timer-store.js';

const DEFAULT_SEND_ON_SPAWN_DELAY_MS = 250;
const DEFAULT_SEND_ON_SPAWN_MAX_WAIT_MS = 2000;
const DEFAULT_STARTUP_DISMISS_ATTEMPTS = 3;
const DEFAULT_STARTUP_DISMISS_WINDOW_MS = 20_000;

export interface RedrawNudgeOptions {
  /** Silence while generating before a SIGWINCH wiggle; 0 disables. Default 45 000. */
  silentMs: number;
  /** Wiggles per generating episode. Default 4. */
  max: number;
  holdMs: number;
  settleMs: number;
}

/** What the watchdogs read from and do through the driver. */
export interface WatchdogHost {
  spec(): CliSpecV4;
  status(): StateStatus;
  now(): number;
  write(data: string): void;
  log(message: string): void;
  /** Resizes the PTY only (the screen keeps its size): the nudge's SIGWINCH. */
  resizePty(cols: number, rows: number): void;
  screenSize(): { cols: number; rows: number };
  /** When the whole screen last changed in this state, or when the state was entered. */
  screenChangedAt(): number;
  stateEnteredAt(): number;
  lastOutputAt(): number;
  reevaluate(): void;
  /** The prime is out: sends held for it may go. */
  onPrimeWritten(): void;
}

/** Redraw nudge options: the driver's option, else `SPECTERM_REDRAW_NUDGE_*` from the environment, else the defaults. */
export function resolveRedrawNudgeOptions(given: Partial<RedrawNudgeOptions> | undefined, env: Record<string, string | undefined>): RedrawNudgeOptions {
  const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
  const o = given ?? {};
  return {
    silentMs: o.silentMs ?? num(env.SPECTERM_REDRAW_NUDGE_SILENT_MS, 45_000),
    max: o.max ?? num(env.SPECTERM_REDRAW_NUDGE_MAX, 4),
    holdMs: o.holdMs ?? num(env.SPECTERM_REDRAW_NUDGE_HOLD_MS, 750),
    settleMs: o.settleMs ?? num(env.SPECTERM_REDRAW_NUDGE_SETTLE_MS, 1000),
  };
}

export class Watchdogs {
  readonly #host: WatchdogHost;
  readonly #timers: TimerStore;
  readonly #nudge: RedrawNudgeOptions;
  /** send_on_spawn: armed for the max wait at start, re-armed for the delay at the first output. */
  readonly #primeTimer: TimerSlot;
  readonly #stallTimer: TimerSlot;
  readonly #nudgeTimer: TimerSlot;
  #primeDone = false;
  #lastRefocusAt = 0;
  #nudgeCount = 0;
  #lastNudgeAt = 0;
  #startedAt = 0;
  #dismissAttempts = 0;
  #lastDismissSnapshot: string | null = null;

  constructor(host: WatchdogHost, timers: TimerStore, nudge: RedrawNudgeOptions) {
    this.#host = host;
    this.#timers = timers;
    this.#nudge = nudge;
    this.#primeTimer = timers.slot(() => this.#writeSpawnPrime());
    this.#stallTimer = timers.slot(() => this.#onStallTick());
    this.#nudgeTimer = timers.slot(() => this.#onNudgeTick());
  }

  /** Whether the send_on_spawn prime is out (or there is none). */
  isPrimeDone(): boolean {
    return this.#primeDone;
  }

  /** At spawn: the startup window opens and the prime waits for output (at most its max wait). */
  start(now: number): void {
    this.#startedAt = now;
    const spec = this.#host.spec();
    if (primeSequences(spec).length === 0) { this.#primeDone = true; return; }
    this.#primeTimer.arm(Math.max(0, spec.send_on_spawn_max_wait_ms ?? DEFAULT_SEND_ON_SPAWN_MAX_WAIT_MS));
  }

  onFirstOutput(): void {
    if (this.#primeDone) return;
    this.#primeTimer.arm(Math.max(0, this.#host.spec().send_on_spawn_delay_ms ?? DEFAULT_SEND_ON_SPAWN_DELAY_MS));
  }

  /** After every decision: the stall and nudge timers follow the status. */
  afterDecision(now: number): void {
    this.#scheduleStallWatchdog(now);
    this.#scheduleRedrawNudge(now);
  }

  /** A transition to another state: a new generating episode gets its nudges again. */
  onStateChanged(): void {
    this.#nudgeCount = 0;
  }

  /** startup_dismiss (§7.4): answers a boot-time prompt a bounded number of times. */
  maybeDismissStartup(viewportText: string, now: number): void {
    const sd = this.#host.spec().startup_dismiss;
    if (!sd || viewportText.trim() === '') return;
    if (now - this.#startedAt > (sd.window_ms ?? DEFAULT_STARTUP_DISMISS_WINDOW_MS)) return;
    if (this.#dismissAttempts >= (sd.max_attempts ?? DEFAULT_STARTUP_DISMISS_ATTEMPTS)) return;
    if (viewportText === this.#lastDismissSnapshot) return;
    for (const p of sd.patterns) {
      const re = compileRegex(p.regex, p.flags ?? '');
      if (!re) continue;
      re.lastIndex = 0;
      if (!re.test(viewportText)) continue;
      this.#dismissAttempts += 1;
      this.#lastDismissSnapshot = viewportText;
      this.#host.log(`startup_dismiss: /${p.regex}/ matched; sending its key (attempt ${this.#dismissAttempts})`);
      this.#host.write(sd.key);
      return;
    }
  }

  #writeSpawnPrime(): void {
    if (this.#primeDone) return;
    this.#primeDone = true;
    this.#writePrimeSequences();
    // Sends queued behind the prime drain now: a focus-in repaints nothing, so no evaluation follows.
    this.#host.onPrimeWritten();
  }

  #writePrimeSequences(): void {
    for (const seq of primeSequences(this.#host.spec())) this.#host.write(seq);
  }

  #stallRecoveryEnabled(): boolean {
    const spec = this.#host.spec();
    const w = spec.refocus_when_stalled_ms;
    return typeof w === 'number' && w > 0 && primeSequences(spec).length > 0;
  }

  /** Stall watchdog (§10.4): re-prime a focus-gated TUI whose screen froze mid-turn. */
  #scheduleStallWatchdog(now: number): void {
    this.#stallTimer.cancel();
    if (!this.#stallRecoveryEnabled() || this.#host.status() !== 'generating') return;
    const windowMs = this.#host.spec().refocus_when_stalled_ms!;
    const since = Math.max(this.#host.screenChangedAt(), this.#lastRefocusAt);
    this.#stallTimer.arm(Math.max(windowMs - (now - since) + WAKE_SLACK_MS, WAKE_FLOOR_MS));
  }

  #onStallTick(): void {
    if (!this.#stallRecoveryEnabled() || this.#host.status() !== 'generating') return;
    const now = this.#host.now();
    const windowMs = this.#host.spec().refocus_when_stalled_ms!;
    const frozenMs = now - this.#host.screenChangedAt();
    if (frozenMs >= windowMs && now - this.#lastRefocusAt >= windowMs) {
      this.#lastRefocusAt = now;
      this.#host.log(`stall watchdog: screen frozen for ${frozenMs} ms while generating; re-sending send_on_spawn`);
      this.#writePrimeSequences();
    }
    this.#scheduleStallWatchdog(now);
  }

  #silentSince(): number {
    return Math.max(this.#host.lastOutputAt(), this.#host.stateEnteredAt(), this.#lastNudgeAt);
  }

  /** Redraw nudge (§10.5): a SIGWINCH wiggle recovers a garbled frame after long silence. Never writes stdin. */
  #scheduleRedrawNudge(now: number): void {
    const generating = this.#host.status() === 'generating';
    if (this.#nudgeTimer.isArmed()) {
      if (generating) return; // one pending nudge at a time
      this.#nudgeTimer.cancel();
    }
    if (!generating) { this.#nudgeCount = 0; return; }
    const o = this.#nudge;
    if (o.silentMs <= 0 || this.#nudgeCount >= o.max) return;
    this.#nudgeTimer.arm(Math.max(this.#silentSince() + o.silentMs - now, WAKE_FLOOR_MS));
  }

  #onNudgeTick(): void {
    if (this.#host.status() !== 'generating') return;
    const o = this.#nudge;
    const now = this.#host.now();
    const since = this.#silentSince();
    if (now - since < o.silentMs) { this.#scheduleRedrawNudge(now); return; }
    this.#nudgeCount += 1;
    this.#lastNudgeAt = now;
    const { cols, rows } = this.#host.screenSize();
    this.#host.log(`redraw nudge ${this.#nudgeCount}/${o.max}: no output for ${now - since} ms while generating`);
    this.#host.resizePty(cols + 1, rows);
    this.#timers.later(o.holdMs, () => {
      this.#host.resizePty(cols, rows);
      this.#timers.later(o.settleMs, () => this.#host.reevaluate());
    });
  }
}

function primeSequences(spec: CliSpecV4): string[] {
  return (spec.send_on_spawn ?? []).filter((s) => typeof s === 'string' && s.length > 0);
}
