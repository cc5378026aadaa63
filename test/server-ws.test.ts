/**
 * The WebSocket at /api/v1/ws against a real server with real `ws` clients: the upgrade's
 * Host/Origin/auth checks, tickets, message validation and limits, and a property that no
 * message sequence crashes the server.
 */
import fc from 'fast-check';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeTerminalFrame, type ServerMessage } from '../src/protocol/index.js';
import type { TopicSubscription, WsHandlers, WsSink } from '../src/server/index.js';
import { notFound } from './helpers/api-server.js';
import { KNOWN_SESSION, sampleMaxBacklog, startTestServer, type TestServer } from './helpers/api-server.js';

const wsHandlers = (log: string[]): WsHandlers => ({
  subscribe: (message, _ctx, sink): TopicSubscription => {
    const [kind, id] = message.topic.split('/');
    if (id !== undefined && id !== KNOWN_SESSION) throw notFound('session', id);
    if (kind === 'terminal') {
      sink.send({ type: 'snapshot', topic: message.topic, seq: 5, data: 'hello', cols: 80, rows: 24 });
      sink.sendTerminal({ sessionId: KNOWN_SESSION, seq: 5, data: new TextEncoder().encode(' world') });
    }
    log.push(`subscribe ${message.topic} since=${message.since ?? '-'}`);
    return { dispose: () => log.push(`dispose ${message.topic}`), ack: (bytes) => log.push(`ack ${bytes}`) };
  },
  input: (message) => { log.push(`input ${message.data}`); },
  resize: (message) => { log.push(`resize ${message.cols}x${message.rows}`); },
  lease: () => 'you',
});

let t: TestServer;
let log: string[];
beforeEach(async () => { log = []; t = await startTestServer({ ws: wsHandlers(log), maxWsMessageBytes: 8 * 1024 }); });
afterEach(async () => { await t.server.close(); });

const wsUrl = () => t.url.replace('http', 'ws') + '/api/v1/ws';

