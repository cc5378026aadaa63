/**
 * A node in a fleet, with a real `nats-server` (JetStream on) and the real daemon: its events go
 * to the stream in order under its own subjects, its operations answer over request/reply with
 * the same scopes and codes as HTTP, its presence is in the KV bucket — and when NATS goes away
 * mid-stream the node keeps working and, NATS back, publishes what it missed in order, once.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedEvents } from '../helpers/nats-stream.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';

const WAIT_MS = 60_000;
let nats: NatsServer;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let nc: NatsConnection;
let admin: string;

const streamed = () => streamedEvents(nc);

async function op(request: Record<string, unknown>): Promise<any> {
  const reply = await nc.request('specterm.n1.ops', JSON.stringify(request), { timeout: 30_000 });
  return reply.json();
}

beforeAll(async () => {
  nats = await startNatsServer();
  dirs = makeDirs();
  daemon = await startDaemon(dirs, ['--nats', nats.url, '--node', 'n1']);
  admin = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
}, 90_000);
afterAll(async () => {
  await nc?.close().catch(() => {});
  await stopAll();
  await nats?.dispose();
}, 60_000);

describe('specterm serve --nats', () => {
  it('publishes its events to JetStream in order under its own subjects, and its presence to the KV bucket', async () => {
    const created = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'w', cols: 100, rows: 30 } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    const events = await waitFor(async () => {
      const all = await streamed();
      return all.some((e) => e.type === 'session.state') ? all : undefined;
    }, WAIT_MS, 'the events on the stream');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    for (const e of events) expect([e.subject, e.node]).toEqual([`specterm.n1.events.${e.session_id}`, 'n1']);
    expect(events[0]).toMatchObject({ type: 'session.created', session_id: created.id });
    const kv = await new Kvm(nc).open('specterm_presence');
    const presence = await waitFor(async () => {
      const entry = await kv.get('n1');
      const record = entry?.json<{ node: string; sessions: Array<{ id: string; state: string | null }> }>();
      return record?.sessions.some((s) => s.id === created.id && s.state === 'idle') ? record : undefined;
    }, WAIT_MS, 'the presence record');
    expect(presence.node).toBe('n1');
  }, 120_000);

  it('serves operations by request/reply with the same scopes, codes and audit as HTTP', async () => {
    const listed = await op({ op: 'listSessions', token: admin });
    expect(listed.ok).toBe(true);
    expect(listed.answer.sessions.map((s: { node: string }) => s.node)).toEqual(['n1']);
    const reader = (await daemon.client.call('createToken', { body: { name: 'nats-reader', scope: 'read' } })).token;
    const id = listed.answer.sessions[0].id;
    expect(await op({ op: 'sendKeys', token: reader, params: { id }, body: { data: 'x' } })).toMatchObject({ ok: false, error: { code: 'SCOPE_INSUFFICIENT' } });
    expect(await op({ op: 'listSessions' })).toMatchObject({ ok: false, error: { code: 'AUTH_REQUIRED' } });
    expect(await op({ op: 'listSessions', token: 'not-a-token' })).toMatchObject({ ok: false, error: { code: 'AUTH_INVALID' } });
    expect(await op({ op: 'formatDisk', token: admin })).toMatchObject({ ok: false, error: { code: 'OPERATION_UNKNOWN' } });
    expect(await op({ op: 'getSession', token: admin, params: { id: 's_nope' } })).toMatchObject({ ok: false, error: { code: 'SESSION_NOT_FOUND' } });
    // The agent session a call is made for: checked, and its rules applied, as over HTTP.
    expect(await op({ op: 'sendMessage', token: admin, caller_session: 'not one id', params: { id }, body: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'CALLER_INVALID' } });
    expect(await op({ op: 'sendMessage', token: admin, caller_session: id, params: { id }, body: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'SELF_TARGET' } });
    const bad = await nc.request('specterm.n1.ops', '{not json', { timeout: 30_000 });
    expect(bad.json()).toMatchObject({ ok: false, error: { code: 'BODY_MALFORMED_JSON' } });
    const typed = await op({ op: 'sendKeys', token: admin, params: { id }, body: { data: 'h' } });
    expect(typed).toEqual({ ok: true, answer: { written_bytes: 1 } });
    // Audited like any keystroke, with the transport it came by.
    const db = new Database(path.join(dirs.stateDir, 'specterm.db'), { readonly: true });
    const rows = db.prepare("SELECT action, who, session_id, detail FROM audit WHERE action = 'sendKeys'").all() as Array<{ action: string; who: string; session_id: string; detail: string }>;
    db.close();
    expect(rows.map((r) => [r.who, r.session_id, JSON.parse(r.detail).via])).toEqual([['nats-reader', id, 'nats'], ['admin', id, 'nats']]);
  }, 120_000);

  it('keeps working while NATS is down and, NATS back, publishes what it missed in order, once', async () => {
    const before = (await streamed()).length;
    await nats.stop();
    const created = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'offline', cols: 100, rows: 30 } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle while NATS is down');
    await daemon.client.call('sendMessage', { params: { id: created.id }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    await nats.start();
    const all = await waitFor(async () => {
      // Right after the restart the test's own client may still be reconnecting: ask again.
      const events = await streamed().catch(() => []);
      return events.some((e) => e.session_id === created.id && e.type === 'turn.finished') ? events : undefined;
    }, WAIT_MS, 'the missed events on the stream');
    expect(all.length).toBeGreaterThan(before);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.filter((e) => e.session_id === created.id)[0]!.type).toBe('session.created');
  }, 180_000);
});
