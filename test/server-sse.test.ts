/** GET /api/v1/events as server-sent events: resume by Last-Event-ID, refusals as problems. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../src/protocol/index.js';
import { notFound } from '../src/server/index.js';
import { fixtureHandlers, KNOWN_SESSION, startTestServer, type TestServer } from './helpers/api-server.js';

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
