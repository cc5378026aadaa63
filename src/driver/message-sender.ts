/**
 * Getting a message into an agent CLI so that it lands exactly once (spec-format §10.2).
 *
 * Sends wait until the machine is ready and idle, go out one at a time, are written as a
 * body and a separate, delayed submit key, and are verified: the submit is repeated only
 * while the CLI visibly did not react. Every invariant here answers a field bug of the
 * reference: first message never processed, overlapping sends, swallowed Enter, double send.
 */
import type { Scheduler, TimerHandle } from '../core/clock.js';
import type { SendMessageConfig, StateStatus } from '../core/spec/types.js';
import { chunkPreservingSurrogates } from '../terminal/index.js';
import { echoProbes, hashBody, normalizeForEcho, resolveSubmitDelayMs } from './submit-timing.js';

/** A repeated body within this window while work is in progress is a duplicate. */
const DUPLICATE_WINDOW_MS = 60_000;
/** The in-flight latch lets go by itself after this long (a CLI that never leaves idle). */
const IN_FLIGHT_EXPIRY_MS = 30_000;
/** How often queued bodies look for the latch's release when no evaluation comes. */
const QUEUE_POLL_MS = 1_000;
/** Queued bodies go out this long after the evaluation that allows them. */
const DRAIN_DELAY_MS = 50;
/** Bodies this long are written in one go and submitted through the echo gate. */
const LONG_BODY_CHARS = 512;
const ECHO_POLL_MS = 120;
const ECHO_QUIET_MS = 500;
const ECHO_GIVE_UP_MS = 20_000;
const RESEND_GAP_MS = 350;
const MAX_SUBMIT_WRITES = 14;
/** A mid-generation send (the CLI queues input itself) keeps text and Enter at least this far apart. */
const MID_GENERATION_MIN_GAP_MS = 400;
/** win32: ConPTY drops bytes from one big write; pace it. */
const WIN32_CHUNK_UNITS = 1024;
const WIN32_CHUNK_GAP_MS = 8;

/**
 * Largest message accepted, in UTF-8 bytes (what reaches the PTY): 1 MiB. That is about 250k
 * tokens, more than an agent's whole context window (~200k tokens), so a longer paste cannot be
 * read by the agent anyway; a TUI takes seconds to absorb it (docs/terminal.md has the figures);
 * and it keeps what one session holds for a send (the text, its UTF-8 copy in the PTY write
 * queue) to a few MiB, which a daemon multiplies by its sessions.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const SHIFT_ENTER = '\x1b[27;2;13~';

export type Win32SubmitMode = 'paste' | 'soft_newline';

/** What the sender needs from its driver. */
export interface SenderHost {
  readonly scheduler: Scheduler;
  readonly platform: NodeJS.Platform;
  readonly win32SubmitMode: Win32SubmitMode;
  sendConfig(): SendMessageConfig;
  write(data: string): void;
  status(): StateStatus;
  isReady(): boolean;
  viewportText(): string;
  scrollbackText(): string;
  lastOutputAt(): number;
  report(status: 'queued' | 'delivered' | 'submitted' | 'dropped' | 'unconfirmed', length: number, reason?: string): void;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

export interface SendRequest {
  text: string;
  bracketedPaste?: boolean;
  /** Explicit "send now" while the CLI generates (it queues input itself). */
  midGeneration?: boolean;
}

/** A send that was not accepted at all (nothing queued, nothing written), with a stable code. */
export interface SendRefusal {
  code: 'MESSAGE_TOO_LARGE';
  /** Says what was wrong (the size and the limit) and what to do. */
  reason: string;
}

export type SendOutcome = 'delivered' | 'queued' | 'dropped' | SendRefusal;

/** Refuses a text longer than {@link MAX_MESSAGE_BYTES} in UTF-8; null when it may be sent. */
export function checkMessageSize(text: string): SendRefusal | null {
  // Buffer.byteLength counts without encoding, so a huge text costs no copy to measure.
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_MESSAGE_BYTES) return null;
  return {
    code: 'MESSAGE_TOO_LARGE',
    reason: `message too large: ${bytes} bytes of UTF-8 (${(bytes / 1024 / 1024).toFixed(1)} MiB); the largest message accepted is ${MAX_MESSAGE_BYTES} bytes (1 MiB): send a shorter message, or save the text to a file and send its path`,
  };
}

