/**
 * One child held by the host: its PTY, the ring of its raw output with byte seqs, and its exit
 * status kept after it ended (until the session is removed). No spec logic: bytes in, bytes out.
 *
 * @module
 */
import { createPtyTransport, ListenerSet, signalGroup, type Disposable, type ExitInfo, type PtyTransportHandle, type SpawnRequest } from '../terminal/index.js';
import { ByteRing } from './byte-ring.js';
import type { HostMessage, SessionInfo, SpawnFailure } from './wire.js';

/** Live output of a session: `seq` is the seq of the first byte of `bytes`. */
export interface OutputChunk {
  seq: number;
  bytes: Buffer;
}

/** Options of {@link HostSession}. */
export interface HostSessionOptions {
  id: string;
  request: SpawnRequest;
  /** The spawn's opaque `meta` (see wire.ts). */
  meta?: string;
  ringBytes: number;
  /** For lines about the session; never receives the env. */
  log: (line: string) => void;
}

/** A child in a PTY, owned by the host. */
export class HostSession {
  readonly id: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly meta: string | undefined;
  readonly startedAt = Date.now();
  readonly ring: ByteRing;
  readonly #transport: PtyTransportHandle;
  readonly #output = new ListenerSet<OutputChunk>('output');
  readonly #exitListeners = new ListenerSet<ExitInfo>('exit');
  readonly #subscriptions: Disposable[] = [];
  #cols: number;
  #rows: number;
  #pid: number | null = null;
  #exit: ExitInfo | null = null;
  #exitedAt: number | null = null;
  /** Why the child never ran, when its exec failed after the fork (reported before its exit). */
  #spawnError: SpawnFailure | null = null;

  /** Starts the child; throws the terminal layer's `SpawnError` when it cannot start. */
  constructor(options: HostSessionOptions) {
    this.id = options.id;
    this.file = options.request.file;
    this.args = [...options.request.args];
    this.cwd = options.request.cwd;
    this.meta = options.meta;
    this.#cols = options.request.cols;
    this.#rows = options.request.rows;
    this.ring = new ByteRing(options.ringBytes);
    this.#transport = createPtyTransport();
    this.#subscriptions.push(
      this.#transport.onData((chunk) => this.#handleData(chunk)),
      this.#transport.onExit((info) => this.#handleExit(info)),
      this.#transport.onSpawnError((error) => {
        this.#spawnError = { code: error.code, message: error.message };
        options.log(`session ${this.id}: ${error.code}: ${error.message}`);
      }),
    );
    this.#transport.spawn(options.request);
    this.#pid = this.#transport.pid ?? null;
  }

  get alive(): boolean {
    return this.#exit === null;
  }

  get exit(): ExitInfo | null {
    return this.#exit;
  }

  /** Live bytes as they arrive (after they are in the ring). */
  onOutput(listener: (chunk: OutputChunk) => void): Disposable {
    return this.#output.add(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.#exitListeners.add(listener);
  }

  info(): SessionInfo {
    return {
      id: this.id,
      pid: this.#pid,
      alive: this.alive,
      exitCode: this.#exit?.exitCode ?? null,
      signal: this.#exit?.signal ?? null,
      seq: this.ring.seq,
      ringStart: this.ring.start,
      cols: this.#cols,
      rows: this.#rows,
      startedAt: this.startedAt,
      exitedAt: this.#exitedAt,
      file: this.file,
      args: [...this.args],
      cwd: this.cwd,
      ...(this.meta !== undefined ? { meta: this.meta } : {}),
      ...(this.#spawnError ? { spawnError: this.#spawnError } : {}),
    };
  }

  /** The `exit` message of this ended session (with why it never ran, if so); null while it runs. */
  exitMessage(): Extract<HostMessage, { type: 'exit' }> | null {
    if (!this.#exit) return null;
    return { type: 'exit', id: this.id, exitCode: this.#exit.exitCode, signal: this.#exit.signal, seq: this.ring.seq, ...(this.#spawnError ? { spawnError: this.#spawnError } : {}) };
  }

  /** Queues input for the child; the transport never blocks the event loop on a slow reader. */
  write(data: string): void {
    if (this.alive) this.#transport.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.alive) return;
    this.#transport.resize(cols, rows);
    this.#cols = cols;
    this.#rows = rows;
  }

  /** Without a signal: the transport's SIGHUP-then-SIGKILL. With one: that signal to the group. */
  kill(signal?: NodeJS.Signals): void {
    if (!this.alive) return;
    if (!signal) {
      this.#transport.kill();
      return;
    }
    const pid = this.#pid;
    if (pid === null) return;
    signalGroup(pid, signal);
  }

  /** Releases listeners; the caller removed the session after its exit (or killed it). */
  dispose(): void {
    for (const s of this.#subscriptions.splice(0)) s.dispose();
  }

  #handleData(chunk: string): void {
    // The transport decodes UTF-8; the ring and the wire keep bytes, so seqs count bytes.
    const bytes = Buffer.from(chunk, 'utf8');
    const seq = this.ring.seq;
    this.ring.append(bytes);
    this.#output.emit({ seq, bytes });
  }

  #handleExit(info: ExitInfo): void {
    this.#exit = info;
    this.#exitedAt = Date.now();
    this.#exitListeners.emit(info);
  }
}
