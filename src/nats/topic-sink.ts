/**
 * The `WsSink` of a topic subscription served over NATS: each message goes to the subscriber's
 * delivery subject, numbered (./topic-wire.ts). NATS takes a publish at once, so there is no socket backlog
 * to read; the sink counts credit instead — `bufferedBytes` is what it published that the
 * subscriber has not acknowledged — and the terminal viewer degrades on it exactly as for a slow
 * WebSocket client (skips frames, resyncs once acks come). Past `maxBacklogBytes` a send ends the
 * subscription instead (as the WebSocket closes with 4001), so a subscriber that never acks
 * cannot make the node hold or send more than that.
 * @module
 */
import type { WsSink } from '../ops/contracts.js';
import { encodeTerminalFrame, type ServerMessage, type TerminalFrame } from '../protocol/index.js';
import { partsOf, payloadHeaders, type TopicEnd, type TopicPayloadKind } from './topic-wire.js';

export type PublishFn = (data: Uint8Array, headers: ReturnType<typeof payloadHeaders>) => void;

/** One payload published and not yet acknowledged; `end` is the byte seq after it, when it has one. */
interface Unacked { size: number; end: number | null }

export class PublishingSink implements WsSink {
  readonly #publish: PublishFn;
  readonly #maxPayload: number;
  readonly #maxBacklogBytes: number;
  readonly #onTooSlow: () => void;
  #n = 0;
  /** Payloads sent before the subscription's answer went out: they follow it. */
  #held: Array<{ kind: TopicPayloadKind; data: Uint8Array }> | null = [];
  readonly #unacked: Unacked[] = [];
  #buffered = 0;
  /** The byte seq after everything published (frames' ends, snapshots' seqs). */
  #publishedSeq = 0;
  #ended = false;

  constructor(options: { publish: PublishFn; maxPayload: number; maxBacklogBytes: number; onTooSlow: () => void }) {
    this.#publish = options.publish;
    this.#maxPayload = options.maxPayload;
    this.#maxBacklogBytes = options.maxBacklogBytes;
    this.#onTooSlow = options.onTooSlow;
  }

  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** The byte seq after everything this sink published: acking it takes every byte back. */
  get publishedSeq(): number {
    return this.#publishedSeq;
  }

  send(message: ServerMessage): void {
    this.#enqueue('message', new TextEncoder().encode(JSON.stringify(message)), message.type === 'snapshot' ? message.seq : null);
  }

  sendTerminal(frame: TerminalFrame): void {
    this.#enqueue('frame', encodeTerminalFrame(frame), frame.seq + frame.data.length);
  }

  /** Sends what waited for the subscription's answer (call right after it). */
  release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const { kind, data } of held) this.#out(kind, data);
  }

  /**
   * The subscriber rendered up to byte `seq`: it read everything up to the last payload that
   * ends there (it reads in order), so all of that is credit back.
   */
  ack(seq: number): void {
    let last = -1;
    this.#unacked.forEach((u, i) => { if (u.end !== null && u.end <= seq) last = i; });
    for (const u of this.#unacked.splice(0, last + 1)) this.#buffered -= u.size;
  }

  /** The last message: the node ended the subscription (nothing is sent after it). */
  end(end: TopicEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    this.release();
    this.#out('end', new TextEncoder().encode(JSON.stringify(end)));
  }

  #enqueue(kind: TopicPayloadKind, data: Uint8Array, end: number | null): void {
    if (this.#ended) return;
    if (this.#buffered > this.#maxBacklogBytes) {
      this.#onTooSlow();
      return;
    }
    this.#unacked.push({ size: data.length, end });
    if (end !== null) this.#publishedSeq = Math.max(this.#publishedSeq, end);
    this.#buffered += data.length;
    if (this.#held) this.#held.push({ kind, data });
    else this.#out(kind, data);
  }

  #out(kind: TopicPayloadKind, data: Uint8Array): void {
    const parts = partsOf(data, this.#maxPayload);
    parts.forEach((part, i) => this.#publish(part, payloadHeaders(++this.#n, kind, i < parts.length - 1)));
  }
}