/** Resolves the win32 multi-line body mode from the environment (default: bracketed paste). */
export function resolveWin32SubmitMode(env: Record<string, string | undefined>): Win32SubmitMode {
  return env.SPECTERM_WIN32_SUBMIT_MODE === 'soft_newline' || env.ADHDEV_WIN32_SUBMIT_MODE === 'soft_newline' ? 'soft_newline' : 'paste';
}

export class MessageSender {
  readonly #host: SenderHost;
  #queue: SendRequest[] = [];
  /** The body taken from the queue and typed after {@link DRAIN_DELAY_MS}. */
  #draining: SendRequest | null = null;
  #inFlightSince: number | null = null;
  #recentHashes = new Map<string, number>();
  #timers = new Set<TimerHandle>();
  #queuePolling = false;
  #lastBodyWriteAt = 0;
  #disposed = false;
  /** The body whose submit has not been seen to take yet. */
  #submitPending: { length: number } | null = null;

  constructor(host: SenderHost) {
    this.#host = host;
  }

  /** True while any body write, submit or drain timer is armed. */
  hasInFlightSubmit(): boolean {
    return this.#timers.size > 0;
  }

  /** Bodies not typed yet: those queued, and one taken from the queue to be typed in a moment. */
  queuedCount(): number {
    return this.#queue.length + (this.#draining === null ? 0 : 1);
  }

