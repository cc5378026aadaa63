/**
 * A node on a three-server NATS cluster: the stream and the presence bucket are kept on three
 * servers, and when the server the node is connected to dies mid-stream the node moves to
 * another (it was given only that one server: it learns the rest from the cluster) and every
 * event still reaches the stream once, in order — nothing waits for the dead server to return.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedEvents } from '../helpers/nats-stream.js';
import { startNatsCluster, type NatsCluster } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';

const WAIT_MS = 60_000;
let cluster: NatsCluster;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
/** The test's own client, on the servers that stay up. */
let nc: NatsConnection;

const streamed = () => streamedEvents(nc);

beforeAll(async () => {
  cluster = await startNatsCluster(3);
  dirs = makeDirs();
  // Only the first server: the node must learn the others from the cluster to survive its loss.
  daemon = await startDaemon(dirs, ['--nats', cluster.servers[0]!.url, '--node', 'c1']);
  nc = await connect({ servers: [cluster.servers[1]!.url, cluster.servers[2]!.url], maxReconnectAttempts: -1, reconnectTimeWait: 200 });
}, 120_000);
afterAll(async () => {
  await nc?.close().catch(() => {});
  await stopAll();
  await cluster?.dispose();
}, 60_000);

describe('a node on a NATS cluster', () => {
  it('keeps the stream and its presence on three servers', async () => {
    const jsm = await jetstreamManager(nc);
    const info = await waitFor(async () => jsm.streams.info('SPECTERM_EVENTS').catch(() => undefined), WAIT_MS, 'the stream');
    expect(info.config.num_replicas).toBe(3);
    const bucket = await waitFor(async () => (await new Kvm(nc).open('specterm_presence')).status().catch(() => undefined), WAIT_MS, 'the presence bucket');
    expect(bucket.replicas).toBe(3);
  }, 90_000);

  it('loses the server it is connected to mid-stream and still publishes every event once, in order', async () => {
    const first = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'before', cols: 100, rows: 30 } });
    await waitFor(async () => (await streamed()).some((e) => e.session_id === first.id && e.type === 'session.state') || undefined, WAIT_MS, 'the first events');
    await cluster.servers[0]!.stop();
    // The node works on while it moves to another server; what it writes meanwhile is queued.
    const second = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'after', cols: 100, rows: 30 } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: second.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    await daemon.client.call('sendMessage', { params: { id: second.id }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    const all = await waitFor(async () => {
      const events = await streamed().catch(() => []);
      return events.some((e) => e.session_id === second.id && e.type === 'turn.finished') ? events : undefined;
    }, 90_000, 'the events after the failover, with the first server still down');
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.filter((e) => e.session_id === second.id)[0]!.type).toBe('session.created');
    expect(daemon.stderr()).toMatch(/nats: reconnected/);
  }, 240_000);
});
