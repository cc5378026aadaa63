/**
 * A node's terminal streamed over NATS to a remote subscriber (issue 25, "terminal bytes"): a
 * real `nats-server`, the real daemon as node `n1` with the Demo Agent, and the subscriber side
 * (src/nats/remote-topic.ts) in this process — the snapshot first, then frames, gap-free; credit
 * flow control that bounds what a subscriber that never acks is sent; keepalives; refusals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { connect, createInbox, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/ops/contracts.js';
import { remoteTerminalTopics, type RemoteTopicSubscription } from '../../src/nats/remote-topic.js';
import { decodeTerminalFrame, SpectermError } from '../../src/protocol/index.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { REPO, makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';
import { jsonOf, openRaw, RenderingSink } from './topics-harness.js';

const WAIT_MS = 60_000;
/** The viewer's bound on bytes sent and not acked (terminal-viewer.ts, DEFAULT_VIEWER_LIMITS). */
const MAX_UNACKED = 1024 * 1024;
const FLOOD_BYTES = 4_000_000;

let nats: NatsServer;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let nc: NatsConnection;
let admin: string;
let demo: string;
const sinks: RenderingSink[] = [];
const opened: RemoteTopicSubscription[] = [];

async function op(request: Record<string, unknown>): Promise<any> {
  const reply = await nc.request('specterm.n1.ops', JSON.stringify(request), { timeout: 30_000 });
  return reply.json();
}

/** A remote subscription through the subscriber side, as a hub would open it for its client. */
async function subscribe(sessionId: string, options: { token?: string; node?: string; keepaliveMs?: number } = {}): Promise<{ sub: RemoteTopicSubscription; sink: RenderingSink }> {
  const sink = new RenderingSink();
  sinks.push(sink);
  const handler = remoteTerminalTopics({ nc, nodeOf: () => options.node ?? 'n1', tokenOf: () => options.token ?? admin, keepaliveMs: options.keepaliveMs });
  const ctx = { principal: { tokenId: 'hub', name: 'hub', scope: 'admin' }, requestId: 'r', remoteAddress: 'test' } as unknown as RequestContext;
  const sub = await handler({ type: 'subscribe', topic: `terminal/${sessionId}` }, ctx, sink);
  opened.push(sub);
  return { sub, sink };
}

async function refusalOf(promise: Promise<unknown>): Promise<SpectermError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SpectermError);
  return error as SpectermError;
}

beforeAll(async () => {
  nats = await startNatsServer();
  dirs = makeDirs();
  daemon = await startDaemon(dirs, ['--nats', nats.url, '--node', 'n1', '--no-pair']);
  admin = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  nc = await connect({ servers: nats.url });
  demo = (await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'demo', cols: 100, rows: 30 } })).id;
  await waitFor(async () => (await daemon.client.call('getSession', { params: { id: demo } })).state?.id === 'idle', WAIT_MS, 'the demo agent idle');
  // The link starts in the background: the node answers on NATS once it is up.
  await waitFor(async () => (await op({ op: 'listSessions', token: admin }).catch(() => null))?.ok === true, WAIT_MS, 'the node on NATS');
}, 120_000);

afterAll(async () => {
  for (const sub of opened) sub.dispose();
  for (const sink of sinks) sink.dispose();
  await nc?.close().catch(() => {});
  await stopAll();
  await nats?.dispose();
}, 60_000);

