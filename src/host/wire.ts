/**
 * The host's socket protocol: length-prefixed frames carrying JSON control messages or binary
 * output. Both sides import this module; nothing else crosses the socket.
 *
 * Frame: `u32 BE length` (of what follows) · `u8 kind` · payload.
 * - kind 1 (JSON): a UTF-8 JSON object, one {@link ClientMessage} or {@link HostMessage}.
 * - kind 2 (output) and 3 (replay): `u8 idLength` · id (UTF-8) · `f64 BE seq` · raw bytes, where
 *   `seq` is the session's byte seq of the first byte. Replay frames carry ring bytes sent in
 *   answer to `attach`; output frames carry live bytes.
 *
 * Every request has a `req` id (a positive integer chosen by the client); the host answers each
 * with `ok` or `error` carrying the same `req`, in request order.
 *
 * @module
 */
import type { SpawnRequest } from '../terminal/index.js';
import { HostError } from './errors.js';
import { assertClientMessage } from './wire-validate.js';

/** Protocol version exchanged in `hello`; bump on any incompatible change. */
export const HOST_PROTOCOL_VERSION = 1;

/** Largest frame either side accepts (1 MiB): a spawn env or a paste fits; a runaway peer does not. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Output bytes per replay/output frame, so a 1 MiB ring replays in frames far below the limit. */
export const MAX_OUTPUT_FRAME_BYTES = 64 * 1024;

/** Frame kinds. */
export const FRAME_JSON = 1;
export const FRAME_OUTPUT = 2;
export const FRAME_REPLAY = 3;

const HEADER_BYTES = 5;

/** The spawn request as sent to the host: the terminal layer's request (env never logged) plus an id. */
export interface SpawnParams extends SpawnRequest {
  /** Session id; the host makes one when absent. `[A-Za-z0-9._-]{1,64}`. */
  id?: string;
  /**
   * Opaque to the host, returned in `list` (at most `MAX_META_CHARS`, wire-validate.ts): what the client needs
   * to take the session back if it forgot it (the daemon: spec, name; never the env).
   */
  meta?: string;
}

/** Requests a client sends. */
export type ClientMessage =
  | { type: 'hello'; req: number; protocol: number; client?: string }
  | ({ type: 'spawn'; req: number } & SpawnParams)
  | { type: 'list'; req: number }
  | { type: 'attach'; req: number; id: string; since?: number }
  | { type: 'detach'; req: number; id: string }
  | { type: 'write'; req: number; id: string; data: string }
  | { type: 'resize'; req: number; id: string; cols: number; rows: number }
  | { type: 'kill'; req: number; id: string; signal?: string }
  | { type: 'remove'; req: number; id: string; force?: boolean }
  | { type: 'shutdown'; req: number };

/** Why a child never ran: its exec failed after the fork (a missing interpreter); the terminal layer's code. */
export interface SpawnFailure { code: string; message: string }

/** One session as `list` reports it. */
export interface SessionInfo {
  id: string;
  pid: number | null;
  alive: boolean;
  exitCode: number | null;
  signal: string | null;
  /** Total output bytes so far. */
  seq: number;
  /** Seq of the oldest byte still in the ring. */
  ringStart: number;
  cols: number;
  rows: number;
  /** Epoch ms. */
  startedAt: number;
  /** Epoch ms, null while alive. */
  exitedAt: number | null;
  file: string;
  /** The child's arguments and working dir as spawned (absent from hosts older than these fields). */
  args?: string[];
  cwd?: string;
  /** The spawn's `meta`, when it had one. */
  meta?: string;
  /** Set when the child's exec failed after the fork (its exit code is then 1). */
  spawnError?: SpawnFailure;
}

/** What `attach` answers before the replay frames. */
export interface AttachResult {
  session: SessionInfo;
  /** Seq of the first replayed byte. */
  replayFrom: number;
  /** Bytes asked for (`since`) that fell out of the ring before `replayFrom`; 0 when none. */
  missedBytes: number;
}

/** Answers and events the host sends. */
export type HostMessage =
  | { type: 'ok'; req: number; hello?: { protocol: number; hostPid: number }; session?: SessionInfo; sessions?: SessionInfo[]; attach?: AttachResult }
  | { type: 'error'; req: number | null; code: string; message: string; detail?: Record<string, unknown> }
  | { type: 'exit'; id: string; exitCode: number | null; signal: string | null; seq: number; spawnError?: SpawnFailure };

