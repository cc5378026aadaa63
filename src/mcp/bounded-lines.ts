/**
 * The MCP server's stdin, one JSON-RPC message per line, with a bound on a line: the SDK's
 * reader re-scans and re-copies its whole buffer on every chunk, so a 10 MB message kept it
 * busy for minutes and every later call timed out. Lines up to `maxBytes` pass through
 * unchanged (found in linear time); a longer one is dropped as it streams, and the caller is
 * answered at once with an error for its request id (read from the line's start or its end:
 * the SDK's client writes `id` last).
 * @module
 */
import { Transform, type TransformCallback } from 'node:stream';

/** What one message may weigh (4 MiB: a message's text is at most 100,000 characters). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** How much of a dropped line's start and end is kept to find its request id. */
const TAIL_BYTES = 256;

export class BoundedLines extends Transform {
  readonly #maxBytes: number;
  readonly #onTooLarge: (id: string | number | null, bytes: number) => void;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while a too-long line streams past: its id (if its start named one), its size so far and its last bytes. */
  #dropping: { id: string | number | null; bytes: number; tail: Buffer } | null = null;

  constructor(maxBytes: number, onTooLarge: (id: string | number | null, bytes: number) => void) {
    super();
    this.#maxBytes = maxBytes;
    this.#onTooLarge = onTooLarge;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
    done();
  }

  #take(piece: Buffer): void {
    if (this.#dropping) {
      this.#dropping.bytes += piece.length;
      this.#dropping.tail = Buffer.concat([this.#dropping.tail, piece]).subarray(-TAIL_BYTES);
      return;
    }
    this.#parts.push(piece);
    this.#size += piece.length;
    if (this.#size <= this.#maxBytes) return;
    const line = Buffer.concat(this.#parts);
    this.#dropping = { id: requestIdIn(line.subarray(0, TAIL_BYTES).toString('utf8')), bytes: this.#size, tail: line.subarray(-TAIL_BYTES) };
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    if (this.#dropping) {
      const { id, bytes, tail } = this.#dropping;
      this.#onTooLarge(id ?? requestIdIn(tail.toString('utf8')), bytes);
      this.#dropping = null;
      return;
    }
    const line = Buffer.concat(this.#parts, this.#size);
    this.#parts = [];
    this.#size = 0;
    this.push(Buffer.concat([line, Buffer.from('\n')]));
  }
}

/** The `"id"` a JSON-RPC request's first bytes carry, when they do. */
export function requestIdIn(head: string): string | number | null {
  const m = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,128}")/.exec(head);
  if (!m) return null;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}
