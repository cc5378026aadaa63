/**
 * The NATS permissions docs/fleet.md tells a person to give each node, run for real: the block
 * is read from the doc itself (so the doc cannot drift from what works), given to a real
 * `nats-server` for two nodes, and a node started with its own credentials must work fully
 * under them (events, presence, operations, a terminal streamed) — while, as that node's user, publishing as the other node, taking the other
 * node's commands, or deleting the fleet's stream is refused by NATS.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedEvents } from '../helpers/nats-stream.js';
import { openRaw } from './topics-harness.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';

const WAIT_MS = 60_000;
const DOC = fs.readFileSync(new URL('../../docs/fleet.md', import.meta.url), 'utf8');
const passwords = { 'build-01': randomBytes(12).toString('hex'), 'build-02': randomBytes(12).toString('hex'), observer: randomBytes(12).toString('hex') };
let nats: NatsServer;
let configDir: string;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
/** A user with every permission: the test's eyes. */
let observer: NatsConnection;

/** The doc's user entry for build-01, as a person would copy it, for `node` with its password. */
function userEntryFor(node: 'build-01' | 'build-02'): string {
  const block = /```\n(authorization \{[\s\S]*?)\n```/.exec(DOC)?.[1];
  if (!block) throw new Error('docs/fleet.md has no ``` block starting with "authorization {"');
  const entry = /\{ user: build-01,[\s\S]*?\} \}/.exec(block)?.[0];
  if (!entry) throw new Error('docs/fleet.md\'s authorization block has no "{ user: build-01, … } }" entry');
  return entry.replaceAll('build-01', node).replace('"…"', `"${passwords[node]}"`);
}

beforeAll(async () => {
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-nats-conf-'));
  const config = path.join(configDir, 'nats.conf');
  fs.writeFileSync(config, `authorization {\n  users = [\n    ${userEntryFor('build-01')}\n    ${userEntryFor('build-02')}\n    { user: observer, password: "${passwords.observer}" }\n  ]\n}\n`, { mode: 0o600 });
  nats = await startNatsServer(['-c', config]);
  dirs = makeDirs();
  const creds = path.join(dirs.home, 'nats.json');
  fs.writeFileSync(creds, JSON.stringify({ user: 'build-01', pass: passwords['build-01'] }), { mode: 0o600 });
  daemon = await startDaemon(dirs, ['--nats', nats.url, '--nats-creds', creds, '--node', 'build-01']);
  observer = await connect({ servers: nats.url, user: 'observer', pass: passwords.observer, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
}, 120_000);
afterAll(async () => {
  await observer?.close().catch(() => {});
  await stopAll();
  await nats?.dispose();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
}, 60_000);

/** Connects as a node's user; the permission errors the server sends come back in `denied`. */
async function asNode(node: 'build-01' | 'build-02'): Promise<{ nc: NatsConnection; denied: string[] }> {
  // The node's own inbox prefix, as the node itself connects: the only inboxes its user may read.
  const nc = await connect({ servers: nats.url, user: node, pass: passwords[node], inboxPrefix: `_INBOX_${node}` });
  const denied: string[] = [];
  void (async () => { for await (const s of nc.status()) if (s.type === 'error') denied.push(String((s as { error?: unknown }).error)); })();
  return { nc, denied };
}

describe('the NATS permissions docs/fleet.md gives a node', () => {
  it('are enough for a node to link, publish its events and presence, and answer its operations', async () => {
    await waitFor(() => daemon.stderr().includes('nats: node build-01 linked') || undefined, WAIT_MS, 'the node to link under its permissions');
    const admin = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const created = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'p', cols: 100, rows: 30 } });
    const events = await waitFor(async () => {
      const all = await streamedEvents(observer).catch(() => []);
      return all.some((e) => e.session_id === created.id && e.type === 'session.state') ? all : undefined;
    }, WAIT_MS, 'the node\'s events on the stream');
    expect(events.every((e) => e.subject.startsWith('specterm.build-01.events.'))).toBe(true);
    const presence = await waitFor(async () => (await (await new Kvm(observer).open('specterm_presence')).get('build-01').catch(() => null))?.json<{ node: string }>(), WAIT_MS, 'the presence record');
    expect(presence.node).toBe('build-01');
    const reply = await observer.request('specterm.build-01.ops', JSON.stringify({ op: 'listSessions', token: admin }), { timeout: 30_000 });
    expect(reply.json<{ ok: boolean }>().ok).toBe(true);
    // A terminal streams to a subscriber elsewhere under the node's own subjects.
    const terminal = await openRaw(observer, 'build-01', { token: admin, topic: `terminal/${created.id}` });
    try {
      expect(terminal.answer.ok).toBe(true);
      await waitFor(() => terminal.payloads.length > 0 || undefined, WAIT_MS, 'the terminal\'s snapshot over NATS');
    } finally {
      terminal.close();
    }
    expect(daemon.stderr()).not.toMatch(/permission/i);
  }, 120_000);

  it('refuse a node publishing as another, taking another\'s commands, reading another\'s events, or deleting the stream', async () => {
    const { nc, denied } = await asNode('build-01');
    try {
      nc.publish('specterm.build-02.events.s_forged', '{}');
      nc.subscribe('specterm.build-02.ops');
      await nc.flush();
      await waitFor(() => denied.length >= 2 || undefined, WAIT_MS, 'NATS to refuse both');
      expect(denied.join('\n')).toMatch(/publish.*specterm\.build-02\.events\.s_forged/i);
      expect(denied.join('\n')).toMatch(/subscription.*specterm\.build-02\.ops/i);
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      await expect(jsm.streams.delete('SPECTERM_EVENTS')).rejects.toThrow();
      await expect(jsm.streams.purge('SPECTERM_EVENTS')).rejects.toThrow();
      await expect(jsm.streams.delete('KV_specterm_presence')).rejects.toThrow();
      const presence = await new Kvm(nc).open('specterm_presence');
      await expect(presence.put('build-02', '{"node":"build-02","forged":true}')).rejects.toThrow();
      // It may read its own last event from the stream (what a node set up again numbers after), no other's.
      const own = await nc.request('$JS.API.DIRECT.GET.SPECTERM_EVENTS.specterm.build-01.events.>', '', { timeout: 10_000 });
      expect([own.headers?.code ?? 0, own.json<{ node: string }>().node]).toEqual([0, 'build-01']);
      const before = denied.length;
      await expect(nc.request('$JS.API.DIRECT.GET.SPECTERM_EVENTS.specterm.build-02.events.>', '', { timeout: 3_000 })).rejects.toThrow();
      await waitFor(() => denied.length > before || undefined, WAIT_MS, 'NATS to refuse reading another node\'s events');
      expect(denied.slice(before).join('\n')).toMatch(/publish.*DIRECT\.GET\.SPECTERM_EVENTS\.specterm\.build-02/i);
    } finally {
      await nc.close();
    }
    // Nothing of it reached the stream or the bucket.
    expect((await streamedEvents(observer)).some((e) => e.subject.includes('s_forged'))).toBe(false);
    expect((await (await new Kvm(observer).open('specterm_presence')).get('build-02'))).toBeNull();
  }, 120_000);
});
