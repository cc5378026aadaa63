/**
 * The client side of the host socket: connects (bounded by a timeout, with a clear error when no
 * host runs), does the version handshake, sends requests with ids and matches the answers, and
 * fans out output and exit events by session id.
 *
 * @module
 */
import net from 'node:net';
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

/** Default bound on connect + handshake: a live host answers in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** Output of one session, live or replayed from the ring. */
export interface OutputEvent {
  id: string;
  /** Seq of the first byte. */
  seq: number;
  bytes: Buffer;
  replay: boolean;
}

/** A session's child ended. */
export interface ExitEvent {
  id: string;
  exitCode: number | null;
  signal: string | null;
  /** Final output seq. */
  seq: number;
}

/** Options of {@link HostClient.connect}. */
export interface HostConnectOptions {
  socketPath: string;
  timeoutMs?: number;
  /** Shown in the host's log. */
  clientName?: string;
}

type OkMessage = Extract<HostMessage, { type: 'ok' }>;
/** A request as the caller writes it: the client adds `req`. */
type Request = ClientMessage extends infer M ? (M extends { req: number } ? Omit<M, 'req'> : never) : never;

interface Pending {
  resolve(message: OkMessage): void;
  reject(error: HostError): void;
}

/** A connection to the host. */
export class HostClient {
  /** The host's pid, from the handshake. */
  hostPid = 0;
  readonly #socket: net.Socket;
  readonly #decoder = new FrameDecoder();
  readonly #pending = new Map<number, Pending>();
  readonly #output = new ListenerSet<OutputEvent>('output');
  readonly #exit = new ListenerSet<ExitEvent>('exit');
  readonly #close = new ListenerSet<HostError>('close');
  #nextReq = 1;
  #closedWith: HostError | null = null;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', (error) => this.#closeWith(new HostError('HOST_CONNECTION_CLOSED', `connection to the host failed: ${messageOf(error)}`)));
    socket.on('close', () => this.#closeWith(new HostError('HOST_CONNECTION_CLOSED', 'the host closed the connection; reconnect (and reattach with since) if it still runs')));
  }

  /**
   * Connects and shakes hands.
   *
   * @throws HostError `HOST_NOT_RUNNING` (no host on the socket), `HOST_CONNECT_TIMEOUT`,
   *   `HOST_PROTOCOL_MISMATCH`.
   */
  static async connect(options: HostConnectOptions): Promise<HostClient> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(options.socketPath);
      const timer = setTimeout(() => {
        s.destroy();
        reject(new HostError('HOST_CONNECT_TIMEOUT', `no answer from the host on ${JSON.stringify(options.socketPath)} within ${timeoutMs} ms; it may be overloaded or hung (see its log)`, { socketPath: options.socketPath }));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(timer);
        s.removeAllListeners('error');
        resolve(s);
      });
      s.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const absent = error.code === 'ENOENT' || error.code === 'ECONNREFUSED';
        reject(new HostError(absent ? 'HOST_NOT_RUNNING' : 'HOST_CONNECTION_CLOSED', absent
          ? `no PTY host is running on ${JSON.stringify(options.socketPath)} (${error.code}); start one (startHostProcess / specterm-host)`
          : `could not connect to the host on ${JSON.stringify(options.socketPath)}: ${error.message}`, { socketPath: options.socketPath }, { cause: error }));
      });
    });
    const client = new HostClient(socket);
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        client.#request({ type: 'hello', protocol: HOST_PROTOCOL_VERSION, ...(options.clientName ? { client: options.clientName } : {}) }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HostError('HOST_CONNECT_TIMEOUT', `the host on ${JSON.stringify(options.socketPath)} did not answer the handshake within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      client.hostPid = answer.hello?.protocol === HOST_PROTOCOL_VERSION ? answer.hello.hostPid : 0;
    } catch (error) {
      client.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  /** True once the connection is gone. */
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

  onOutput(listener: (event: OutputEvent) => void): Disposable {
    return this.#output.add(listener);
  }

  onExit(listener: (event: ExitEvent) => void): Disposable {
    return this.#exit.add(listener);
  }

  /** Fires once when the connection ends, with the reason. */
  onClose(listener: (error: HostError) => void): Disposable {
    return this.#close.add(listener);
  }

  /** Closes the connection (sessions keep running in the host). Idempotent. */
  close(): void {
    this.#socket.destroy();
  }

  #request(message: Request): Promise<OkMessage> {
    if (this.#closedWith) return Promise.reject(this.#closedWith);
    const req = this.#nextReq++;
    return new Promise<OkMessage>((resolve, reject) => {
      this.#pending.set(req, { resolve, reject });
      this.#socket.write(encodeJson({ ...message, req } as ClientMessage));
    });
  }

  #receive(chunk: Buffer): void {
    let frames;
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      this.#closeWith(error as HostError);
      this.#socket.destroy();
      return;
    }
    for (const frame of frames) {
      if (frame.kind !== 'json') {
        this.#output.emit({ id: frame.id, seq: frame.seq, bytes: frame.bytes, replay: frame.kind === 'replay' });
        continue;
      }
      const message = frame.message as HostMessage;
      if (message.type === 'exit') {
        this.#exit.emit(message);
      } else if (message.type === 'ok' || message.type === 'error') {
        if (message.type === 'error' && message.req === null) {
          this.#closeWith(new HostError(message.code as HostErrorCode, `the host closed this connection: ${message.message}`, message.detail));
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
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#close.emit(error);
  }
}
