/**
 * The client side of the host socket: connects (bounded by a timeout, with a clear error when no
 * host runs), does the version handshake, sends requests with ids and matches the answers, and
 * fans out output and exit events by session id.
 *
 * @module
 */
import type net from 'node:net';
import { ListenerSet, type Disposable } from '../terminal/index.js';
import { HostError, messageOf, type HostErrorCode } from './errors.js';
import {
  encodeJson,
  FrameDecoder,
  HOST_PROTOCOL_VERSION,
  type AttachResult,
  type ClientMessage,
  type HostMessage,
  type SessionInfo,
  type SpawnParams,
} from './wire.js';
import { HostEventFanout, type ExitEvent, type OutputEvent } from './host-events.js';
import { openHostSocket } from './host-socket.js';

export type { ExitEvent, OutputEvent } from './host-events.js';

/** Default bound on connect + handshake: a live host answers in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** How a client that lost its connection gets it back (see {@link HostClient.connect}). */
export interface ReconnectOptions {
  /** First wait before reconnecting (50 ms); it doubles after each failed attempt. */
  initialDelayMs?: number;
  /** Longest wait between attempts (1 s). */
  maxDelayMs?: number;
  /** After this long without a connection the host counts as gone for good (15 s): `onClose` fires. */
  giveUpAfterMs?: number;
  /**
   * Tells a dead host from a slow one: called with the host's pid (from the handshake) when the
   * connection drops and before each attempt; true = its process is gone, so the client gives
   * up at once (`HOST_GONE`) instead of after `giveUpAfterMs`. E.g. `isProcessGone`.
   */
  isHostGone?: (hostPid: number) => boolean;
}

/** Options of {@link HostClient.connect}. */
export interface HostConnectOptions {
  socketPath: string;
  timeoutMs?: number;
  /**
   * Shown in the host's log. `'daemon'` also tells the host this connection carries every
   * session, so it gets the larger backlog before being dropped.
   */
  clientName?: string;
  /**
   * Reconnect when the connection drops (the host dropped a client that fell behind, or it
   * restarted its socket) instead of closing: requests made meanwhile wait for the new
   * connection, `onReconnect` fires after the new handshake (transports reattach with `since`),
   * and `onClose` fires only once the host is gone for good.
   */
  reconnect?: ReconnectOptions;
}

const DEFAULT_RECONNECT = { initialDelayMs: 50, maxDelayMs: 1000, giveUpAfterMs: 15_000, isHostGone: (_pid: number) => false };

type OkMessage = Extract<HostMessage, { type: 'ok' }>;
/** A request as the caller writes it: the client adds `req`. */
type Request = ClientMessage extends infer M ? (M extends { req: number } ? Omit<M, 'req'> : never) : never;

interface Pending {
  resolve(message: OkMessage): void;
  reject(error: HostError): void;
}

/** A connection to the host (one socket, or with `reconnect`, one socket after another). */
export class HostClient {
  /** The host's pid, from the handshake. */
  hostPid = 0;
  readonly #options: HostConnectOptions;
  #socket!: net.Socket;
  #decoder = new FrameDecoder();
  readonly #pending = new Map<number, Pending>();
  /** Requests made while reconnecting, sent once the new connection said hello. */
  #queued: Buffer[] = [];
  /** Output and exit listeners, of every session and of one. */
  readonly #events = new HostEventFanout();
  readonly #close = new ListenerSet<HostError>('close');
  readonly #reconnected = new ListenerSet<void>('reconnect');
  readonly #disconnected = new ListenerSet<HostError>('disconnect');
  #nextReq = 1;
  #closedWith: HostError | null = null;
  /** True between a lost connection and the next handshake (requests are queued). */
  #reconnecting = false;
  #userClosed = false;
  /** Fails the handshake in flight when its socket breaks. */
  #helloReject: ((error: HostError) => void) | null = null;

  private constructor(options: HostConnectOptions, socket: net.Socket) {
    this.#options = options;
    this.#use(socket);
  }

