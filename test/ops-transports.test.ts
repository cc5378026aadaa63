/**
 * The operations layer under real transports: HTTP and the WebSocket reach the same executor,
 * so a token's rate limit, its scope refusals and the audit are the same whichever carries a
 * keystroke — a client cannot get around a limit by switching transport.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, KNOWN_SESSION, type TestServer } from './helpers/api-server.js';

let t: TestServer | undefined;
afterEach(async () => { await t?.server.close(); t = undefined; });

async function wsCall(server: TestServer, token: string, message: Record<string, unknown>): Promise<Record<string, unknown>> {
  const socket = new WebSocket(server.url.replace('http', 'ws') + '/api/v1/ws', ['specterm.v1'], { headers: { authorization: `Bearer ${token}` } });
  try {
    return await new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('message', (data) => {
        const m = JSON.parse(String(data));
        if (m.type === 'hello') socket.send(JSON.stringify(message));
        else if (m.ref === message.ref) resolve(m);
      });
    });
  } finally {
    socket.close();
  }
}

describe('one executor under HTTP and WebSocket', () => {
  it('shares a token\'s keystroke budget across transports and audits each call with its transport', async () => {
    const typed: string[] = [];
    t = await startTestServer({ rateLimit: { burst: 2, perSecond: 0.001 }, ws: { input: (m) => { typed.push(m.data); } } });
    const token = t.tokenFor('input');
    for (const data of ['a', 'b']) {
      const res = await t.api(`/api/v1/sessions/${KNOWN_SESSION}/keys`, { method: 'POST', body: JSON.stringify({ data }), token });
      expect(res.status).toBe(200);
    }
    const answer = await wsCall(t, token, { type: 'input', ref: 'r1', session_id: KNOWN_SESSION, data: 'c' });
    expect(answer).toMatchObject({ type: 'error', ref: 'r1', code: 'RATE_LIMITED' });
    expect(typed).toEqual([]);
    expect(t.audit.map((e) => [e.what, e.via, e.outcome, e.code])).toEqual([
      ['sendKeys', 'http', 'ok', null], ['sendKeys', 'http', 'ok', null], ['terminalInput', 'ws', 'refused', 'RATE_LIMITED'],
    ]);
    expect(t.audit[2]!.params).toEqual({ id: KNOWN_SESSION });
  });

  it('answers a scope refusal with the same code and wording on both transports', async () => {
    t = await startTestServer({ ws: { input: () => {} } });
    const token = t.tokenFor('read');
    const res = await t.api(`/api/v1/sessions/${KNOWN_SESSION}/keys`, { method: 'POST', body: JSON.stringify({ data: 'y' }), token });
    const problem = await res.json() as { code: string; detail: string };
    const answer = await wsCall(t, token, { type: 'input', ref: 'r2', session_id: KNOWN_SESSION, data: 'y' });
    expect([res.status, problem.code, answer.code]).toEqual([403, 'SCOPE_INSUFFICIENT', 'SCOPE_INSUFFICIENT']);
    const tail = (text: string) => text.slice(text.indexOf(' needs the '));
    expect(tail(String(answer.message))).toBe(tail(problem.detail));
  });
});
