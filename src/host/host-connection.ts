/**
 * One client of the host: decodes its frames, checks each message, runs it against the host and
 * answers. A malformed or oversized frame, a bad message or a missing handshake closes THIS
 * connection with an error message; nothing a client sends can throw out of here.
 *
 * @module
 */
import type net from 'node:net';
import type { Disposable } from '../terminal/index.js';
import { HostError, messageOf } from './errors.js';
import { FrameBatcher } from './frame-batcher.js';
import { DAEMON_CLIENT_NAME, type HostServer } from './host-server.js';
import type { HostSession } from './host-session.js';
import {
  encodeJson,
  encodeOutput,
  FRAME_OUTPUT,
  FRAME_REPLAY,
  FrameDecoder,
  HOST_PROTOCOL_VERSION,
  MAX_OUTPUT_FRAME_BYTES,
  parseClientMessage,
  type ClientMessage,
  type HostMessage,
} from './wire.js';

/** After sending a closing error, how long the peer gets to read it before the socket is destroyed. */
const CLOSE_GRACE_MS = 1000;

/** Codes that mean the stream or the peer cannot be trusted further: the connection closes. */
const FATAL_CODES = new Set(['HOST_BAD_MESSAGE', 'HOST_FRAME_TOO_LARGE', 'HOST_PROTOCOL_MISMATCH']);

/** The host side of one client socket. */
export class ClientConnection {
  readonly #host: HostServer;
  readonly #socket: net.Socket;
  readonly #decoder = new FrameDecoder();
  /** Every frame to this client goes through it: one socket write per event-loop turn. */
  readonly #out: FrameBatcher;
  /** Per attached session id: its output and exit subscriptions. */
  readonly #attached = new Map<string, Disposable[]>();
  #greeted = false;
  #closed = false;
  /** From hello: shown in the log; the daemon's connection gets its larger backlog limit. */
  #name = 'unnamed';
  #maxBacklogBytes: number;