describe('terminals over NATS', () => {
  it('streams terminal/<id>: the snapshot first, then the frames of the agent\'s answer, gap-free', async () => {
    const { sub, sink } = await subscribe(demo);
    await waitFor(() => sink.messages.length > 0, WAIT_MS, 'the first message');
    expect(sink.messages[0]).toMatchObject({ type: 'snapshot', topic: `terminal/${demo}`, cols: 100, rows: 30 });
    expect(await sink.screen()).toContain('Welcome to Demo Agent');
    const sent = await op({ op: 'sendMessage', token: admin, params: { id: demo }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    expect(sent.ok).toBe(true);
    await waitFor(async () => (await sink.screen()).includes('Hello!'), WAIT_MS, 'the answer in the remote terminal');
    expect(sink.frames).toBeGreaterThan(0);
    expect(sink.tears).toEqual([]);
    expect(sink.snapshots()).toHaveLength(1);
    // The local client's acks reach the node; one beyond what it was given is refused here.
    expect(sub.ack(sink.expected!)).toBe(true);
    expect(sub.ack(sink.expected! + 1)).toBe(false);
  }, 120_000);

  it('takes input, lease and resize over specterm.<node>.ops: the session shows them', async () => {
    const { sub, sink } = await subscribe(demo);
    const typed = await op({ op: 'terminalInput', token: admin, body: { type: 'input', session_id: demo, data: 'typed over nats' } });
    expect(typed).toEqual({ ok: true, answer: null });
    await waitFor(async () => (await sink.screen()).includes('typed over nats'), WAIT_MS, 'the keystrokes in the remote terminal');
    const screen = await op({ op: 'getScreen', token: admin, params: { id: demo } });
    expect(screen.answer.content).toContain('typed over nats');
    // The lease belongs to a viewer: a request names its subscription to act as it.
    expect(await op({ op: 'terminalLease', token: admin, body: { type: 'lease', session_id: demo, action: 'acquire' } })).toMatchObject({ ok: false, error: { code: 'LEASE_NEEDS_SUBSCRIPTION' } });
    expect(await op({ op: 'terminalLease', token: admin, subscription: sub.subscription, body: { type: 'lease', session_id: demo, action: 'acquire' } })).toEqual({ ok: true, answer: 'you' });
    await waitFor(() => sink.messages.some((m) => m.type === 'lease' && m.holder === 'you'), WAIT_MS, 'the lease announced to the viewer');
    const reader = (await daemon.client.call('createToken', { body: { name: 'nats-topic-reader', scope: 'read' } })).token;
    expect(await op({ op: 'terminalResize', token: reader, subscription: sub.subscription, body: { type: 'resize', session_id: demo, cols: 90, rows: 28 } })).toMatchObject({ ok: false, error: { code: 'NOT_SUBSCRIBED' } });
    expect(await op({ op: 'terminalResize', token: admin, subscription: sub.subscription, body: { type: 'resize', session_id: demo, cols: 90, rows: 28 } })).toEqual({ ok: true, answer: null });
    await waitFor(() => sink.snapshots().some((s) => s.cols === 90 && s.rows === 28), WAIT_MS, 'a snapshot of the new size');
    expect(await op({ op: 'terminalLease', token: admin, subscription: sub.subscription, body: { type: 'lease', session_id: demo, action: 'release' } })).toEqual({ ok: true, answer: 'none' });
    expect(sink.tears).toEqual([]);
    await op({ op: 'sendKeys', token: admin, params: { id: demo }, body: { data: '\u0015' } }); // clears the input line
  }, 120_000);

  it('bounds what a subscriber that never acks is sent, then resyncs it once it acks', async () => {
    // A session that floods its terminal with 4 MB on each line `go…`, and names every line it read.
    const script = path.join(dirs.work, 'flood.sh');
    fs.writeFileSync(script, [
      '#!/bin/sh',
      "printf '╭─\\n│ ❯ say go\\n╰─\\n  ? for shortcuts\\n'",
      'while read line; do',
      `  case "$line" in go*) head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' 'x'; echo ;; esac`,
      '  echo "FLOOD-DONE-$line"',
      'done',
    ].join('\n') + '\n', { mode: 0o755 });
    const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'bench', 'fixtures', 'stream-agent.spec.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(dirs.work, 'flood.spec.json'), JSON.stringify({ ...spec, binary: script, spawn_args: [] }));
    const flood = (await daemon.client.call('createSession', { body: { spec: path.join(dirs.work, 'flood.spec.json'), cwd: dirs.work, name: 'flood', cols: 100, rows: 30 } })).id;
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: flood } })).state?.id === 'idle', WAIT_MS, 'the flood session idle');
    const type = async (data: string) => expect(await op({ op: 'terminalInput', token: admin, body: { type: 'input', session_id: flood, data } })).toMatchObject({ ok: true });

    const raw = await openRaw(nc, 'n1', { token: admin, topic: `terminal/${flood}`, keepalive_ms: 60_000 });
    expect(raw.answer.ok).toBe(true);
    const control = `specterm.n1.topic.${raw.answer.subscription}`;
    const snapshot = await waitFor(() => raw.payloads.find((p) => p.kind === 'message' && jsonOf(p).type === 'snapshot'), WAIT_MS, 'the snapshot');
    let snapshotBytes = snapshot.data.length;
    // Twice: credit that did not come back with the first ack would leave no room for the second round.
    for (const round of ['go1', 'go2']) {
      raw.payloads.length = 0;
      await type(`${round}\r`);
      await waitFor(async () => (await op({ op: 'getScreen', token: admin, params: { id: flood } })).answer.content.includes(`FLOOD-DONE-${round}`), WAIT_MS, `the flood ${round} written`);
      // The node answers this after everything it published before (one connection each way, in
      // order): what it sent this subscriber and holds unacked is the viewer's bound, not 4 MB.
      expect((await nc.request(control, JSON.stringify({ type: 'keepalive' }), { timeout: 30_000 })).json()).toEqual({ ok: true });
      const received = raw.bytes();
      expect(received, round).toBeGreaterThan(MAX_UNACKED / 2);
      expect(received, round).toBeLessThan(snapshotBytes + MAX_UNACKED + 64 * 1024);
      expect(raw.gaps).toBe(0);
      // Acking all it was sent lets the viewer catch up: a fresh snapshot, with the end of the flood on it.
      const last = raw.payloads.filter((p) => p.kind === 'frame').at(-1)!;
      const frame = decodeTerminalFrame(last.data)!;
      raw.payloads.length = 0;
      nc.publish(control, JSON.stringify({ type: 'ack', bytes: frame.seq + frame.data.length }));
      const resync = await waitFor(() => raw.payloads.find((p) => p.kind === 'message' && jsonOf(p).type === 'snapshot'), WAIT_MS, `the resync snapshot after ${round}`);
      expect(jsonOf(resync).data).toContain(`FLOOD-DONE-${round}`);
      snapshotBytes = resync.data.length;
    }
    // And the stream goes on live after it.
    await type('again\r');
    await waitFor(() => raw.payloads.some((p) => p.kind === 'frame' && Buffer.from(p.data).includes('FLOOD-DONE-again')), WAIT_MS, 'live frames after the resync');
    nc.publish(control, JSON.stringify({ type: 'close' }));
    raw.close();
  }, 180_000);

  it('disposes a subscription that vanished without close after its keepalive time; keepalives keep one', async () => {
    const raw = await openRaw(nc, 'n1', { token: admin, topic: `terminal/${demo}`, keepalive_ms: 1_500 });
    expect(raw.answer).toMatchObject({ ok: true, keepalive_ms: 1_500 });
    const kept = await subscribe(demo, { keepaliveMs: 1_500 });
    const lease = (subscription: string) => op({ op: 'terminalLease', token: admin, subscription, body: { type: 'lease', session_id: demo, action: 'release' } });
    expect(await lease(raw.answer.subscription!)).toMatchObject({ ok: true });
    // The raw subscriber says nothing more: the node ends it (and says why, should it listen).
    const end = await waitFor(() => raw.payloads.find((p) => p.kind === 'end'), WAIT_MS, 'the end of the silent subscription');
    expect(jsonOf(end)).toMatchObject({ code: 'NOT_SUBSCRIBED' });
    expect(await lease(raw.answer.subscription!)).toMatchObject({ ok: false, error: { code: 'NOT_SUBSCRIBED' } });
    const keepalive = await nc.request(`specterm.n1.topic.${raw.answer.subscription}`, JSON.stringify({ type: 'keepalive' }), { timeout: 30_000 });
    expect(keepalive.json()).toMatchObject({ ok: false, error: { code: 'NOT_SUBSCRIBED' } });
    raw.close();
    // The one that keeps alive outlived it, on the same subscription.
    const id = kept.sub.subscription;
    expect(await lease(id)).toMatchObject({ ok: true });
    expect(kept.sub.subscription).toBe(id);
    // Disposed: closed on the node at once.
    kept.sub.dispose();
    await waitFor(async () => (await lease(id)).ok === false, WAIT_MS, 'the closed subscription gone');
  }, 120_000);

  it('opens a new subscription, from a fresh snapshot, when the node restarted and forgot it', async () => {
    const { sub, sink } = await subscribe(demo, { keepaliveMs: 1_500 });
    await waitFor(() => sink.snapshots().length === 1, WAIT_MS, 'the first snapshot');
    const before = sub.subscription;
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    daemon = await startDaemon(dirs, ['--nats', nats.url, '--node', 'n1', '--no-pair']);
    await waitFor(() => sub.subscription !== before && sink.snapshots().length === 2, WAIT_MS, 'a new subscription with its snapshot');
    expect(await sink.screen()).toContain('Welcome to Demo Agent');
    expect(await op({ op: 'terminalInput', token: admin, body: { type: 'input', session_id: demo, data: 'after the restart' } })).toMatchObject({ ok: true });
    await waitFor(async () => (await sink.screen()).includes('after the restart'), WAIT_MS, 'live frames from the restarted node');
    expect(sink.tears).toEqual([]);
    expect(sink.messages.filter((m) => m.type === 'error')).toEqual([]);
    await op({ op: 'sendKeys', token: admin, params: { id: demo }, body: { data: '\u0015' } });
  }, 180_000);

  it('refuses a bad token, an unknown session, a malformed request — with the node\'s code, and the node goes on', async () => {
    expect((await refusalOf(subscribe(demo, { token: 'not-a-token' }))).code).toBe('AUTH_INVALID');
    expect((await refusalOf(subscribe('s_nope'))).code).toBe('TERMINAL_SESSION_NOT_FOUND');
    const unreachable = await refusalOf(subscribe(demo, { node: 'n9' }));
    expect(unreachable.code).toBe('NODE_UNREACHABLE');
    expect(unreachable.message).toContain("node 'n9'");
    const raw = async (request: unknown) => { const r = await openRaw(nc, 'n1', request); r.close(); return r.answer; };
    expect(await raw({ topic: `terminal/${demo}` })).toMatchObject({ ok: false, error: { code: 'AUTH_REQUIRED' } });
    expect(await raw('{not json')).toMatchObject({ ok: false, error: { code: 'BODY_MALFORMED_JSON' } });
    expect(await raw([1])).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await raw({ token: admin, topic: 'sessions' })).toMatchObject({ ok: false, error: { code: 'TOPIC_UNAVAILABLE' } });
    expect(await raw({ token: admin, topic: 'terminal/../x' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await raw({ token: admin, topic: `terminal/${demo}`, colour: 'red' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await raw({ token: admin, topic: `terminal/${demo}`, keepalive_ms: 5 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', errors: [{ path: '/keepalive_ms' }] } });
    // The stream goes only under the node's own subjects (its NATS permissions allow no other).
    const elsewhere = await openRaw(nc, 'n1', { token: admin, topic: `terminal/${demo}` }, createInbox());
    elsewhere.close();
    expect(elsewhere.answer).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', errors: [{ path: '/reply' }] } });
    const control = await nc.request('specterm.n1.topic.nope', '{"type":"ack"}', { timeout: 30_000 });
    expect(control.json()).toMatchObject({ ok: false, error: { code: 'NOT_SUBSCRIBED' } });
    // A read token may watch (the scope of subscribeTopic), as over the WebSocket.
    const reader = (await daemon.client.call('createToken', { body: { name: 'nats-watcher', scope: 'read' } })).token;
    const { sink } = await subscribe(demo, { token: reader });
    await waitFor(() => sink.snapshots().length > 0, WAIT_MS, 'the reader\'s snapshot');
    expect((await op({ op: 'listSessions', token: admin })).ok).toBe(true);
  }, 120_000);
});
