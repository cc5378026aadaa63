/**
 * A node cut off by a real partition: the daemon runs in a network namespace of the test's own
 * making and reaches NATS over a veth link, which the test cuts silently (every packet dropped,
 * nothing reset — what a pulled cable or a dead VPN does) while the node works on, then heals.
 * The node's events must reach the stream in order, once, without any new event to prompt it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNetns, type Netns } from '../helpers/netns.js';
import { streamedEvents } from '../helpers/nats-stream.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';

const BIN = fileURLToPath(new URL('../../bin/specterm.js', import.meta.url));
const WAIT_MS = 60_000;
let ns: Netns;
let nats: NatsServer;
let dirs: DaemonDirs;
let nc: NatsConnection;
let admin: string;
let daemon: RunningDaemon;

const streamed = () => streamedEvents(nc);

async function op(request: Record<string, unknown>): Promise<any> {
  return (await nc.request('specterm.p1.ops', JSON.stringify({ token: admin, ...request }), { timeout: 30_000 })).json();
}

/** The CLI, run inside the node's namespace (its daemon listens on that namespace's loopback). */
async function cliInside(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(ns.exec[0]!, [...ns.exec.slice(1), process.execPath, BIN, ...args], { env: dirs.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

beforeAll(async () => {
  ns = makeNetns();
  nats = await startNatsServer([], undefined, ns.hostIp);
  dirs = makeDirs();
  daemon = await startDaemon(dirs, ['--nats', nats.url, '--node', 'p1'], { prefix: ns.exec });
  admin = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
}, 120_000);
afterAll(async () => {
  ns?.heal();
  await nc?.close().catch(() => {});
  await stopAll();
  await nats?.dispose();
  ns?.dispose();
}, 60_000);

describe('a node behind a partition', () => {
  it('works on while cut off and, healed, publishes what it missed in order, once', async () => {
    await waitFor(async () => {
      const entry = await (await new Kvm(nc).open('specterm_presence')).get('p1').catch(() => null);
      return entry?.json<{ node: string }>()?.node === 'p1' || undefined;
    }, WAIT_MS, 'the node\'s presence, over the link').catch((error: Error) => { throw new Error(`${error.message}; the node said: ${daemon.stderr()}`); });
    const created = await op({ op: 'createSession', body: { spec: 'demo-agent', cwd: dirs.work, name: 'cut', cols: 100, rows: 30 } });
    expect(created.ok).toBe(true);
    const id = created.answer.id as string;
    await waitFor(async () => (await op({ op: 'getSession', params: { id } })).answer?.state?.id === 'idle' || undefined, WAIT_MS, 'idle');
    await waitFor(async () => (await streamed()).some((e) => e.session_id === id && e.type === 'session.state') || undefined, WAIT_MS, 'the first events on the stream');

    ns.cut();
    const sent = await cliInside(['send', 'cut', 'hello', '--wait', 'idle', '--timeout-ms', '45000']);
    expect(sent).toMatchObject({ code: 0, err: 'specterm send: idle\n' });
    expect((await streamed()).some((e) => e.session_id === id && e.type === 'turn.finished')).toBe(false);

    // Held until the node has given up on a publish (its timeout), so it has a backlog to send.
    await waitFor(() => daemon.stderr().includes('events wait for NATS') || undefined, WAIT_MS, 'the node to notice it is cut off');
    ns.heal();
    // Nothing new happens on the node: what waited must go out by itself.
    const all = await waitFor(async () => {
      const events = await streamed().catch(() => []);
      return events.some((e) => e.session_id === id && e.type === 'turn.finished') ? events : undefined;
    }, 90_000, 'the events made while cut off');
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
  }, 240_000);
});
