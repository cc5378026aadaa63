/**
 * Desktop notifications through `notify-send` (libnotify), where there is one.
 *
 * - Found once, at creation, on PATH; absent → off, reported once (`unavailable`), and
 *   `notify` does nothing. No retries, no polling for it to appear.
 * - Never blocks the caller: `notify` spawns (at most `maxConcurrent` at a time) and returns;
 *   what waits is bounded by `maxQueue` (the oldest is dropped and counted); a `notify-send`
 *   that hangs (no notification daemon on the bus) is killed after `timeoutMs`.
 * - The text carries no secrets: an approval names the session and the modal's title, never
 *   its body (the command to run, paths, tokens pasted into it); error texts are cut short.
 *   Every text is stripped of control characters and escape sequences, has `&<>` escaped
 *   (notification servers read a markup subset), is cut to a bounded length, and is passed
 *   after `--` in argv, so nothing can be read as an option.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { findBinary, isBinaryNotFound } from '../driver/find-binary.js';
import type { Notification } from './notifications.js';
import { describeStillRunning } from '../protocol/still-running.js';

export type DesktopReport =
  | { type: 'available'; path: string }
  | { type: 'unavailable'; reason: string }
  | { type: 'dropped'; droppedTotal: number }
  | { type: 'failed'; detail: string }
  | { type: 'timed-out'; timeoutMs: number };

export interface DesktopNotifierOptions {
  /** Environment to find the command in (its PATH) and to run it with; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Default `notify-send`. */
  command?: string;
  /** Notifications shown at once (processes alive); default 2. */
  maxConcurrent?: number;
  /** Notifications waiting beyond those; default 16. */
  maxQueue?: number;
  /** A `notify-send` still running after this is killed; default 5000 ms. */
  timeoutMs?: number;
  onReport?: (report: DesktopReport) => void;
}

/** What one notification shows: a title and a body, already safe. */
export interface DesktopMessage {
  title: string;
  body: string;
  urgency: 'normal' | 'critical';
}

export const MAX_TITLE_CHARS = 64;
export const MAX_BODY_CHARS = 200;

/** CSI/OSC/other escape sequences, then any remaining C0/C1 control character. */
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;

/** One line of plain, bounded, markup-escaped text. */
export function safeText(text: string, maxChars: number): string {
  const plain = text.replace(ESCAPES, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(plain);
  const cut = chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join('')}…` : plain;
  return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The desktop form of a notification (see the module comment for what is left out). */
export function desktopMessage(n: Notification): DesktopMessage {
  const session = n.sessionId;
  const make = (title: string, body: string, urgency: DesktopMessage['urgency'] = 'normal'): DesktopMessage =>
    ({ title: safeText(title, MAX_TITLE_CHARS), body: safeText(body, MAX_BODY_CHARS), urgency });
  switch (n.type) {
    case 'approval.needed':
      return make('specterm: approval needed', `${session}: ${n.approval.title ?? 'the agent is asking'}`, 'critical');
    case 'turn.finished':
      // Fired after the background-work bound (./turn-completion.ts): the work is still running.
      return make('specterm: turn finished', `${session}: ${n.state.label} after ${Math.round(n.durationMs / 1000)} s${describeStillRunning(n.state)}`);
    case 'session.exited':
      return make('specterm: session exited', `${session}: ${n.signal ? `signal ${n.signal}` : `exit code ${n.exitCode ?? 'unknown'}`}`);
    case 'session.error':
      return make('specterm: session error', `${session}: ${n.message}`, 'critical');
    case 'spec.error':
      return make('specterm: spec error', `${session}: ${n.errors.length} error(s): ${n.errors[0] ?? ''}`, 'critical');
  }
}

export class DesktopNotifier {
  readonly #path: string | null;
  readonly #env: Record<string, string | undefined>;
  readonly #maxConcurrent: number;
  readonly #maxQueue: number;
  readonly #timeoutMs: number;
  readonly #onReport: (report: DesktopReport) => void;
  readonly #queue: DesktopMessage[] = [];
  readonly #running = new Set<ChildProcess>();
  #dropped = 0;
  #closed = false;

  /** Looks for the command once and reports whether desktop notifications are on. */
  constructor(options: DesktopNotifierOptions = {}) {
    this.#env = options.env ?? process.env;
    this.#maxConcurrent = options.maxConcurrent ?? 2;
    this.#maxQueue = options.maxQueue ?? 16;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#onReport = options.onReport ?? (() => {});
    const command = options.command ?? 'notify-send';
    const found = findBinary(command, { env: this.#env });
    this.#path = isBinaryNotFound(found) ? null : found.path;
    this.#report(this.#path
      ? { type: 'available', path: this.#path }
      : { type: 'unavailable', reason: `${command} is not on PATH; desktop notifications are off (install libnotify-bin to turn them on)` });
  }

  get available(): boolean {
    return this.#path !== null;
  }

  /** Shows `n` on the desktop soon; returns at once. A no-op when unavailable or shut down. */
  notify(n: Notification): void {
    if (!this.#path || this.#closed) return;
    this.#queue.push(desktopMessage(n));
    if (this.#queue.length > this.#maxQueue) {
      this.#queue.shift();
      this.#dropped += 1;
      this.#report({ type: 'dropped', droppedTotal: this.#dropped });
    }
    this.#pump();
  }

  stats(): { running: number; queued: number; dropped: number } {
    return { running: this.#running.size, queued: this.#queue.length, dropped: this.#dropped };
  }

  /** Drops what waits and kills what runs. */
  shutdown(): void {
    this.#closed = true;
    this.#queue.length = 0;
    for (const child of this.#running) child.kill('SIGKILL');
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#maxConcurrent && this.#queue.length > 0) this.#show(this.#queue.shift()!);
  }

  #show(message: DesktopMessage): void {
    const args = ['--app-name=specterm', `--urgency=${message.urgency}`, '--', message.title, message.body];
    let child: ChildProcess;
    try {
      child = spawn(this.#path!, args, { stdio: 'ignore', env: this.#env as NodeJS.ProcessEnv });
    } catch (error) {
      this.#report({ type: 'failed', detail: (error as Error).message });
      return;
    }
    this.#running.add(child);
    const timer = setTimeout(() => {
      this.#report({ type: 'timed-out', timeoutMs: this.#timeoutMs });
      child.kill('SIGKILL');
    }, this.#timeoutMs);
    timer.unref();
    let settled = false;
    const done = (detail: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.#running.delete(child);
      if (detail) this.#report({ type: 'failed', detail });
      this.#pump();
    };
    child.once('error', (error) => done(error.message));
    child.once('exit', (code, signal) => done(code === 0 || signal === 'SIGKILL' ? null : `exit ${code ?? signal}`));
  }

  #report(report: DesktopReport): void {
    try {
      this.#onReport(report);
    } catch {
      // A failing reporter must not stop notifications.
    }
  }
}
