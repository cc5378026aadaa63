/**
 * The two kinds of subscriber the topic tests use: a local `WsSink` that renders what
 * remote-topic.ts hands it into its own headless xterm (and records any tear: a frame that does
 * not start where the last one ended), and a raw NATS client of the wire (./topic-wire.ts) that
 * acks only when told — or never.
 */
import xtermHeadless from '@xterm/headless';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { nuid, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { topicDeliverSubject } from '../../src/nats/subjects.js';
import type { WsSink } from '../../src/ops/contracts.js';
import type { ServerMessage, TerminalFrame } from '../../src/protocol/index.js';
import { PayloadAssembler, type TopicPayload } from '../../src/nats/topic-wire.js';

const { Terminal } = xtermHeadless;

/** A fast local client: renders everything it is given, in order, and says when it was torn. */
export class RenderingSink implements WsSink {
  readonly messages: ServerMessage[] = [];
  readonly tears: string[] = [];
  readonly bufferedBytes = 0;
  term: XtermTerminal | null = null;
  /** Seq after the last byte written into `term`. */
  expected: number | null = null;
  frames = 0;

  send(message: ServerMessage): void {
    this.messages.push(message);
    if (message.type !== 'snapshot') return;
    this.term?.dispose();
    this.term = new Terminal({ cols: message.cols, rows: message.rows, allowProposedApi: true });
    this.term.write(message.data);
    this.expected = message.seq;
  }

  sendTerminal(frame: TerminalFrame): void {
    if (this.expected === null || !this.term) { this.tears.push(`frame at ${frame.seq} before any snapshot`); return; }
    if (frame.seq !== this.expected) this.tears.push(`frame at ${frame.seq}, expected ${this.expected}`);
    this.frames += 1;
    this.expected = frame.seq + frame.data.length;
    this.term.write(Uint8Array.from(frame.data));
  }

  /** The screen's text once xterm parsed everything written so far. */
  async screen(): Promise<string> {
    const term = this.term;
    if (!term) return '';
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  snapshots(): Array<Extract<ServerMessage, { type: 'snapshot' }>> {
    return this.messages.filter((m): m is Extract<ServerMessage, { type: 'snapshot' }> => m.type === 'snapshot');
  }

  dispose(): void {
    this.term?.dispose();
  }
}

/** A raw subscriber on the wire: what the node answered and published, and the bytes of it. */
export interface RawSubscriber {
  answer: { ok: boolean; subscription?: string; keepalive_ms?: number; error?: { code: string; detail: string } };
  payloads: TopicPayload[];
  gaps: number;
  /** Bytes of every payload the node published after its answer. */
  bytes(): number;
  close(): void;
}

/** `inbox`: where to listen (default: one of the node's delivery subjects, as remote-topic.ts picks). */
export async function openRaw(nc: NatsConnection, node: string, request: unknown, inbox = topicDeliverSubject(node, nuid.next())): Promise<RawSubscriber> {
  const assembler = new PayloadAssembler();
  const payloads: TopicPayload[] = [];
  let gaps = 0;
  let answered!: (data: unknown) => void;
  const answer = new Promise<RawSubscriber['answer']>((resolve) => { answered = resolve as (data: unknown) => void; });
  let first = true;
  const sub: Subscription = nc.subscribe(inbox, {
    callback: (_error, msg) => {
      if (first) { first = false; answered(msg.json()); return; }
      const payload = assembler.take(msg);
      if (payload === 'gap') gaps += 1;
      else if (payload) payloads.push(payload);
    },
  });
  nc.publish(`specterm.${node}.topics`, typeof request === 'string' ? request : JSON.stringify(request), { reply: inbox });
  return {
    answer: await answer,
    payloads,
    get gaps() { return gaps; },
    bytes: () => payloads.reduce((sum, p) => sum + p.data.length, 0),
    close: () => sub.unsubscribe(),
  };
}

export function jsonOf(payload: TopicPayload): any {
  return JSON.parse(new TextDecoder().decode(payload.data));
}