  /**
   * Connects and shakes hands.
   *
   * @throws HostError `HOST_NOT_RUNNING` (no host on the socket), `HOST_CONNECT_TIMEOUT`,
   *   `HOST_PROTOCOL_MISMATCH`.
   */
  static async connect(options: HostConnectOptions): Promise<HostClient> {
    const client = new HostClient(options, await openSocket(options));
    try {
      await client.#handshake();
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /** True once the connection is gone for good (a reconnecting client is not closed). */
  get closed(): boolean {
    return this.#closedWith !== null;
  }

  spawn(params: SpawnParams): Promise<SessionInfo> {
    return this.#request({ type: 'spawn', ...params }).then((m) => m.session!);
  }

  list(): Promise<SessionInfo[]> {
    return this.#request({ type: 'list' }).then((m) => m.sessions ?? []);
  }

  /**
   * Attaches: the ring's bytes from `since` arrive as `replay` output events, then live output,
   * then the exit. Subscribe with {@link onOutput} before calling: replay frames may be delivered
   * before this promise settles.
   */
  attach(id: string, since = 0): Promise<AttachResult> {
    return this.#request({ type: 'attach', id, since }).then((m) => m.attach!);
  }

  detach(id: string): Promise<void> {
    return this.#request({ type: 'detach', id }).then(() => undefined);
  }

  write(id: string, data: string): Promise<void> {
    return this.#request({ type: 'write', id, data }).then(() => undefined);
  }

  resize(id: string, cols: number, rows: number): Promise<void> {
    return this.#request({ type: 'resize', id, cols, rows }).then(() => undefined);
  }

  /** Without a signal: SIGHUP, then SIGKILL after the grace period. */
  kill(id: string, signal?: string): Promise<void> {
    return this.#request({ type: 'kill', id, ...(signal ? { signal } : {}) }).then(() => undefined);
  }

  /** Forgets an exited session (or, with `force`, kills and forgets a running one). */
  remove(id: string, force = false): Promise<void> {
    return this.#request({ type: 'remove', id, force }).then(() => undefined);
  }

  /** Asks the host to end every child and exit. */
  shutdown(): Promise<void> {
    return this.#request({ type: 'shutdown' }).then(() => undefined);
  }

  /** Output of every session (see {@link onSessionOutput} for one). */
  onOutput(listener: (event: OutputEvent) => void): Disposable {
    return this.#events.onOutput(listener);
  }

  onExit(listener: (event: ExitEvent) => void): Disposable {
    return this.#events.onExit(listener);
  }

  /** Output of session `id` only: with N transports on one client, a frame costs one lookup, not N listener calls. */
  onSessionOutput(id: string, listener: (event: OutputEvent) => void): Disposable {
    return this.#events.onSession(id, 'output', listener);
  }

  /** The exit of session `id` only. */
  onSessionExit(id: string, listener: (event: ExitEvent) => void): Disposable {
    return this.#events.onSession(id, 'exit', listener);
  }

  /** Fires once when the connection ends for good, with the reason. */
  onClose(listener: (error: HostError) => void): Disposable {
    return this.#close.add(listener);
  }

  /**
   * With `reconnect`: the connection dropped and a new one is being made. Requests in flight
   * were rejected (the host may or may not have run them); new ones wait for the new connection.
   */
  onDisconnect(listener: (error: HostError) => void): Disposable {
    return this.#disconnected.add(listener);
  }

  /** With `reconnect`: a new connection said hello. Nothing is attached on it yet: reattach with `since`. */
  onReconnect(listener: () => void): Disposable {
    return this.#reconnected.add(listener);
  }

  /** Closes the connection for good (sessions keep running in the host). Idempotent. */
  close(): void {
    this.#userClosed = true;
    this.#socket.destroy();
    this.#closeWith(new HostError('HOST_CONNECTION_CLOSED', 'this client closed its connection to the host'));
  }

  #request(message: Request): Promise<OkMessage> {
    if (this.#closedWith) return Promise.reject(this.#closedWith);
    const req = this.#nextReq++;
    return new Promise<OkMessage>((resolve, reject) => {
      this.#pending.set(req, { resolve, reject });
      const frame = encodeJson({ ...message, req } as ClientMessage);
      if (this.#reconnecting) this.#queued.push(frame);
      else this.#socket.write(frame);
    });
  }

  #use(socket: net.Socket): void {
    this.#socket = socket;
    this.#decoder = new FrameDecoder();
    socket.on('data', (chunk: Buffer) => { if (this.#socket === socket) this.#receive(chunk); });
    socket.on('error', (error) => this.#lost(socket, new HostError('HOST_CONNECTION_CLOSED', `connection to the host failed: ${messageOf(error)}`)));
    socket.on('close', () => this.#lost(socket, new HostError('HOST_CONNECTION_CLOSED', 'the host closed the connection; reconnect (and reattach with since) if it still runs')));
  }

  /** Sends hello on the current socket (ahead of any queued request) and checks the answer in time. */
  async #handshake(): Promise<void> {
    const { socketPath, clientName } = this.#options;
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const req = this.#nextReq++;
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        new Promise<OkMessage>((resolve, reject) => {
          this.#pending.set(req, { resolve, reject });
          this.#helloReject = reject;
          this.#socket.write(encodeJson({ type: 'hello', req, protocol: HOST_PROTOCOL_VERSION, ...(clientName ? { client: clientName } : {}) }));
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HostError('HOST_CONNECT_TIMEOUT', `the host on ${JSON.stringify(socketPath)} did not answer the handshake within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      this.hostPid = answer.hello?.protocol === HOST_PROTOCOL_VERSION ? answer.hello.hostPid : 0;
    } finally {
      clearTimeout(timer);
      this.#pending.delete(req);
      this.#helloReject = null;
    }
  }

  /** A socket ended: close for good, or (with `reconnect`) start reconnecting. */
  #lost(socket: net.Socket, error: HostError): void {
    if (socket !== this.#socket || this.#closedWith) return;
    if (this.#reconnecting) {
      // A new connection broke during its handshake: that attempt fails, the loop tries again.
      this.#helloReject?.(error);
      return;
    }
    if (!this.#options.reconnect || this.#userClosed || FATAL_ON_RECONNECT.has(error.code)) {
      this.#closeWith(error);
      return;
    }
    this.#reconnecting = true;
    this.#rejectPending(error);
    this.#disconnected.emit(error);
    void this.#reconnect(error);
  }

  /** Tries again with a doubling delay until a handshake succeeds or the give-up time passed. */
  async #reconnect(cause: HostError): Promise<void> {
    const o = { ...DEFAULT_RECONNECT, ...this.#options.reconnect };
    const giveUpAt = Date.now() + o.giveUpAfterMs;
    let delay = o.initialDelayMs;
    let last: unknown = cause;
    const deadPid = this.hostPid;
    while (!this.#closedWith) {
      if (deadPid > 0 && o.isHostGone(deadPid)) {
        this.#closeWith(new HostError('HOST_GONE', `the PTY host (pid ${deadPid}) on ${JSON.stringify(this.#options.socketPath)} exited: its connection closed and its process is gone; the sessions it held ended with it (host.log beside the socket may say why)`, { socketPath: this.#options.socketPath, hostPid: deadPid }));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, giveUpAt - Date.now()))));
      if (this.#closedWith) return;
      try {
        const socket = await openSocket(this.#options);
        if (this.#closedWith) {
          socket.destroy();
          return;
        }
        this.#use(socket);
        await this.#handshake();
        this.#reconnecting = false;
        for (const frame of this.#queued.splice(0)) this.#socket.write(frame);
        this.#reconnected.emit();
        return;
      } catch (error) {
        last = error;
        this.#socket.destroy();
        if (error instanceof HostError && FATAL_ON_RECONNECT.has(error.code)) break;
      }
      if (Date.now() >= giveUpAt) break;
      delay = Math.min(delay * 2, o.maxDelayMs);
    }
    if (this.#closedWith) return;
    this.#closeWith(new HostError('HOST_GONE', `lost the connection to the PTY host on ${JSON.stringify(this.#options.socketPath)} (${cause.message}) and gave up reconnecting after ${o.giveUpAfterMs} ms: ${messageOf(last)}; the host is gone (see its log), restart \`specterm serve\``, { socketPath: this.#options.socketPath }));
  }

  #rejectPending(error: HostError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
  }

  #receive(chunk: Buffer): void {
    let frames;
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      const socket = this.#socket;
      this.#lost(socket, error as HostError);
      socket.destroy();
      return;
    }
    for (const frame of frames) {
      if (frame.kind !== 'json') {
        this.#events.emitOutput({ id: frame.id, seq: frame.seq, bytes: frame.bytes, replay: frame.kind === 'replay' });
        continue;
      }
      const message = frame.message as HostMessage;
      if (message.type === 'exit') {
        this.#events.emitExit(message);
      } else if (message.type === 'ok' || message.type === 'error') {
        if (message.type === 'error' && message.req === null) {
          this.#lost(this.#socket, new HostError(message.code as HostErrorCode, `the host closed this connection: ${message.message}`, message.detail));
          continue;
        }
        const req = message.req ?? 0;
        const pending = this.#pending.get(req);
        if (!pending) continue;
        this.#pending.delete(req);
        if (message.type === 'ok') pending.resolve(message);
        else pending.reject(new HostError(message.code as HostErrorCode, message.message, message.detail));
      }
    }
  }

  #closeWith(error: HostError): void {
    if (this.#closedWith) return;
    this.#closedWith = error;
    this.#reconnecting = false;
    this.#queued = [];
    this.#rejectPending(error);
    this.#close.emit(error);
  }
}

/** Errors after which trying again cannot help: another protocol (the host was upgraded). */
const FATAL_ON_RECONNECT = new Set(['HOST_PROTOCOL_MISMATCH']);

/** The socket for `options`, within its connect timeout. */
function openSocket(options: HostConnectOptions): Promise<net.Socket> {
  return openHostSocket(options.socketPath, options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
}
