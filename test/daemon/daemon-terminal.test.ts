/**
 * The daemon serves its sessions' terminals over the WebSocket: a real `specterm serve`, a real
 * demo-agent session, a real `ws` client. A subscription starts with a snapshot of the daemon's
 * screen tagged with its byte seq, then raw bytes from that seq; resizing needs the lease.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { decodeTerminalFrame, WS_PATH, WS_SUBPROTOCOL, type ServerMessage } from '../../src/protocol/index.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let daemon: RunningDaemon;

beforeAll(async () => {
  dirs = makeDirs();
  daemon = await startDaemon(dirs);
}, 90_000);
afterAll(stopAll, 60_000);

describe('specterm serve: pairing a browser', () => {
  it('prints a one-time pairing URL (code in the fragment) that signs a device in with an HttpOnly cookie, once', async () => {
    await waitFor(() => /#pair=/.test(daemon.stdout()), 20_000, 'the pairing URL');
    const url = /(http:\/\/127\.0\.0\.1:\d+\/#pair=([A-Za-z0-9_-]+))/.exec(daemon.stdout());
    expect(url, daemon.stdout()).not.toBeNull();
    expect(url![1]!.startsWith(daemon.url)).toBe(true);
    const pair = () => fetch(`${daemon.url}/api/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json', origin: daemon.url }, body: JSON.stringify({ code: url![2] }) });
    const paired = await pair();
    expect(paired.status).toBe(201);
    const cookie = paired.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const sessions = await fetch(`${daemon.url}/api/v1/sessions`, { headers: { cookie: cookie.split(';')[0]!, origin: daemon.url } });
    expect(sessions.status).toBe(200);
    expect((await pair()).status).not.toBe(201);
    // The code never reaches the daemon's log.
    expect(daemon.stderr()).not.toContain(url![2]);
  }, 60_000);
});

describe('specterm serve: the terminal topic', () => {
  it('sends a snapshot with its seq, then the bytes after it; a resize without the lease is refused', async () => {
    const client = daemon.client;
    const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'term' } });
    await waitFor(async () => (await client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');

    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const socket = new WebSocket(daemon.url.replace(/^http/, 'ws') + WS_PATH, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${token}`, origin: daemon.url } });
    const messages: ServerMessage[] = [];
    const frames: Array<{ seq: number; text: string }> = [];
    socket.on('message', (data, binary) => {
      if (binary) {
        const frame = decodeTerminalFrame(new Uint8Array(data as Buffer));
        if (frame) frames.push({ seq: frame.seq, text: Buffer.from(frame.data).toString('utf8') });
      } else messages.push(JSON.parse(String(data)) as ServerMessage);
    });
    await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
    try {
      const topic = `terminal/${created.id}`;
      socket.send(JSON.stringify({ type: 'subscribe', topic }));
      await waitFor(() => messages.some((m) => m.type === 'snapshot'), 20_000, 'the snapshot');
      const snapshot = messages.find((m): m is Extract<ServerMessage, { type: 'snapshot' }> => m.type === 'snapshot')!;
      expect(snapshot.topic).toBe(topic);
      expect(snapshot.seq).toBeGreaterThan(0);
      const screen = await client.call('getScreen', { params: { id: created.id } });
      // The snapshot is the daemon's screen: the demo agent's prompt row is in both.
      const promptRow = screen.content.split('\n').find((l: string) => l.trim().length > 0)!;
      expect(snapshot.data).toContain(promptRow.trim().slice(0, 10));
      const ansi = await client.call('getScreen', { params: { id: created.id }, query: { format: 'ansi' } });
      expect(ansi.format).toBe('ansi');
      expect(ansi.content).toContain('\u001b[');
      expect(ansi.content).toContain(promptRow.trim().slice(0, 10));

      await client.call('sendMessage', { params: { id: created.id }, body: { text: 'hello over the stream', wait: 'accepted' } });
      await waitFor(() => frames.map((f) => f.text).join('').includes('hello over the stream'), 20_000, 'the echoed bytes');
      expect(frames[0]!.seq).toBe(snapshot.seq);
      for (let i = 1; i < frames.length; i++) {
        expect(frames[i]!.seq).toBe(frames[i - 1]!.seq + Buffer.byteLength(frames[i - 1]!.text));
      }

      socket.send(JSON.stringify({ type: 'resize', ref: 'r1', session_id: created.id, cols: 90, rows: 30 }));
      await waitFor(() => messages.some((m) => m.type === 'error' && m.ref === 'r1'), 10_000, 'the refused resize');
      expect(messages.find((m) => m.type === 'error' && m.ref === 'r1')).toMatchObject({ code: 'LEASE_NOT_HELD' });
      socket.send(JSON.stringify({ type: 'lease', ref: 'l1', session_id: created.id, action: 'acquire' }));
      await waitFor(() => messages.some((m) => m.type === 'lease' && m.ref === 'l1'), 10_000, 'the lease');
      expect(messages.find((m) => m.type === 'lease' && m.ref === 'l1')).toMatchObject({ holder: 'you' });
    } finally {
      socket.close();
    }
  }, 150_000);
});

/** An idle demo-agent session, a fresh read token and an open WebSocket of that token. */
async function idleSessionWithReader(name: string) {
  const client = daemon.client;
  const session = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name } });
  await waitFor(async () => (await client.call('getSession', { params: { id: session.id } })).state?.id === 'idle', WAIT_MS, 'idle');
  const { token, record } = await client.call('createToken', { body: { name: `${name}-device`, scope: 'read' } });
  const socket = new WebSocket(daemon.url.replace(/^http/, 'ws') + WS_PATH, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${token}` } });
  const messages: ServerMessage[] = [];
  socket.on('message', (data, binary) => { if (!binary) messages.push(JSON.parse(String(data)) as ServerMessage); });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
  return { client, session, token, tokenId: record.id, socket, messages, closed };
}

describe('specterm serve: revoking a token (issue 24 item 4)', () => {
  it('ends its event stream and its WebSocket at once, while the session goes on', async () => {
    const { client, session, token, tokenId, socket, closed } = await idleSessionWithReader('revoke');
    const events = await fetch(`${daemon.url}/api/v1/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(events.status).toBe(200);
    socket.send(JSON.stringify({ type: 'subscribe', topic: `terminal/${session.id}` }));
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'sessions' }));
    const reader = events.body!.getReader();
    const streamEnded = (async () => {
      try { for (;;) if ((await reader.read()).done) return true; } catch { return true; }
    })();
    const revokedAt = Date.now();
    await client.call('revokeToken', { params: { id: tokenId } });
    expect(await Promise.race([streamEnded, new Promise((resolve) => setTimeout(() => resolve(false), 5_000))]), 'the event stream ended').toBe(true);
    expect((await closed).code).toBe(1008);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    // The daemon and its session are unaffected.
    expect((await client.call('getSession', { params: { id: session.id } })).lifecycle).toBe('running');
  }, 90_000);
});

