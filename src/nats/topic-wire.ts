/**
 * A topic subscription on NATS, as both ends speak it (docs/fleet.md, "Terminals over NATS").
 *
 * Opening: a request on `specterm.<node>.topics` — `{token, caller_session?, topic, since?, ref?,
 * keepalive_ms?}` — with a reply subject `specterm.<node>.topic-out.<name>` the subscriber already listens on. The node answers on
 * that subject first (`{ok: true, subscription, keepalive_ms}` or `{ok: false, error}`), then sends
 * the topic's messages there, in order. Each message carries two headers: `Specterm-N` (1, 2, 3…:
 * a missing number is a lost message) and `Specterm-Kind` — `message` (a JSON server message:
 * the snapshot, a lease change), `frame` (a binary terminal frame, as on the WebSocket) or `end`
 * (`{code, detail}`: the node ended the subscription). A payload over NATS's `max_payload`
 * travels in parts: every part but the last carries `Specterm-More: 1`.
 *
 * The subscriber sends JSON {@link TopicControl} messages to `specterm.<node>.topic.<subscription>`.
 * @module
 */
import { headers, type Msg, type MsgHdrs } from '@nats-io/transport-node';

export const N_HEADER = 'Specterm-N';
export const KIND_HEADER = 'Specterm-Kind';
export const MORE_HEADER = 'Specterm-More';

export type TopicPayloadKind = 'message' | 'frame' | 'end';

/** How long a node keeps a subscription that sends nothing (no keepalive, no ack): 15 s unless the subscriber asks otherwise. */
export const DEFAULT_KEEPALIVE_MS = 15_000;
export const MIN_KEEPALIVE_MS = 1_000;
export const MAX_KEEPALIVE_MS = 60_000;

/**
 * What a subscriber sends about its subscription: `ack` the byte seq its client rendered (the
 * node's credit), `keepalive` (answered, so the subscriber learns when the node forgot it),
 * `resync` after a gap (whatever is in flight is dropped; a fresh snapshot follows it), `close`.
 */
export type TopicControl = { type: 'ack'; bytes: number } | { type: 'keepalive' } | { type: 'resync' } | { type: 'close' };

/** The end of a subscription the node decided. */
export interface TopicEnd { code: string; detail: string }

/** The headers of message `n` of a subscription. */
export function payloadHeaders(n: number, kind: TopicPayloadKind, more: boolean): MsgHdrs {
  const h = headers();
  h.set(N_HEADER, String(n));
  h.set(KIND_HEADER, kind);
  if (more) h.set(MORE_HEADER, '1');
  return h;
}

/** Splits a payload into parts of at most `max` bytes (one part when it fits). */
export function partsOf(payload: Uint8Array, max: number): Uint8Array[] {
  if (payload.length <= max) return [payload];
  const parts: Uint8Array[] = [];
  for (let at = 0; at < payload.length; at += max) parts.push(payload.subarray(at, at + max));
  return parts;
}

/** One whole payload as the subscriber reassembles it. */
export interface TopicPayload { n: number; kind: TopicPayloadKind; data: Uint8Array }

/**
 * Reassembles a subscription's payloads from its messages and tells a lost one: `take` answers
 * a whole payload, `null` while parts are still to come, or `'gap'` when a message number is
 * missing (the parts held so far are dropped: a torn payload is never handed on).
 */
export class PayloadAssembler {
  #expected = 1;
  #parts: Uint8Array[] = [];
  /** After a gap: the rest of a torn payload is dropped, up to its last part. */
  #skipping = false;

  take(msg: Msg): TopicPayload | null | 'gap' {
    const n = Number(msg.headers?.get(N_HEADER));
    const kind = msg.headers?.get(KIND_HEADER) as TopicPayloadKind;
    const more = msg.headers?.get(MORE_HEADER) === '1';
    const gap = n !== this.#expected;
    this.#expected = n + 1;
    if (gap) {
      // This message may be the middle or the tail of a payload whose start was lost.
      this.#parts = [];
      this.#skipping = more;
      return 'gap';
    }
    if (this.#skipping) {
      this.#skipping = more;
      return null;
    }
    this.#parts.push(msg.data);
    if (more) return null;
    const data = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts);
    this.#parts = [];
    return { n, kind, data };
  }
}
