/**
 * Binary WebSocket frames carrying terminal bytes: `[8-byte big-endian seq of the first byte]
 * [1-byte id length][session id, ASCII][bytes]`. One layout, encoded by the server and
 * decoded by every client; pure (Uint8Array/DataView only).
 * @module
 */

/** Bytes before the payload: seq (8), id length (1). */
const HEADER_BYTES = 9;

export interface TerminalFrame { sessionId: string; seq: number; data: Uint8Array }

/** Encodes terminal bytes of `sessionId` starting at byte `seq`. */
export function encodeTerminalFrame(frame: TerminalFrame): Uint8Array {
  const id = new TextEncoder().encode(frame.sessionId);
  if (id.length > 255) throw new RangeError(`session id is ${id.length} bytes; at most 255 fit a terminal frame`);
  const out = new Uint8Array(HEADER_BYTES + id.length + frame.data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(frame.seq));
  out[8] = id.length;
  out.set(id, HEADER_BYTES);
  out.set(frame.data, HEADER_BYTES + id.length);
  return out;
}

/** Decodes a binary frame; null when it is too short to be one. */
export function decodeTerminalFrame(bytes: Uint8Array): TerminalFrame | null {
  if (bytes.length < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idLength = bytes[8]!;
  if (bytes.length < HEADER_BYTES + idLength) return null;
  return {
    seq: Number(view.getBigUint64(0)),
    sessionId: new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + idLength)),
    data: bytes.subarray(HEADER_BYTES + idLength),
  };
}