/** A decoded frame. */
export type Frame =
  | { kind: 'json'; message: unknown }
  | { kind: 'output' | 'replay'; id: string; seq: number; bytes: Buffer };

/** Encodes one JSON message as a frame. */
export function encodeJson(message: ClientMessage | HostMessage): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length + 1, 0);
  frame.writeUInt8(FRAME_JSON, 4);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

/** Encodes output bytes of session `id` starting at byte `seq`. */
export function encodeOutput(kind: typeof FRAME_OUTPUT | typeof FRAME_REPLAY, id: string, seq: number, bytes: Uint8Array): Buffer {
  const idBytes = Buffer.from(id, 'utf8');
  const length = 1 + 1 + idBytes.length + 8 + bytes.length;
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32BE(length, 0);
  frame.writeUInt8(kind, 4);
  frame.writeUInt8(idBytes.length, 5);
  idBytes.copy(frame, 6);
  frame.writeDoubleBE(seq, 6 + idBytes.length);
  frame.set(bytes, 14 + idBytes.length);
  return frame;
}

/**
 * Splits a byte stream into frames. `push` throws a {@link HostError} (`HOST_FRAME_TOO_LARGE`,
 * `HOST_BAD_MESSAGE`) on the first broken frame; the stream cannot be resynchronised after that,
 * so the caller closes the connection.
 */
export class FrameDecoder {
  #pending: Buffer = Buffer.alloc(0);

  /** @param maxFrameBytes - largest accepted frame (length field value). */
  constructor(readonly maxFrameBytes: number = MAX_FRAME_BYTES) {}

  /** Feeds bytes; returns every frame completed by them. */
  push(chunk: Buffer): Frame[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: Frame[] = [];
    let offset = 0;
    while (this.#pending.length - offset >= 4) {
      const length = this.#pending.readUInt32BE(offset);
      if (length < 1) throw new HostError('HOST_BAD_MESSAGE', 'frame length 0: every frame holds at least its kind byte');
      if (length > this.maxFrameBytes) {
        throw new HostError('HOST_FRAME_TOO_LARGE', `frame of ${length} bytes exceeds the limit of ${this.maxFrameBytes}; split writes into smaller pieces`, { length, limit: this.maxFrameBytes });
      }
      if (this.#pending.length - offset < 4 + length) break;
      frames.push(decodeFrame(this.#pending.subarray(offset + 4, offset + 4 + length)));
      offset += 4 + length;
    }
    // Copy the tail so a retained partial frame does not pin the whole chunk it came in.
    this.#pending = offset === 0 ? this.#pending : Buffer.from(this.#pending.subarray(offset));
    return frames;
  }

  /** Bytes held for an incomplete frame. */
  get pendingBytes(): number {
    return this.#pending.length;
  }
}

function decodeFrame(body: Buffer): Frame {
  const kind = body.readUInt8(0);
  if (kind === FRAME_JSON) {
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8', 1));
    } catch (cause) {
      throw new HostError('HOST_BAD_MESSAGE', `JSON frame does not parse: ${cause instanceof Error ? cause.message : String(cause)}; send one JSON object per frame`);
    }
    return { kind: 'json', message };
  }
  if (kind === FRAME_OUTPUT || kind === FRAME_REPLAY) {
    const idLength = body.length >= 2 ? body.readUInt8(1) : -1;
    if (idLength < 1 || body.length < 2 + idLength + 8) {
      throw new HostError('HOST_BAD_MESSAGE', `output frame of ${body.length} bytes is too short for its header (id length ${idLength})`);
    }
    const id = body.toString('utf8', 2, 2 + idLength);
    const seq = body.readDoubleBE(2 + idLength);
    return { kind: kind === FRAME_OUTPUT ? 'output' : 'replay', id, seq, bytes: body.subarray(10 + idLength) };
  }
  throw new HostError('HOST_BAD_MESSAGE', `unknown frame kind ${kind}; expected 1 (JSON), 2 (output) or 3 (replay)`, { kind });
}

/**
 * Checks a decoded JSON value is a well-formed {@link ClientMessage}; throws `HOST_BAD_MESSAGE`
 * naming the field, the value and what was expected.
 */
export function parseClientMessage(value: unknown): ClientMessage {
  assertClientMessage(value);
  return value;
}
