/** GET /api/v1/events as server-sent events: resume by Last-Event-ID, refusals as problems. */
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../src/protocol/index.js';
import type { SseSink } from '../src/server/index.js';
import { notFound } from './helpers/api-server.js';
import { fixtureHandlers, KNOWN_SESSION, sampleMaxBacklog, startTestServer, type TestServer } from './helpers/api-server.js';

const EVENTS: DaemonEvent[] = [1, 2, 3].map((seq) => ({ type: 'session.exited', seq, at: seq, session_id: KNOWN_SESSION, code: seq, signal: null }));

let t: TestServer;
let disposed = 0;
beforeEach(async () => {
  disposed = 0;
  t = await startTestServer({
    handlers: {
      ...fixtureHandlers(),
      events: ({ since, query }, _ctx, sink) => {
        if (query.session_id !== undefined && query.session_id !== KNOWN_SESSION) throw notFound('session', query.session_id);
        for (const event of EVENTS) if (event.seq > (since ?? 0)) sink.send(event);
        return () => { disposed += 1; };
      },
    },
  });
});
afterEach(async () => { await t.server.close(); });

/** Reads the stream until it holds `count` events, then hangs up. */
async function readEvents(res: Response, count: number): Promise<Array<{ id: string; event: string; data: any }>> {
  const reader = res.body!.getReader();
  let text = '';
  const parse = () => text.split('\n\n').filter((b) => b.startsWith('id:')).map((block) => {
    const field = (name: string) => block.split('\n').find((l) => l.startsWith(`${name}: `))!.slice(name.length + 2);
    return { id: field('id'), event: field('event'), data: JSON.parse(field('data')) };
  });
  while (parse().length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return parse();
}

describe('GET /api/v1/events', () => {
  it('streams events with their seq as the SSE id and resumes after Last-Event-ID', async () => {
    const res = await t.api('/api/v1/events', { headers: { 'last-event-id': '1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = await readEvents(res, 2);
    expect(events.map((e) => [e.id, e.event, e.data.code])).toEqual([['2', 'session.exited', 2], ['3', 'session.exited', 3]]);
    await expect.poll(() => disposed).toBe(1);
  });

  it('resumes after ?since= for clients that cannot set headers', async () => {
    expect((await readEvents(await t.api('/api/v1/events?since=2'), 1)).map((e) => e.id)).toEqual(['3']);
  });

  it('refuses a Last-Event-ID that is not a seq, and an unknown session, as problems', async () => {
    const bad = await t.api('/api/v1/events', { headers: { 'last-event-id': 'abc' } });
    expect([bad.status, (await bad.json()).code]).toEqual([400, 'LAST_EVENT_ID_INVALID']);
    const unknown = await t.api('/api/v1/events?session_id=s_zz');
    expect([unknown.status, (await unknown.json()).code]).toEqual([404, 'SESSION_NOT_FOUND']);
  });

  it('needs a token like every route', async () => {
    expect((await t.api('/api/v1/events', { token: null })).status).toBe(401);
  });
});

/** Resolves when the stream ends (cleanly or cut), or with 'still open' after `ms`. */
async function endOf(res: Response, ms: number): Promise<'ended' | 'still open'> {
  const reader = res.body!.getReader();
  const ended = (async () => {
    try { for (;;) if ((await reader.read()).done) return 'ended' as const; } catch { return 'ended' as const; }
  })();
  const outcome = await Promise.race([ended, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);
  if (outcome === 'still open') await reader.cancel();
  return outcome;
}

describe('GET /api/v1/events against hostile or revoked clients (issue 24 items 2 and 4)', () => {
  it('ends the open event stream of a revoked token at once, and of a device that signs out', async () => {
    const { token, record } = t.tokens.create({ name: 'tablet', scope: 'read' });
    const stream = await t.api('/api/v1/events', { token });
    const other = await t.api('/api/v1/events', { token: t.tokenFor('read') });
    expect([stream.status, other.status]).toEqual([200, 200]);
    expect((await t.api(`/api/v1/tokens/${record.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await endOf(stream, 2_000)).toBe('ended');
    await expect.poll(() => disposed).toBe(1);
    const device = t.tokens.create({ name: 'phone', scope: 'read' }).token;
    const signedOut = await t.api('/api/v1/events', { token: device });
    expect((await (await t.api('/api/v1/sign-out', { method: 'POST', token: device })).json()).revoked).toBe(true);
    expect(await endOf(signedOut, 2_000)).toBe('ended');
    expect(await endOf(other, 300), 'another token keeps its stream').toBe('still open');
  });

  it('drops a stream whose client reads nothing once its backlog passes the bound, without queueing more', async () => {
    await t.server.close();
    const big = 'x'.repeat(64 * 1024);
    let sink: SseSink | undefined;
    let sent = 0;
    let ended = false;
    t = await startTestServer({
      maxClientBacklogBytes: 256 * 1024,
      handlers: {
        ...fixtureHandlers(),
        events: (_input, _ctx, s) => {
          sink = s;
          // A busy daemon: 64 KiB events, as fast as the timer runs, for a client that reads none.
          const timer = setInterval(() => {
            if (s.closed || sent >= 800) return;
            s.send({ ...EVENTS[0]!, seq: ++sent, pad: big } as unknown as DaemonEvent);
          }, 1);
          return () => { ended = true; clearInterval(timer); };
        },
      },
    });
    const url = new URL(t.url);
    const req = http.get({ host: url.hostname, port: url.port, path: '/api/v1/events', headers: { authorization: `Bearer ${t.adminToken}` } });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.once('response', resolve));
    res.pause();
    req.socket!.pause();
    const maxBacklog = await sampleMaxBacklog(() => sink?.bufferedBytes ?? 0, () => ended || sent >= 800);
    expect(maxBacklog, 'what the server held unsent for the stream').toBeLessThan(256 * 1024 + 2 * big.length);
    expect(ended, `the stream was dropped (${sent} events sent)`).toBe(true);
    expect(sent).toBeLessThan(800);
    req.destroy();
  });
});
