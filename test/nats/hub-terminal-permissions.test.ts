/**
 * The NATS permissions docs/fleet.md gives a node and the hub, run for real with a terminal
 * through the hub: a `nats-server` with exactly the doc's user entries (build-01 and hub), the
 * node and the hub each signed in as its own user (`--nats-creds`), and a WebSocket client of
 * the hub that gets the node's terminal and types into it. A subject the doc forgot would
 * leave the subscription unanswered (NODE_UNREACHABLE) or the frames undelivered.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';
import { startHub, stopHubs, type RunningHub } from './hub-harness.js';
import { connectToHub, type HubClient } from './hub-terminal-harness.js';

const WAIT_MS = 60_000;
const DOC = fs.readFileSync(new URL('../../docs/fleet.md', import.meta.url), 'utf8');
const passwords = { 'build-01': randomBytes(12).toString('hex'), hub: randomBytes(12).toString('hex') };
let nats: NatsServer;
let configDir: string;
let dirs: { node: DaemonDirs; hub: DaemonDirs };
let node: RunningDaemon;
let hub: RunningHub;
let client: HubClient | undefined;

/** The doc's user entry for `user`, as a person would copy it, with its password. */
function userEntry(user: 'build-01' | 'hub'): string {
  const entry = new RegExp(`\\{ user: ${user},[\\s\\S]*?\\} \\}`).exec(DOC)?.[0];
  if (!entry) throw new Error(`docs/fleet.md has no "{ user: ${user}, … } }" entry`);
  return entry.replace('"…"', `"${passwords[user]}"`);
}

function credsFile(d: DaemonDirs, user: 'build-01' | 'hub'): string {
  const file = path.join(d.home, 'nats.json');
  fs.writeFileSync(file, JSON.stringify({ user, pass: passwords[user] }), { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-nats-conf-'));
  const config = path.join(configDir, 'nats.conf');
  fs.writeFileSync(config, `authorization {\n  users = [\n    ${userEntry('build-01')}\n    ${userEntry('hub')}\n  ]\n}\n`, { mode: 0o600 });
  nats = await startNatsServer(['-c', config]);
  dirs = { node: makeDirs(), hub: makeDirs() };
  node = await startDaemon(dirs.node, ['--nats', nats.url, '--nats-creds', credsFile(dirs.node, 'build-01'), '--node', 'build-01']);
  hub = await startHub(dirs.hub, nats.url, ['--nats-creds', credsFile(dirs.hub, 'hub')]);
}, 180_000);

afterAll(async () => {
  client?.close();
  await stopHubs();
  await stopAll();
  await nats?.dispose();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
}, 90_000);

describe('the NATS permissions docs/fleet.md gives the hub', () => {
  it('carry a node\'s terminal through the hub: the snapshot, the frames, and input back', async () => {
    const session = await waitFor(async () => {
      try { return (await hub.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.node.work, cols: 100, rows: 30, node: 'build-01' } })).id; } catch { return undefined; }
    }, WAIT_MS, 'a session on build-01 through the hub');
    await waitFor(async () => (await node.client.call('getSession', { params: { id: session } })).state?.id === 'idle', WAIT_MS, 'the demo agent idle');
    client = await connectToHub(hub.url, hub.admin, WAIT_MS);
    const { sink } = client;
    expect(await client.reply({ type: 'subscribe', topic: `terminal/${session}` })).toMatchObject({ type: 'subscribed' });
    await waitFor(async () => (await sink.screen()).includes('Welcome to Demo Agent'), WAIT_MS, 'the snapshot');
    expect(await client.reply({ type: 'input', session_id: session, data: 'allowed through' })).toMatchObject({ type: 'ok' });
    await waitFor(async () => (await sink.screen()).includes('allowed through'), WAIT_MS, 'the typed text, echoed in frames');
    expect(sink.frames).toBeGreaterThan(0);
    expect(sink.tears).toEqual([]);
    expect(hub.stderr()).not.toMatch(/Permissions Violation/i);
  }, 120_000);
});
