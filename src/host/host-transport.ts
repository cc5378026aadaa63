/**
 * `HostTransport`: the driver's `PtyTransport` over a session held by the PTY host, so an
 * `FsmDriver` runs unchanged whether its child is local or in the host. Two modes:
 * - `spawn`: `spawn()` starts a new session in the host and attaches to it from seq 0;
 * - `attach`: `spawn()` starts nothing and attaches to an existing session (a daemon restart):
 *   the ring's bytes arrive as output, so the driver rebuilds the screen and re-derives its state.
 *
 * @module
 */
import crypto from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { ListenerSet, SpawnError, TerminalError, warnListenerError, type Disposable, type ExitInfo, type ListenerErrorSink, type PtyTransport, type SpawnRequest } from '../terminal/index.js';
import { HostError, messageOf } from './errors.js';
import type { ExitEvent, HostClient, OutputEvent } from './host-client.js';
import { assertClientMessage } from './wire-validate.js';
import type { AttachResult } from './wire.js';

/** Raw output bytes as they arrive, with the seq of the first one (see {@link HostTransport.onBytes}). */
export interface OutputBytes { seq: number; bytes: Uint8Array }

/** Which session a {@link HostTransport} drives. */
export type HostSessionTarget =
  /** A new session; `id` defaults to a random one; `meta` is kept by the host for `list` (see wire.ts). */
  | { mode: 'spawn'; id?: string; meta?: string }
  /** An existing session; replay from `since` (default 0: the whole ring). */
  | { mode: 'attach'; id: string; since?: number };

/** Options of {@link HostTransport}. */
export interface HostTransportOptions {
  client: HostClient;
  target: HostSessionTarget;
  /** Receives listener exceptions (default: a process warning). */
  onListenerError?: ListenerErrorSink;
}

/** A `PtyTransport` whose child lives in the PTY host. */
export class HostTransport implements PtyTransport {
  /** The session id in the host. */
  readonly sessionId: string;
  readonly #client: HostClient;
  readonly #target: HostSessionTarget;
  readonly #data: ListenerSet<string>;
  readonly #exit: ListenerSet<ExitInfo>;
  readonly #errors: ListenerSet<Error>;
  readonly #bytes: ListenerSet<OutputBytes>;
  #decoder = new StringDecoder('utf8');
  readonly #subscriptions: Disposable[] = [];
  #started = false;
  /** What spawn() was asked to run (named in a spawn failure the host reports later). */
  #request: SpawnRequest | undefined;
  /** Let go by {@link detach}: the child is no longer this transport's to write to or kill. */
  #detached = false;
  #pid: number | undefined;
  #seq = 0;
  /** Seq after the last byte whose text reached `onData` listeners (≤ `#seq`: a split UTF-8 character waits in the decoder). */
  #textSeq = 0;
  #delivered = false;
  /** True while replayed bytes are being delivered (see {@link write}). */
  #replaying = false;
  #exitInfo: ExitInfo | undefined;
  #attached: Promise<AttachResult> | undefined;
  /** Replay frames carry bytes an earlier client already answered (attach mode, until a reconnect). */
  #replayIsOld: boolean;
  /** Reattached after a reconnect, no output yet: the first frame tells whether the ring still held `seq`. */
  #resuming = false;

  constructor(options: HostTransportOptions) {
    const sink = options.onListenerError ?? warnListenerError;
    this.#client = options.client;
    this.#target = options.target;
    this.sessionId = options.target.id ?? `s-${crypto.randomBytes(6).toString('base64url')}`;
    this.#data = new ListenerSet('data', sink);
    this.#exit = new ListenerSet('exit', sink);
    this.#errors = new ListenerSet('error', sink);
    this.#bytes = new ListenerSet('bytes', sink);
    this.#replayIsOld = options.target.mode === 'attach';
  }

  get pid(): number | undefined {
    return this.#pid;
  }

  /** Seq after the last byte delivered to `onData` listeners: where a later attach resumes. */
  get seq(): number {
    return this.#seq;
  }

  /**
   * Seq after the last byte whose text was delivered to `onData` listeners: the bytes a screen
   * fed by `onData` reflects. Behind {@link seq} by the 1–3 bytes of a UTF-8 character split
   * across chunks, until its rest arrives.
   */
  get textSeq(): number {
    return this.#textSeq;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.#exitInfo;
  }

  /** Settles when the attach (after the spawn, in spawn mode) was answered. */
  get attached(): Promise<AttachResult> | undefined {
    return this.#attached;
  }

