/**
 * spec_drift: the spec says `generating` or `idle` while the live bottom of the screen has looked
 * like a prompt waiting for a person (a cursor-marked option block or navigation hints, see
 * `promptShape`, below the transcript: `rowsBelowTranscript`) for `afterMs` — most likely a
 * prompt the spec does not recognise, so the person is blocked and the session says the agent is
 * busy or done. Raised once per episode (until the
 * shape goes away or the spec leaves generating/idle), with the frame saved as a one-event
 * asciicast fragment (a private file: 0700 dir, 0600 file) — the feedstock for a new recording
 * and the next spec fix. docs/runtime.md, "Spec drift".
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StateStatus } from '../core/spec/types.js';
import { promptShape, type PromptShape } from '../core/eval/prompt-shape.js';
import { rowsBelowTranscript } from './drift-live-bottom.js';
import type { DashboardEvent } from './events.js';
import type { TimerSlot, TimerStore } from './timer-store.js';

/** How long a prompt shape must stand under generating/idle before it is reported (default). */
export const DEFAULT_SPEC_DRIFT_MS = 5000;

/** `FsmDriverOptions.specDrift`: false turns the check off. */
export interface SpecDriftOptions {
  /** Default {@link DEFAULT_SPEC_DRIFT_MS}. */
  afterMs?: number;
  /** Where frames are saved (a private subdirectory is made in it); null: not saved. Default: the OS temp dir for a live session, null otherwise. */
  dir?: string | null;
}

export interface SpecDriftHost {
  status(): StateStatus;
  stateId(): string;
  specId(): string;
  viewport(): readonly string[];
  size(): { cols: number; rows: number };
  emit(ev: DashboardEvent): void;
  warn(message: string): void;
}

function watched(status: StateStatus): boolean {
  return status === 'generating' || status === 'idle';
}

/** The prompt shape below the transcript (quoted hints above the live input box do not count). */
function liveShape(status: StateStatus, viewport: readonly string[]): PromptShape | null {
  return watched(status) ? promptShape(rowsBelowTranscript(viewport)) : null;
}

export class SpecDriftWatch {
  readonly #host: SpecDriftHost;
  readonly #afterMs: number;
  readonly #dir: string | null;
  readonly #timer: TimerSlot;
  #since: number | null = null;
  #raised = false;

  constructor(host: SpecDriftHost, timers: TimerStore, opts: SpecDriftOptions, live: boolean) {
    this.#host = host;
    const after = opts.afterMs;
    this.#afterMs = typeof after === 'number' && Number.isFinite(after) && after >= 0 ? after : DEFAULT_SPEC_DRIFT_MS;
    this.#dir = opts.dir === undefined ? (live ? os.tmpdir() : null) : opts.dir;
    this.#timer = timers.slot(this.#onTimer);
  }

  /** After every decision: starts, continues or ends an episode. `viewport` is the one the decision read. */
  afterDecision(now: number, viewport: readonly string[]): void {
    const status = this.#host.status();
    const shape = liveShape(status, viewport);
    if (!shape) {
      this.#since = null;
      this.#raised = false;
      this.#timer.cancel();
      return;
    }
    if (this.#since === null) {
      this.#since = now;
      this.#timer.arm(this.#afterMs);
    } else if (!this.#raised && now - this.#since >= this.#afterMs) {
      this.#raise(now, shape, status);
    }
  }

  /** The episode's deadline: raised if the shape is still there (no output may have come since). */
  readonly #onTimer = (): void => {
    if (this.#since === null || this.#raised) return;
    const status = this.#host.status();
    const shape = liveShape(status, this.#host.viewport());
    if (shape) this.#raise(this.#since + this.#afterMs, shape, status);
  };

  #raise(now: number, shape: PromptShape, status: StateStatus): void {
    this.#raised = true;
    const since = this.#since ?? now;
    this.#host.emit({
      kind: 'spec_drift',
      state: this.#host.stateId(),
      status,
      reason: shape.reason,
      rows: shape.rows,
      since_ms: now - since,
      frame_file: this.#saveFrame(status),
    });
  }

  /** The viewport as a one-event asciicast v2 file (replays to the same text), or null. */
  #saveFrame(status: StateStatus): string | null {
    if (this.#dir === null) return null;
    const { cols, rows } = this.#host.size();
    const header = { version: 2, width: cols, height: rows, timestamp: Math.floor(Date.now() / 1000), title: `spec_drift ${this.#host.specId()} state=${this.#host.stateId()} (${status})`, env: { TERM: 'xterm-256color' } };
    const paint = `\x1b[H\x1b[2J${this.#host.viewport().join('\r\n')}`;
    const text = `${JSON.stringify(header)}\n${JSON.stringify([0, 'o', paint])}\n`;
    try {
      const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
      const dir = path.join(this.#dir, `specterm-drift-${uid}`);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) throw new Error(`${dir} is not a directory of ours`);
      const file = path.join(dir, `${this.#host.specId().replace(/[^A-Za-z0-9_-]/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.cast`);
      // A temp name then a rename: a reader never sees half a file.
      const tmp = `${file}.tmp`;
      fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
      fs.renameSync(tmp, file);
      return file;
    } catch (err) {
      this.#host.warn(`spec_drift: the frame could not be saved: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  }
}
