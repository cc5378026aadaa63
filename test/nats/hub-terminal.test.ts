/**
 * A node's terminal through the hub (issue 25, "a terminal of a node"): a real `nats-server`, a
 * real node `alpha` with the Demo Agent, the real hub (`specterm hub --nats`), and a real
 * WebSocket client of the hub, as the dashboard is. The client subscribes with the fleet id and
 * gets the snapshot and the frames of an answer under that id, gap-free; its input, lease and
 * resize reach the session on the node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';
import { startHub, stopHubs, type RunningHub } from './hub-harness.js';
import { connectToHub, type HubClient } from './hub-terminal-harness.js';

const WAIT_MS = 60_000;
let nats: NatsServer;
let dirs: { alpha: DaemonDirs; hub: DaemonDirs };
let alpha: RunningDaemon;
let hub: RunningHub;
let session: string;
const clients: HubClient[] = [];

async function connect(token: string): Promise<HubClient> {
  const client = await connectToHub(hub.url, token, WAIT_MS);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  nats = await startNatsServer();
  dirs = { alpha: makeDirs(), hub: makeDirs() };
  alpha = await startDaemon(dirs.alpha, ['--nats', nats.url, '--node', 'alpha']);
  hub = await startHub(dirs.hub, nats.url);
  // The hub knows the node once its presence record arrived.
  session = (await waitFor(async () => {
    try { return (await hub.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.alpha.work, name: 'on-alpha', cols: 100, rows: 30, node: 'alpha' } })).id; } catch { return undefined; }
  }, WAIT_MS, 'a session on alpha through the hub'));
  await waitFor(async () => (await alpha.client.call('getSession', { params: { id: session } })).state?.id === 'idle', WAIT_MS, 'the demo agent idle on alpha');
}, 180_000);

afterAll(async () => {
  for (const client of clients) client.close();
  await stopHubs();
  await stopAll();
  await nats?.dispose();
}, 90_000);

describe('a node\'s terminal through the hub', () => {
  it('streams the snapshot and the frames of an answer under the fleet id the client subscribed with', async () => {
    const client = await connect(hub.admin);
    const topic = `terminal/alpha_${session}`;
    expect(await client.reply({ type: 'subscribe', topic })).toMatchObject({ type: 'subscribed', topic });
    await waitFor(() => client.sink.snapshots().length > 0, WAIT_MS, 'the snapshot');
    expect(client.sink.snapshots()[0]).toMatchObject({ type: 'snapshot', topic, cols: 100, rows: 30 });
    expect(await client.sink.screen()).toContain('Welcome to Demo Agent');
    const sent = await hub.client.call('sendMessage', { params: { id: session }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    expect(sent.delivery).toBe('idle');
    await waitFor(async () => (await client.sink.screen()).includes('Hello!'), WAIT_MS, 'the answer in the terminal through the hub');
    expect(client.sink.frames).toBeGreaterThan(0);
    expect([...client.frameIds]).toEqual([`alpha_${session}`]);
    expect(client.sink.tears).toEqual([]);
    client.socket.send(JSON.stringify({ type: 'ack', topic, bytes: client.sink.expected }));
    expect(await client.reply({ type: 'unsubscribe', topic })).toMatchObject({ type: 'unsubscribed', topic });
  }, 120_000);

  it('takes input, lease and resize through the hub: the session on the node shows them', async () => {
    const client = await connect(hub.admin);
    const topic = `terminal/${session}`;
    // Without a subscription on this connection the node refuses the lease, as a daemon does.
    expect(await client.reply({ type: 'lease', session_id: session, action: 'acquire' })).toMatchObject({ type: 'error', code: 'LEASE_NEEDS_SUBSCRIPTION' });
    await client.reply({ type: 'subscribe', topic });
    expect(await client.reply({ type: 'input', session_id: session, data: 'typed through the hub' })).toMatchObject({ type: 'ok' });
    await waitFor(async () => (await client.sink.screen()).includes('typed through the hub'), WAIT_MS, 'the keystrokes in the terminal');
    expect((await alpha.client.call('getScreen', { params: { id: session } })).content).toContain('typed through the hub');
    expect(await client.reply({ type: 'lease', session_id: session, action: 'acquire' })).toMatchObject({ type: 'lease', session_id: session, holder: 'you' });
    expect(await client.reply({ type: 'resize', session_id: session, cols: 90, rows: 28 })).toMatchObject({ type: 'ok' });
    await waitFor(() => client.sink.snapshots().some((s) => s.cols === 90 && s.rows === 28 && s.topic === topic), WAIT_MS, 'a snapshot of the new size');
    expect((await alpha.client.call('getSession', { params: { id: session } })).cols).toBe(90);
    expect(await client.reply({ type: 'lease', session_id: session, action: 'release' })).toMatchObject({ type: 'lease', holder: 'none' });
    expect(client.sink.tears).toEqual([]);
    await client.reply({ type: 'input', session_id: session, data: '\u0015' }); // clears the input line
  }, 120_000);

  it('refuses the terminal of a session no node has, naming the nodes', async () => {
    const client = await connect(hub.admin);
    expect(await client.reply({ type: 'subscribe', topic: 'terminal/alpha_s_nosuchone' })).toMatchObject({ type: 'error' });
    expect(await client.reply({ type: 'subscribe', topic: 'terminal/s_nosuchone' })).toMatchObject({ type: 'error', code: 'SESSION_NOT_FOUND' });
  }, 60_000);
});