  /**
   * Accepts a send: delivers it now, queues it, or drops it as a duplicate. A text above
   * {@link MAX_MESSAGE_BYTES} is refused (returned, not reported: the caller refuses the command).
   */
  request(req: SendRequest): SendOutcome {
    if (this.#disposed) return 'dropped';
    const tooLarge = checkMessageSize(req.text);
    if (tooLarge) return tooLarge;
    const h = this.#host;
    const now = h.scheduler.now();
    const hash = hashBody(req.text);
    const lastAt = this.#recentHashes.get(hash);
    const workInProgress = this.#inFlightSince !== null || h.status() !== 'idle' || this.#queue.length > 0;
    if (lastAt !== undefined && now - lastAt < DUPLICATE_WINDOW_MS && workInProgress) {
      h.report('dropped', req.text.length, 'duplicate: the same text was sent within 60 s and the agent is still working on it');
      return 'dropped';
    }
    if (req.midGeneration && this.#canSendMidGeneration()) {
      this.#recentHashes.set(hash, now);
      this.#writeMidGeneration(req.text);
      h.report('delivered', req.text.length, 'mid-generation');
      return 'delivered';
    }
    const blocker = this.#blocker();
    if (blocker) {
      this.#queue.push(req);
      h.report('queued', req.text.length, blocker);
      this.#pollQueue();
      return 'queued';
    }
    this.#deliver(req);
    return 'delivered';
  }

  /** Called at the end of every evaluation: releases the latch and drains one queued send. */
  afterEvaluation(): void {
    if (this.#disposed) return;
    const h = this.#host;
    const now = h.scheduler.now();
    if (this.#inFlightSince !== null && now - this.#inFlightSince >= IN_FLIGHT_EXPIRY_MS) this.#inFlightSince = null;
    if (!h.isReady()) return;
    if (h.status() !== 'idle') {
      // The CLI visibly consumed the submit.
      if (this.#inFlightSince !== null && this.#submitPending) h.report('submitted', this.#submitPending.length);
      this.#submitPending = null;
      this.#inFlightSince = null;
      return;
    }
    if (this.#inFlightSince !== null || this.#queue.length === 0) return;
    const next = this.#queue.shift()!;
    // Take the latch now so a second evaluation in the next 50 ms cannot drain another body.
    this.#inFlightSince = now;
    this.#draining = next;
    this.#after(DRAIN_DELAY_MS, () => this.#deliver(next));
  }

  /**
   * While bodies wait, looks again every {@link QUEUE_POLL_MS}. The latch is released at the end
   * of an evaluation, and evaluations follow output: after a command that starts no turn
   * (`/clear`) on a still screen none may come, and a queued message would wait for the next
   * repaint rather than the latch's expiry.
   */
  #pollQueue(): void {
    if (this.#queuePolling) return;
    this.#queuePolling = true;
    const tick = (): void => {
      this.afterEvaluation();
      if (this.#queue.length > 0) this.#after(QUEUE_POLL_MS, tick);
      else this.#queuePolling = false;
    };
    this.#after(QUEUE_POLL_MS, tick);
  }

  /** Cancels every timer and discards queued bodies (reported by length only). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const t of this.#timers) this.#host.scheduler.clearTimeout(t);
    this.#timers.clear();
    for (const q of this.#queue.splice(0)) this.#host.report('dropped', q.text.length, 'session shut down before the agent was ready');
  }

  #blocker(): string | null {
    const h = this.#host;
    if (!h.isReady()) return 'the agent is not ready yet (no idle prompt seen)';
    if (this.#inFlightSince !== null) return 'a previous message is not confirmed yet';
    if (h.status() !== 'idle') return `the agent is ${h.status()}`;
    if (this.#queue.length > 0) return 'earlier messages are queued';
    return null;
  }

  #canSendMidGeneration(): boolean {
    const h = this.#host;
    return h.platform !== 'win32' && h.isReady() && h.status() === 'generating' && this.#inFlightSince === null
      && h.sendConfig().mid_generation_queue === true;
  }

  #after(ms: number, fn: () => void): void {
    const handle = this.#host.scheduler.setTimeout(() => {
      this.#timers.delete(handle);
      if (!this.#disposed) fn();
    }, ms);
    this.#timers.add(handle);
  }

  #writeBody(data: string): void {
    this.#lastBodyWriteAt = this.#host.scheduler.now();
    this.#host.write(data);
  }

  #deliver(req: SendRequest): void {
    if (this.#draining === req) this.#draining = null;
    const h = this.#host;
    const now = h.scheduler.now();
    this.#inFlightSince = now;
    this.#recentHashes.set(hashBody(req.text), now);
    for (const [k, at] of this.#recentHashes) if (now - at >= DUPLICATE_WINDOW_MS) this.#recentHashes.delete(k);
    h.report('delivered', req.text.length);
    const cfg = h.sendConfig();
    const delay = resolveSubmitDelayMs(cfg.delay_ms_before_submit, req.text);
    const perChar = cfg.delay_ms_per_char ?? 0;

    if (h.platform === 'win32') {
      this.#writeWin32Body(req.text, () => this.#verifiedSubmit(req.text, delay, true));
      return;
    }
    if (req.bracketedPaste && cfg.posix_bracketed_paste_for_images) {
      this.#writeBody(PASTE_START + req.text + PASTE_END);
      this.#verifiedSubmit(req.text, delay, false);
      return;
    }
    if (perChar > 0) {
      this.#typeBody(req.text, perChar, () => this.#verifiedSubmit(req.text, delay, false));
      return;
    }
    this.#writeBody(req.text);
    this.#verifiedSubmit(req.text, delay, req.text.length >= LONG_BODY_CHARS);
  }

  /** One UTF-16 code point (never half a surrogate pair) per tick. */
  #typeBody(text: string, perCharMs: number, then: () => void): void {
    const units = chunkPreservingSurrogates(text, 1);
    let i = 0;
    const tick = (): void => {
      if (i >= units.length) { then(); return; }
      this.#writeBody(units[i]!);
      i += 1;
      this.#after(perCharMs, tick);
    };
    tick();
  }

  #writeWin32Body(text: string, then: () => void): void {
    const segments: string[] = [];
    if (/\r?\n/.test(text)) {
      if (this.#host.win32SubmitMode === 'soft_newline') {
        segments.push(...chunkPreservingSurrogates(text.replace(/\r?\n/g, SHIFT_ENTER), WIN32_CHUNK_UNITS));
      } else {
        segments.push(PASTE_START, ...chunkPreservingSurrogates(text, WIN32_CHUNK_UNITS), PASTE_END);
      }
    } else {
      segments.push(...chunkPreservingSurrogates(text, WIN32_CHUNK_UNITS));
    }
    let i = 0;
    const next = (): void => {
      if (i >= segments.length) { then(); return; }
      this.#writeBody(segments[i]!);
      i += 1;
      if (i >= segments.length) then();
      else this.#after(WIN32_CHUNK_GAP_MS, next);
    };
    next();
  }

  #writeMidGeneration(text: string): void {
    const cfg = this.#host.sendConfig();
    const delay = Math.max(resolveSubmitDelayMs(cfg.delay_ms_before_submit, text), MID_GENERATION_MIN_GAP_MS);
    this.#writeBody(text);
    this.#after(delay, () => this.#host.write(cfg.submit_key));
  }

  /**
   * Phase 1 (echo gate, when `echoGate`): wait until the body's head and tail are on screen and
   * input has been quiet for 500 ms (give up waiting after 20 s). Phase 2 (resend net): write the
   * submit key, then repeat it every 350 ms (≤ 14 writes) while the CLI shows no reaction.
   */
  #verifiedSubmit(text: string, delayMs: number, echoGate: boolean): void {
    const h = this.#host;
    const startedAt = h.scheduler.now();
    const probes = echoProbes(text);
    const echoed = (): boolean => {
      const quietSince = Math.max(h.lastOutputAt(), this.#lastBodyWriteAt);
      if (h.scheduler.now() - quietSince < ECHO_QUIET_MS) return false;
      return normalizeForEcho(h.viewportText()).includes(probes.tail)
        && normalizeForEcho(h.scrollbackText()).includes(probes.head);
    };
    const gate = (): void => {
      if (!echoGate || echoed()) { this.#submitWithResend(text.length); return; }
      if (h.scheduler.now() - startedAt >= ECHO_GIVE_UP_MS) {
        h.log('warn', `echo gate: the message (${text.length} chars) never showed on screen within 20 s; submitting anyway`);
        this.#submitWithResend(text.length);
        return;
      }
      this.#after(ECHO_POLL_MS, gate);
    };
    this.#after(delayMs, gate);
  }

  #submitWithResend(length: number): void {
    const h = this.#host;
    const key = h.sendConfig().submit_key;
    let writes = 0;
    let screenAtSubmit = '';
    this.#submitPending = { length };
    const submit = (): void => {
      screenAtSubmit = h.viewportText();
      h.write(key);
      writes += 1;
      this.#after(RESEND_GAP_MS, check);
    };
    const check = (): void => {
      if (h.status() !== 'idle') {
        if (writes > 1) h.log('warn', `submit needed ${writes} writes of the submit key`);
        return;
      }
      // POSIX: a CLI whose screen reacted to the Enter (composer cleared, a hold before busy, a
      // slash command) consumed it; resending would submit again. The in-flight latch stays until
      // the status leaves idle or expires. win32 keeps the reference's rule because ConPTY can turn
      // a swallowed CR into a visible newline in the composer.
      if (h.platform !== 'win32' && h.viewportText() !== screenAtSubmit) return;
      if (writes >= MAX_SUBMIT_WRITES) {
        this.#submitPending = null;
        h.report('unconfirmed', length, `the agent stayed idle after ${writes} submit keys`);
        h.log('error', `submit unconfirmed after ${writes} writes of the submit key`);
        return;
      }
      submit();
    };
    submit();
  }
}