  /**
   * Spawn mode: checks the request, starts the session and attaches, pipelined (the host runs
   * requests in order, so no output is missed). Attach mode: attaches and, when the session's
   * size differs from the request's (the driver's screen), resizes it to match.
   * A failure the host reports (binary missing, …) arrives as `onError` with a `SpawnError`,
   * then `onExit` with exit code 1, as a real PTY reports a failure after fork.
   */
  spawn(req: SpawnRequest): void {
    if (this.#started) {
      throw new SpawnError(`spawn() was already called on this transport (session ${JSON.stringify(this.sessionId)}); create a new transport per session`, { code: 'PTY_ALREADY_SPAWNED', file: String(req?.file), cwd: String(req?.cwd) });
    }
    this.#started = true;
    this.#request = req;
    this.#subscriptions.push(
      this.#client.onSessionOutput(this.sessionId, (event) => this.#handleOutput(event)),
      this.#client.onSessionExit(this.sessionId, (event) => this.#handleExit(event)),
      this.#client.onReconnect(() => this.#reattach()),
      this.#client.onClose((error) => this.#lostHost(error)),
    );
    if (this.#target.mode === 'spawn') {
      const params = { id: this.sessionId, file: req.file, args: req.args, cwd: req.cwd, env: req.env, cols: req.cols, rows: req.rows, ...(this.#target.meta !== undefined ? { meta: this.#target.meta } : {}) };
      try {
        assertClientMessage({ type: 'spawn', req: 1, ...params });
      } catch (error) {
        throw new SpawnError(`invalid spawn request: ${messageOf(error)}`, { code: 'PTY_INVALID_REQUEST', file: String(req?.file), cwd: String(req?.cwd) });
      }
      const spawned = this.#client.spawn(params);
      this.#attached = this.#client.attach(this.sessionId, 0);
      spawned.then((info) => { this.#pid = info.pid ?? undefined; }, (error: unknown) => this.#failSpawn(error, req));
      // After a failed spawn the attach fails too (unknown session); the spawn error is the one reported.
      this.#attached.catch(() => {});
      return;
    }
    this.#attached = this.#client.attach(this.sessionId, this.#target.since ?? 0);
    this.#attached.then((result) => {
      this.#pid = result.session.pid ?? undefined;
      if (result.session.alive && (result.session.cols !== req.cols || result.session.rows !== req.rows)) this.resize(req.cols, req.rows);
    }, (error: unknown) => this.#report(error));
  }

  /**
   * Queues input for the child. A write made WHILE replayed bytes are being delivered is dropped:
   * it is the screen answering a terminal query (cursor position, device attributes) that the
   * child asked long ago and the previous client already answered; sent again, the child would
   * read it as typed input. (A query the previous client never answered is lost with it.)
   */
  write(data: string): void {
    if (typeof data !== 'string') {
      throw new TerminalError('TERMINAL_INVALID_ARGUMENT', `HostTransport.write expects a string, got ${typeof data}`, data);
    }
    this.#requireStarted('write');
    if (this.#exitInfo || this.#detached || this.#replaying || data.length === 0) return;
    this.#client.write(this.sessionId, data).catch((error: unknown) => this.#report(error));
  }

  resize(cols: number, rows: number): void {
    this.#requireStarted('resize');
    if (this.#exitInfo || this.#detached) return;
    this.#client.resize(this.sessionId, cols, rows).catch((error: unknown) => this.#report(error));
  }

  /** Ends the child in the host (SIGHUP, then SIGKILL after the grace). Idempotent. */
  kill(): void {
    if (!this.#started || this.#exitInfo || this.#detached) return;
    this.#client.kill(this.sessionId).catch((error: unknown) => this.#report(error));
  }

  /**
   * Lets the session go: no more output, and later `write`/`resize`/`kill` do nothing, so a
   * daemon that stops (or upgrades) can shut its driver down while the child keeps running.
   */
  detach(): void {
    this.#detached = true;
    for (const s of this.#subscriptions.splice(0)) s.dispose();
    if (!this.#client.closed) this.#client.detach(this.sessionId).catch(() => {});
  }

  onData(listener: (chunk: string) => void): Disposable {
    return this.#data.add(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.#exit.add(listener);
  }

  /**
   * The raw output bytes, each byte once and in order, before their text goes to `onData`
   * (the daemon streams them to terminal viewers). The array is only valid during the call.
   */
  onBytes(listener: (chunk: OutputBytes) => void): Disposable {
    return this.#bytes.add(listener);
  }

  /** Failures the synchronous interface cannot throw: a spawn the host refused, a lost connection. */
  onError(listener: (error: Error) => void): Disposable {
    return this.#errors.add(listener);
  }

  #requireStarted(operation: string): void {
    if (!this.#started) throw new TerminalError('PTY_NOT_SPAWNED', `HostTransport.${operation}() called before spawn(); call spawn() first`);
  }

  /**
   * The client reconnected: attach again from the last byte applied. When the ring still holds
   * it, the replay continues the stream exactly; when it does not, see {@link #handleOutput}.
   */
  #reattach(): void {
    if (this.#exitInfo || this.#detached) return;
    this.#resuming = true;
    this.#replayIsOld = false;
    this.#client.attach(this.sessionId, this.#seq).then((result) => {
      this.#pid = result.session.pid ?? this.#pid;
    }, (error: unknown) => {
      if (error instanceof HostError && error.code === 'HOST_UNKNOWN_SESSION') {
        // Removed from the host while we were away: nothing will ever come from it again.
        this.#report(new HostError('HOST_UNKNOWN_SESSION', `session ${this.sessionId} is no longer in the host after a reconnect (it was removed); it counts as exited`, { id: this.sessionId }));
        this.#handleExit({ id: this.sessionId, exitCode: null, signal: null, seq: this.#seq });
      } else {
        // A later reconnect tries again; a host gone for good ends the session (#lostHost).
        this.#report(error);
      }
    });
  }

  /** The connection is gone for good: the session cannot be reached again, so it ends here with the reason. */
  #lostHost(error: HostError): void {
    this.#report(error);
    if (error.code === 'HOST_GONE') this.#handleExit({ id: this.sessionId, exitCode: null, signal: null, seq: this.#seq });
  }

  #handleOutput(event: OutputEvent): void {
    if (event.id !== this.sessionId) return;
    let bytes = event.bytes;
    let text = '';
    let rebuild = false;
    if (this.#resuming) {
      this.#resuming = false;
      // The ring no longer holds our `seq`: what came between is gone, so the screen cannot be
      // patched. Rebuild it as a daemon restart does, from the ring alone: a full reset (RIS)
      // first, then the ring's bytes, decoded afresh.
      rebuild = event.seq > this.#seq;
      if (rebuild) {
        this.#decoder = new StringDecoder('utf8');
        this.#seq = event.seq;
        text = RESET_SCREEN;
      }
    }
    // Frames are contiguous on one connection; trim any overlap so a byte is never delivered twice.
    if (event.seq < this.#seq) bytes = bytes.subarray(Math.min(bytes.length, this.#seq - event.seq));
    else if (event.seq > this.#seq && this.#delivered) this.#report(new HostError('HOST_BAD_MESSAGE', `output of session ${this.sessionId} jumped from seq ${this.#seq} to ${event.seq}`));
    if (bytes.length === 0) return;
    this.#delivered = true;
    this.#seq = Math.max(this.#seq, event.seq) + bytes.length;
    this.#bytes.emit({ seq: this.#seq - bytes.length, bytes });
    text += this.#decoder.write(bytes);
    this.#textSeq = this.#seq - pendingUtf8Bytes(this.#decoder);
    if (text.length === 0) return;
    // In spawn mode the "replay" is output made between spawn and attach: new, to be answered.
    // A rebuild replays bytes whose queries were answered long ago.
    this.#replaying = rebuild || (event.replay && this.#replayIsOld);
    try {
      this.#data.emit(text);
    } finally {
      this.#replaying = false;
    }
  }

  #handleExit(event: ExitEvent): void {
    if (event.id !== this.sessionId || this.#exitInfo) return;
    // The child's exec failed in the host: the same report as a spawn the host refused.
    if (event.spawnError) this.#errors.emit(new SpawnError(event.spawnError.message, { code: event.spawnError.code as SpawnError['code'], file: String(this.#request?.file), cwd: String(this.#request?.cwd) }));
    const tail = this.#decoder.end();
    this.#textSeq = this.#seq;
    if (tail.length > 0) this.#data.emit(tail);
    this.#exitInfo = { exitCode: event.exitCode, signal: event.signal };
    for (const s of this.#subscriptions.splice(0)) s.dispose();
    this.#exit.emit(this.#exitInfo);
  }

  #failSpawn(error: unknown, req: SpawnRequest): void {
    const detail = error instanceof HostError ? error.detail : undefined;
    const code = typeof detail?.spawnCode === 'string' ? (detail.spawnCode as SpawnError['code']) : 'PTY_SPAWN_FAILED';
    this.#errors.emit(new SpawnError(messageOf(error), { code, file: req.file, cwd: req.cwd, cause: error }));
    this.#handleExit({ id: this.sessionId, exitCode: 1, signal: null, seq: this.#seq });
  }

  #report(error: unknown): void {
    this.#errors.emit(error instanceof Error ? error : new Error(String(error)));
  }
}

/** RIS: a full terminal reset (screen, scrollback, modes), the start of a screen rebuilt from the ring. */
const RESET_SCREEN = '\x1bc';

/**
 * Bytes a UTF-8 `StringDecoder` holds back (the start of a character split across chunks).
 * Node's decoder exposes `lastNeed` (bytes still missing) and `lastTotal` (the character's
 * length) but not the held count; they are undocumented, so a decoder without them counts 0.
 */
function pendingUtf8Bytes(decoder: StringDecoder): number {
  const { lastNeed, lastTotal } = decoder as unknown as { lastNeed?: number; lastTotal?: number };
  return typeof lastNeed === 'number' && typeof lastTotal === 'number' && lastNeed > 0 ? lastTotal - lastNeed : 0;
}
