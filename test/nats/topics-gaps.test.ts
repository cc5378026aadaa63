/**
 * The subscriber side of terminals over NATS never renders a torn stream: a node of the test's
 * own making, on a real `nats-server`, sends it lost messages, a jump in the byte seq, a repeat,
 * a payload in parts and an end — and the local sink gets only whole, contiguous bytes, each
 * gap answered by a resync request and the fresh snapshot that follows it.
 */
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/ops/contracts.js';
import { remoteTerminalTopics } from '../../src/nats/remote-topic.js';
import { payloadHeaders, type TopicPayloadKind } from '../../src/nats/topic-wire.js';
import { encodeTerminalFrame } from '../../src/protocol/index.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { RenderingSink } from './topics-harness.js';

const WAIT_MS = 30_000;
const TOPIC = 'terminal/s_gappy';
let nats: NatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
}, 60_000);
afterAll(async () => {
  await nc?.close().catch(() => {});
  await nats?.dispose();
}, 60_000);

/** A node that answers every subscription with the next id and lets the test publish for it. */
function fakeNode() {
  const opens: Array<{ inbox: string; request: Record<string, unknown> }> = [];
  const controls: Array<{ subject: string; type: string }> = [];
  const ids = ['sub1', 'sub2', 'sub3'];
  nc.subscribe('specterm.fake.topics', {
    callback: (_e, msg: Msg) => {
      opens.push({ inbox: msg.reply!, request: msg.json() });
      msg.respond(JSON.stringify({ ok: true, subscription: ids[opens.length - 1], keepalive_ms: 15_000 }));
    },
  });
  nc.subscribe('specterm.fake.topic.*', {
    callback: (_e, msg: Msg) => {
      controls.push({ subject: msg.subject, type: msg.json<{ type: string }>().type });
      if (msg.reply) msg.respond(JSON.stringify({ ok: true }));
    },
  });
  const send = (inbox: string, n: number, kind: TopicPayloadKind, data: Uint8Array | string, more = false) =>
    nc.publish(inbox, typeof data === 'string' ? new TextEncoder().encode(data) : data, { headers: payloadHeaders(n, kind, more) });
  const snapshot = (seq: number, text: string) => JSON.stringify({ type: 'snapshot', topic: TOPIC, seq, data: text, cols: 20, rows: 4 });
  const frame = (seq: number, text: string) => encodeTerminalFrame({ sessionId: 's_gappy', seq, data: new TextEncoder().encode(text) });
  return { opens, controls, send, snapshot, frame };
}

describe('a remote terminal with losses on the way', () => {
  it('hands on only contiguous bytes, asks for a resync at each gap and reopens when the node ends it', async () => {
    const node = fakeNode();
    const sink = new RenderingSink();
    const frames: Array<[number, string]> = [];
    const sendTerminal = sink.sendTerminal.bind(sink);
    sink.sendTerminal = (f) => { frames.push([f.seq, new TextDecoder().decode(f.data)]); sendTerminal(f); };
    const handler = remoteTerminalTopics({ nc, nodeOf: () => 'fake', tokenOf: () => 'the-token' });
    const ctx = { principal: { tokenId: 'hub', name: 'hub', scope: 'admin' }, requestId: 'r', remoteAddress: 'test' } as unknown as RequestContext;
    const sub = await handler({ type: 'subscribe', topic: TOPIC }, ctx, sink);
    expect(sub.subscription).toBe('sub1');
    expect(node.opens[0]!.request).toMatchObject({ token: 'the-token', topic: TOPIC });
    const inbox = node.opens[0]!.inbox;
    const first = node.snapshot(0, 'hello screen');
    node.send(inbox, 1, 'message', first.slice(0, 10), true); // a payload in two parts
    node.send(inbox, 2, 'message', first.slice(10));
    node.send(inbox, 3, 'frame', node.frame(0, 'abc'));
    node.send(inbox, 4, 'frame', node.frame(3, 'def'));
    node.send(inbox, 5, 'frame', node.frame(10, 'xyz')); // bytes 6..10 never came
    node.send(inbox, 6, 'frame', node.frame(13, '123')); // after the gap: held back until a snapshot
    node.send(inbox, 8, 'frame', node.frame(16, '456')); // message 7 lost
    node.send(inbox, 9, 'message', node.snapshot(20, 'fresh'));
    node.send(inbox, 10, 'frame', node.frame(20, 'ok'));
    node.send(inbox, 11, 'frame', node.frame(18, 'xxok!')); // repeats 18..22: only the new '!' goes on
    await waitFor(() => frames.length === 4, WAIT_MS, 'the frames');
    expect(frames).toEqual([[0, 'abc'], [3, 'def'], [20, 'ok'], [22, '!']]);
    expect(sink.snapshots().map((s) => [s.seq, s.data])).toEqual([[0, 'hello screen'], [20, 'fresh']]);
    // The resync requests travel through the server to the node: under load they can land after
    // the frames reached the sink.
    const resyncs = () => node.controls.filter((c) => c.type === 'resync').map((c) => c.subject);
    await waitFor(() => resyncs().length >= 2, WAIT_MS, 'the two resync requests at the node');
    expect(resyncs()).toEqual(['specterm.fake.topic.sub1', 'specterm.fake.topic.sub1']);
    expect(sink.tears).toEqual([]);
    // The local client may ack what it was given, and no further.
    expect(sub.ack(23)).toBe(true);
    expect(sub.ack(24)).toBe(false);

    // The node ends it (too slow): a new subscription, from a fresh snapshot.
    node.send(inbox, 12, 'end', JSON.stringify({ code: 'SUBSCRIBER_TOO_SLOW', detail: 'too slow' }));
    await waitFor(() => node.opens.length === 2, WAIT_MS, 'the subscription opened again');
    expect(node.opens[1]!.request).not.toHaveProperty('since');
    await waitFor(() => sub.subscription === 'sub2', WAIT_MS, 'the new subscription id');
    node.send(node.opens[1]!.inbox, 1, 'message', node.snapshot(30, 'again'));
    node.send(inbox, 13, 'frame', node.frame(23, 'stale')); // the old inbox is not read any more
    node.send(node.opens[1]!.inbox, 2, 'frame', node.frame(30, 'on'));
    await waitFor(() => frames.length === 5, WAIT_MS, 'the frame after the new snapshot');
    expect(frames.at(-1)).toEqual([30, 'on']);
    expect(sink.tears).toEqual([]);
    sub.dispose();
    await waitFor(() => node.controls.some((c) => c.type === 'close' && c.subject === 'specterm.fake.topic.sub2'), WAIT_MS, 'the close');
    sink.dispose();
  }, 60_000);
});