/** Connects; resolves with the socket and a reader of its JSON messages, or rejects with the refusal status. */
function connect(options: { token?: string | null; protocols?: string[]; headers?: Record<string, string>; path?: string } = {}) {
  const { token = t.adminToken, protocols = ['specterm.v1'], headers = {}, path } = options;
  const socket = new WebSocket(path ? t.url.replace('http', 'ws') + path : wsUrl(), protocols, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  const inbox: ServerMessage[] = [];
  const binary: Buffer[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data, isBinary) => {
    if (isBinary) binary.push(data as Buffer); else inbox.push(JSON.parse(String(data)));
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (predicate: (m: ServerMessage) => boolean = () => true): Promise<ServerMessage> => {
    for (;;) {
      const i = inbox.findIndex(predicate);
      if (i >= 0) return inbox.splice(i, 1)[0]!;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message; inbox ${JSON.stringify(inbox)}`)), 5_000);
        waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  };
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, problem: JSON.parse(body) })));
    });
    socket.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return { socket, opened, closed, next, binary, send: (m: unknown) => socket.send(typeof m === 'string' ? m : JSON.stringify(m)) };
}

async function refusal(options: Parameters<typeof connect>[0]) {
  const c = connect(options);
  const error = await c.opened.then(() => { throw new Error('the upgrade was accepted'); }, (e) => e);
  return error as { status: number; problem: { code: string; detail: string } };
}

describe('upgrade', () => {
  it('refuses an upgrade without a token (401)', async () => {
    const e = await refusal({ token: null });
    expect([e.status, e.problem.code]).toEqual([401, 'AUTH_REQUIRED']);
  });

  it('refuses a wrong token, a foreign Origin, a rebinding Host and a token in the URL', async () => {
    expect((await refusal({ token: 'nope' })).status).toBe(401);
    expect((await refusal({ headers: { origin: 'https://evil.example' } })).problem.code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await refusal({ headers: { host: 'evil.example' } })).status).toBe(421);
    expect((await refusal({ path: `/api/v1/ws?token=${t.adminToken}` })).problem.code).toBe('TOKEN_IN_URL');
    expect((await refusal({ path: '/api/v1/other' })).status).toBe(404);
  });

  it('answers 400 to an upgrade whose target is not a URL, and keeps serving', async () => {
    const reply = await new Promise<string>((resolve) => {
      const s = net.connect(t.server.port, '127.0.0.1', () => s.write(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${t.server.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n`
        + 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'));
      let text = '';
      s.on('data', (c) => { text += c; });
      s.on('close', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1.1 400 .*"code":"URL_INVALID"/s);
    expect((await t.api('/api/v1/health')).status).toBe(200);
  });

  it('shares the lockout with HTTP: failed upgrades lock the address out of both, never a valid token', async () => {
    for (let i = 0; i < 6; i++) expect((await refusal({ token: `wrong-${i}` })).status).toBe(401);
    const locked = await refusal({ token: 'wrong-6' });
    expect([locked.status, locked.problem.code]).toEqual([429, 'AUTH_LOCKED_OUT']);
    expect((await t.api('/api/v1/health', { token: 'wrong-7' })).status).toBe(429);
    const valid = connect();
    await valid.opened;
    valid.socket.close();
    t.clock.now += 1_001;
    expect((await refusal({ token: 'wrong-8' })).status).toBe(401);
  });

  it('closes the open connections of a token when it is revoked, and forgets its tickets', async () => {
    const { token, record } = t.tokens.create({ name: 'tablet', scope: 'read' });
    const c = connect({ token });
    await c.opened;
    const { protocols } = await (await t.api('/api/v1/ws-ticket', { method: 'POST', token })).json();
    const other = connect({ token: t.tokenFor('read') });
    await other.opened;
    expect((await t.api(`/api/v1/tokens/${record.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await c.closed).toEqual({ code: 1008, reason: 'token revoked' });
    expect((await refusal({ token: null, protocols })).status).toBe(401);
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
    other.socket.close();
  });

  it('accepts the same origin and greets with the protocol version and scope', async () => {
    const c = connect({ headers: { origin: t.url } });
    await c.opened;
    expect(c.socket.protocol).toBe('specterm.v1');
    expect(await c.next()).toEqual({ type: 'hello', protocol_version: 1, scope: 'admin', max_message_bytes: 8192, device: { id: 'admin', name: 'admin' } });
    c.socket.close();
  });

  it('accepts a ticket in Sec-WebSocket-Protocol once, never twice, and never after it expires', async () => {
    const { ticket, protocols } = await (await t.api('/api/v1/ws-ticket', { method: 'POST', token: t.tokenFor('read') })).json();
    expect(protocols).toEqual(['specterm.v1', `specterm.ticket.${ticket}`]);
    const first = connect({ token: null, protocols, headers: { origin: t.url } });
    await first.opened;
    expect(first.socket.protocol).toBe('specterm.v1'); // the ticket is never echoed back
    expect(await first.next()).toMatchObject({ type: 'hello', scope: 'read' });
    first.socket.close();
    expect((await refusal({ token: null, protocols })).problem.code).toBe('AUTH_INVALID');
    const late = await (await t.api('/api/v1/ws-ticket', { method: 'POST' })).json();
    t.clock.now += 31_000;
    expect((await refusal({ token: null, protocols: late.protocols })).status).toBe(401);
  });
  it('lets an offered ticket win over a stale session cookie on the same upgrade (a browser whose old device was revoked)', async () => {
    const { token: stale, record } = t.tokens.create({ name: 'old-laptop', scope: 'read' });
    expect((await t.api(`/api/v1/tokens/${record.id}`, { method: 'DELETE' })).status).toBe(200);
    const { protocols } = await (await t.api('/api/v1/ws-ticket', { method: 'POST', token: t.tokenFor('read') })).json();
    const c = connect({ token: null, protocols, headers: { origin: t.url, cookie: `specterm_session=${stale}` } });
    await c.opened;
    expect(await c.next()).toMatchObject({ type: 'hello', scope: 'read' });
    c.socket.close();
  });
});

describe('messages', () => {
  it('subscribes to a terminal: snapshot, then binary frames; acks reach the subscription; close disposes it', async () => {
    const c = connect();
    await c.opened;
    c.send({ type: 'subscribe', ref: 'r1', topic: `terminal/${KNOWN_SESSION}`, since: 0 });
    expect(await c.next((m) => m.type === 'snapshot')).toMatchObject({ seq: 5, data: 'hello' });
    expect(await c.next((m) => m.type === 'subscribed')).toEqual({ type: 'subscribed', ref: 'r1', topic: `terminal/${KNOWN_SESSION}` });
    const frame = decodeTerminalFrame(new Uint8Array(c.binary[0]!));
    expect(frame && { ...frame, data: new TextDecoder().decode(frame.data) }).toEqual({ sessionId: KNOWN_SESSION, seq: 5, data: ' world' });
    c.send({ type: 'ack', topic: `terminal/${KNOWN_SESSION}`, bytes: 11 });
    c.send({ type: 'ping', ref: 'p' });
    await c.next((m) => m.type === 'pong');
    c.socket.close();
    await c.closed;
    await expect.poll(() => log).toEqual([`subscribe terminal/${KNOWN_SESSION} since=0`, 'ack 11', `dispose terminal/${KNOWN_SESSION}`]);
  });

  it('answers an invalid message with an error naming the field and keeps the connection', async () => {
    const c = connect();
    await c.opened;
    c.send({ type: 'resize', ref: 'x', session_id: KNOWN_SESSION, cols: 1, rows: 24 });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ ref: 'x', code: 'VALIDATION_FAILED', errors: [{ path: '/cols', message: expect.stringMatching(/got 1/) }] });
    c.send('{not json');
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'BODY_MALFORMED_JSON' });
    c.send({ type: 'resize', ref: 'y', session_id: KNOWN_SESSION, cols: 100, rows: 30 });
    expect(await c.next((m) => m.type === 'ok')).toEqual({ type: 'ok', ref: 'y' });
    c.socket.close();
  });

  it('refuses unknown topics and unknown sessions', async () => {
    const c = connect();
    await c.opened;
    c.send({ type: 'subscribe', topic: 'secrets/all' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: '/topic' }] });
    c.send({ type: 'subscribe', topic: 'session/s_other' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    c.send({ type: 'unsubscribe', topic: 'sessions' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'NOT_SUBSCRIBED' });
    c.socket.close();
  });

  it('refuses input from a read token and audits it; audits accepted input', async () => {
    const reader = connect({ token: t.tokenFor('read') });
    await reader.opened;
    reader.send({ type: 'input', ref: 'i', session_id: KNOWN_SESSION, data: 'y' });
    expect(await reader.next((m) => m.type === 'error')).toMatchObject({ ref: 'i', code: 'SCOPE_INSUFFICIENT' });
    const writer = connect();
    await writer.opened;
    writer.send({ type: 'input', ref: 'j', session_id: KNOWN_SESSION, data: 'y' });
    await writer.next((m) => m.type === 'ok');
    expect(log).toEqual(['input y']);
    expect(t.audit.map((e) => [e.who, e.what, e.via, e.outcome, e.code])).toEqual([['read-device', 'terminalInput', 'ws', 'refused', 'SCOPE_INSUFFICIENT'], ['admin', 'terminalInput', 'ws', 'ok', null]]);
    reader.socket.close();
    writer.socket.close();
  });

  it('closes with 1009 on a message over the size limit', async () => {
    const c = connect();
    await c.opened;
    c.send('x'.repeat(9 * 1024));
    expect((await c.closed).code).toBe(1009);
  });

  it('closes with 1008 after repeated invalid messages', async () => {
    const c = connect();
    await c.opened;
    for (let i = 0; i < 10; i++) c.send({ type: 'nonsense', i });
    expect(await c.closed).toEqual({ code: 1008, reason: 'too many invalid messages' });
  });
});

describe('clients that read nothing (issue 24 item 2)', () => {
  it('closes a client whose backlog passes the bound with 4001, without queueing more for it', async () => {
    await t.server.close();
    const big = 'x'.repeat(64 * 1024);
    let sink: WsSink | undefined;
    let sent = 0;
    let disposed = false;
    // A topic that pushes 64 KiB messages as fast as its timer runs, whatever the client reads (as event topics do).
    t = await startTestServer({
      maxClientBacklogBytes: 256 * 1024,
      ws: {
        subscribe: (message, _ctx, s) => {
          sink = s;
          const timer = setInterval(() => {
            if (sent < 800) s.send({ type: 'snapshot', topic: message.topic, seq: ++sent, data: big, cols: 80, rows: 24 });
          }, 1);
          return { dispose: () => { disposed = true; clearInterval(timer); } };
        },
      },
    });
    const c = connect({ token: t.tokenFor('read') });
    await c.opened;
    c.send({ type: 'subscribe', ref: 's', topic: 'sessions' });
    (c.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const maxBacklog = await sampleMaxBacklog(() => sink?.bufferedBytes ?? 0, () => disposed || sent >= 800);
    expect(maxBacklog, 'what the server held unsent for the client').toBeLessThan(256 * 1024 + 2 * big.length);
    expect(disposed, `the subscription ended with the connection (${sent} messages sent)`).toBe(true);
    (c.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await c.closed;
    expect(closed.code).toBe(4001);
    expect(closed.reason).toMatch(/^client too slow: .*resume with since$/);
  });

  it('closes with 1002 on an ack beyond what the subscription sent', async () => {
    await t.server.close();
    t = await startTestServer({ ws: { subscribe: () => ({ dispose: () => {}, ack: (bytes) => bytes <= 100 }) } });
    const c = connect();
    await c.opened;
    c.send({ type: 'subscribe', ref: 's', topic: 'terminal/s_1' });
    await c.next((m) => m.type === 'subscribed');
    c.send({ type: 'ack', topic: 'terminal/s_1', bytes: 100 });
    c.send({ type: 'ack', topic: 'terminal/s_1', bytes: 2 ** 52 });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'ACK_BEYOND_SENT', message: expect.stringMatching(/ack the seq after the last byte you rendered/) });
    expect(await c.closed).toEqual({ code: 1002, reason: 'ack beyond what was sent' });
  });
});

describe('robustness', () => {
  const validShaped = fc.oneof(
    fc.record({ type: fc.constantFrom('subscribe', 'unsubscribe'), topic: fc.constantFrom('sessions', `session/${KNOWN_SESSION}`, `terminal/${KNOWN_SESSION}`, 'terminal/zz', 'bad'), since: fc.option(fc.integer(), { nil: undefined }) }),
    fc.record({ type: fc.constant('ack'), topic: fc.constantFrom('sessions', `terminal/${KNOWN_SESSION}`), bytes: fc.oneof(fc.nat(), fc.double()) }),
    fc.record({ type: fc.constant('input'), session_id: fc.constantFrom(KNOWN_SESSION, 's_x', '../x'), data: fc.string({ maxLength: 50 }) }),
    fc.record({ type: fc.constant('resize'), session_id: fc.constant(KNOWN_SESSION), cols: fc.integer({ min: -5, max: 2000 }), rows: fc.integer({ min: -5, max: 600 }) }),
    fc.record({ type: fc.constant('lease'), session_id: fc.constant(KNOWN_SESSION), action: fc.constantFrom('acquire', 'release', 'steal') }),
    fc.record({ type: fc.constant('ping'), ref: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }) }),
  );
  const frame = fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((b) => ({ binary: true as const, data: Buffer.from(b) })),
    fc.string({ maxLength: 64 }).map((s) => ({ binary: false as const, data: s })),
    fc.json().map((s) => ({ binary: false as const, data: s })),
    validShaped.map((m) => ({ binary: false as const, data: JSON.stringify(m) })),
  );

  it('survives any sequence of random bytes, random JSON and valid-shaped messages', async () => {
    await fc.assert(fc.asyncProperty(fc.array(frame, { maxLength: 25 }), async (frames) => {
      const c = connect();
      await c.opened;
      for (const f of frames) if (c.socket.readyState === WebSocket.OPEN) c.socket.send(f.data, { binary: f.binary });
      if (c.socket.readyState === WebSocket.OPEN) {
        c.send({ type: 'ping', ref: 'end' });
        await Promise.race([c.next((m) => m.type === 'pong' && m.ref === 'end'), c.closed]);
        c.socket.close();
      }
      await c.closed;
      // The server still answers HTTP and a fresh socket.
      expect((await t.api('/api/v1/health')).status).toBe(200);
    }), { numRuns: 40 });
    const fresh = connect();
    await fresh.opened;
    expect(await fresh.next()).toMatchObject({ type: 'hello' });
    fresh.socket.close();
    expect(t.warnings.filter((w) => w.startsWith('error'))).toEqual([]);
  });
});