  constructor(host: HostServer, socket: net.Socket) {
    this.#host = host;
    this.#socket = socket;
    this.#maxBacklogBytes = host.maxClientBacklogBytes;
    this.#out = new FrameBatcher(socket, (unsent) => this.#checkBacklog(unsent));
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    // ECONNRESET from a client that crashed is normal; the close event cleans up.
    socket.on('error', () => {});
    socket.on('close', () => this.#release());
  }

  /** Stops forwarding a session's output (no-op when not attached). */
  detach(id: string): void {
    for (const d of this.#attached.get(id) ?? []) d.dispose();
    this.#attached.delete(id);
  }

  destroy(): void {
    this.#closed = true;
    this.#socket.destroy();
  }

  #release(): void {
    this.#closed = true;
    this.#out.clear();
    for (const id of [...this.#attached.keys()]) this.detach(id);
  }

  #receive(chunk: Buffer): void {
    if (this.#closed) return;
    try {
      for (const frame of this.#decoder.push(chunk)) {
        if (this.#closed) return;
        if (frame.kind !== 'json') throw new HostError('HOST_BAD_MESSAGE', `clients send JSON frames only, got a ${frame.kind} frame`);
        this.#handle(frame.message);
      }
    } catch (error) {
      this.#fail(null, error);
    }
  }

  #handle(raw: unknown): void {
    const req = typeof raw === 'object' && raw !== null && Number.isSafeInteger((raw as { req?: unknown }).req) ? ((raw as { req: number }).req) : null;
    try {
      const message = parseClientMessage(raw);
      if (!this.#greeted && message.type !== 'hello') {
        throw new HostError('HOST_BAD_MESSAGE', `the first message must be hello (protocol ${HOST_PROTOCOL_VERSION}), got ${message.type}`);
      }
      this.#dispatch(message);
    } catch (error) {
      this.#fail(req, error);
    }
  }

  #dispatch(m: ClientMessage): void {
    const host = this.#host;
    switch (m.type) {
      case 'hello':
        if (m.protocol !== HOST_PROTOCOL_VERSION) {
          throw new HostError('HOST_PROTOCOL_MISMATCH', `this host speaks protocol ${HOST_PROTOCOL_VERSION}, the client ${m.protocol}; restart the host with the same specterm version once its sessions are done`, { hostProtocol: HOST_PROTOCOL_VERSION });
        }
        this.#greeted = true;
        this.#name = m.client ?? 'unnamed';
        if (m.client === DAEMON_CLIENT_NAME) this.#maxBacklogBytes = host.maxDaemonBacklogBytes;
        return this.#send({ type: 'ok', req: m.req, hello: { protocol: HOST_PROTOCOL_VERSION, hostPid: process.pid } });
      case 'spawn':
        return this.#send({ type: 'ok', req: m.req, session: host.spawn(m).info() });
      case 'list':
        return this.#send({ type: 'ok', req: m.req, sessions: host.sessions().map((s) => s.info()) });
      case 'attach':
        return this.#attach(m.req, host.session(m.id), m.since ?? 0);
      case 'detach':
        host.session(m.id);
        this.detach(m.id);
        return this.#send({ type: 'ok', req: m.req });
      case 'write':
        host.session(m.id).write(m.data);
        return this.#send({ type: 'ok', req: m.req });
      case 'resize':
        host.session(m.id).resize(m.cols, m.rows);
        return this.#send({ type: 'ok', req: m.req });
      case 'kill':
        host.session(m.id).kill(m.signal as NodeJS.Signals | undefined);
        return this.#send({ type: 'ok', req: m.req });
      case 'remove':
        host.remove(m.id, m.force ?? false);
        return this.#send({ type: 'ok', req: m.req });
      case 'shutdown':
        this.#send({ type: 'ok', req: m.req });
        return host.requestShutdown();
    }
  }

  /**
   * Answers, replays the ring from `since`, then forwards live output and the exit. All in one
   * synchronous run, so no output can fall between the replay and the live stream.
   */
  #attach(req: number, session: HostSession, since: number): void {
    this.detach(session.id);
    const read = session.ring.readSince(since);
    // A ring that wrapped may start inside a UTF-8 character: skip its continuation bytes so the
    // replay decodes cleanly (they are counted as missed).
    let skip = 0;
    if (read.from > 0 && read.from === session.ring.start) while (skip < read.bytes.length && skip < 3 && (read.bytes[skip]! & 0xc0) === 0x80) skip++;
    const from = read.from + skip;
    this.#send({ type: 'ok', req, attach: { session: session.info(), replayFrom: from, missedBytes: read.missedBytes + skip } });
    for (let offset = skip; offset < read.bytes.length; offset += MAX_OUTPUT_FRAME_BYTES) {
      const piece = read.bytes.subarray(offset, offset + MAX_OUTPUT_FRAME_BYTES);
      this.#sendRaw(encodeOutput(FRAME_REPLAY, session.id, read.from + offset, piece));
    }
    const exit = session.exitMessage();
    if (exit) {
      this.#send(exit);
      return;
    }
    this.#attached.set(session.id, [
      session.onOutput(({ seq, bytes }) => {
        for (let offset = 0; offset < bytes.length; offset += MAX_OUTPUT_FRAME_BYTES) {
          this.#sendRaw(encodeOutput(FRAME_OUTPUT, session.id, seq + offset, bytes.subarray(offset, offset + MAX_OUTPUT_FRAME_BYTES)));
        }
      }),
      session.onExit(() => {
        this.#send(session.exitMessage()!);
        this.detach(session.id);
      }),
    ]);
  }

  #send(message: HostMessage): void {
    this.#sendRaw(encodeJson(message));
  }

  #sendRaw(frame: Buffer): void {
    if (this.#closed || this.#socket.destroyed) return;
    this.#out.push(frame);
  }

  /** After a turn's write: a client that does not read would make the host hold its output without bound. */
  #checkBacklog(unsent: number): void {
    if (unsent <= this.#maxBacklogBytes || this.#closed) return;
    this.#host.log(`dropping a client (${JSON.stringify(this.#name)}): ${unsent} unread bytes (limit ${this.#maxBacklogBytes}); it may reattach with since`);
    this.destroy();
  }

  /** Answers an error; a protocol error also closes the connection (after the peer can read it). */
  #fail(req: number | null, error: unknown): void {
    const known = error instanceof HostError;
    const code = known ? error.code : 'HOST_INTERNAL_ERROR';
    const message = known ? error.message : `the host failed on this request: ${messageOf(error)}`;
    if (!known) this.#host.log(`internal error on a request: ${error instanceof Error ? error.stack : String(error)}`);
    this.#send({ type: 'error', req, code, message, ...(known && error.detail ? { detail: error.detail } : {}) });
    if (!FATAL_CODES.has(code)) return;
    this.#out.flush();
    this.#closed = true;
    this.#socket.end();
    setTimeout(() => this.#socket.destroy(), CLOSE_GRACE_MS).unref();
  }
}
