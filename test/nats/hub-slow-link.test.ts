/**
 * A hub far from its NATS server (25 ms each way, through a real relay) takes a backlog of a
 * node's events many at a time: holding one event in flight, a round trip each, it took at
 * least 30 s for these 600 and fell behind any fleet that makes more than 20 a second. With
 * many in flight, a delivery the link drops must not be overtaken (and acknowledged unseen).
 * Real nats-server with JetStream, the real `specterm hub`.
 */
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEventsStream } from '../../src/nats/node-link.js';
import { eventSubject } from '../../src/nats/subjects.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { startSlowLink, type SlowLink } from '../helpers/slow-link.js';
import { makeDirs, stopAll } from '../daemon/daemon-harness.js';
import { readEvents, startHub, stopHubs } from './hub-harness.js';

const EVENTS = 600;
let nats: NatsServer;
let nc: NatsConnection;
let link: SlowLink;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  link = await startSlowLink({ port: nats.port }, 25);
}, 60_000);

afterAll(async () => {
  await stopHubs();
  await stopAll();
  await link?.close();
  await nc?.close().catch(() => {});
  await nats?.dispose();
}, 60_000);

/** `count` events of `node` on the stream, numbered from 1 as its publisher numbers them. */
async function publishEvents(node: string, count: number): Promise<void> {
  await ensureEventsStream(nc);
  const js = jetstream(nc);
  const at = Date.now();
  for (let first = 1; first <= count; first += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - first + 1) }, (_, i) => {
      const seq = first + i;
      const event = { seq, at: at + seq, session_id: `s_${node}`, node, type: 'session.error', code: 'TEST', message: `event ${seq}` };
      return js.publish(eventSubject(node, `s_${node}`), JSON.stringify(event), { msgID: `${node}-${seq}` });
    }));
  }
}

const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('a hub behind a slow link', () => {
  it('takes a backlog many events at a time, every one once and in its node\'s order', async () => {
    // A node's events waiting on the stream, as its publisher puts them (the node's seq, its name).
    await publishEvents('gamma', EVENTS);
    const started = Date.now();
    const hub = await startHub(makeDirs(), link.url);
    const events = await readEvents(hub, 0, (seen) => seen.some((e) => e.node === 'gamma' && e.node_seq === EVENTS), 90_000);
    const took = Date.now() - started;
    expect(events.filter((e) => e.node === 'gamma').map((e) => e.node_seq)).toEqual(oneToN(EVENTS));
    // One round trip an event would be 600 × 50 ms = 30 s; the hub's start through the link is
    // a few seconds of it. Generous for a loaded machine, far below one event per round trip.
    expect(took).toBeLessThan(20_000);
    await hub.stop();
  }, 150_000);

  it('loses none when the link drops deliveries on their way: they come again before any later one', async () => {
    const count = 3_000;
    await publishEvents('delta', count);
    const hub = await startHub(makeDirs(), link.url);
    await readEvents(hub, 0, (seen) => seen.some((e) => e.node === 'delta'), 90_000);
    // Lost for certain: a delivery of delta's events is inside the link when it drops.
    await link.cutWhileCarrying('specterm.delta.events');
    const events = await readEvents(hub, 0, (seen) => seen.some((e) => e.node === 'delta' && e.node_seq === count), 90_000);
    expect(events.filter((e) => e.node === 'delta').map((e) => e.node_seq)).toEqual(oneToN(count));
    expect(hub.stderr()).toMatch(/a reconnect dropped events on their way to the hub; it reads them again from stream seq \d+/);
    await hub.stop();
  }, 150_000);
});