describe('specterm serve: an ack flood (issue 24 item 2)', () => {
  it('closes a viewer that reads nothing and acks 2^52 with 1002, having written it next to nothing', async () => {
    const { client, session, socket, messages, closed } = await idleSessionWithReader('flood');
    const topic = `terminal/${session.id}`;
    socket.send(JSON.stringify({ type: 'subscribe', topic }));
    await waitFor(() => messages.some((m) => m.type === 'snapshot'), WAIT_MS, 'the snapshot');
    const raw = (socket as unknown as { _socket: { pause(): void; resume(): void; bytesRead: number } })._socket;
    raw.pause();
    for (let i = 0; i < 2_000; i++) socket.send(JSON.stringify({ type: 'ack', topic, bytes: 2 ** 52 }));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    raw.resume();
    const outcome = await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000))]);
    expect(outcome).toEqual({ code: 1002, reason: 'ack beyond what was sent' });
    expect(messages.filter((m) => m.type === 'error').map((m) => (m as { code: string }).code)).toEqual(['ACK_BEYOND_SENT']);
    expect(raw.bytesRead, 'bytes the daemon wrote to the flooding viewer').toBeLessThan(256 * 1024);
    expect((await client.call('getSession', { params: { id: session.id } })).lifecycle).toBe('running');
  }, 90_000);
});
