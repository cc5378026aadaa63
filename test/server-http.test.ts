/**
 * The HTTP edge against a real server on 127.0.0.1:0 with real fetch: authentication, scopes,
 * Host/Origin, body rules, validation, routing, lockout, rate limits and audit.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiServer } from '../src/server/index.js';
import { KNOWN_SESSION, MemoryTokenStore, startTestServer, type TestServer } from './helpers/api-server.js';

let t: TestServer;
beforeEach(async () => { t = await startTestServer(); });
afterEach(async () => { await t.server.close(); });

async function problem(res: Response): Promise<any> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = await res.json();
  expect(body).toMatchObject({ status: res.status, instance: expect.any(String), type: expect.stringMatching(/^https:/), title: expect.any(String), detail: expect.any(String) });
  return body;
}

/** A raw request, for headers fetch will not send as given (Host) or bodies it frames itself. */
function raw(options: http.RequestOptions & { body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, ...options }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('authentication', () => {
  it('refuses a request without a token with 401 and says where the token is', async () => {
    const res = await t.api('/api/v1/health', { token: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    const body = await problem(res);
    expect(body.code).toBe('AUTH_REQUIRED');
    expect(body.detail).toMatch(/admin-token/);
  });

  it('refuses a wrong token with 401 AUTH_INVALID', async () => {
    const res = await t.api('/api/v1/health', { token: 'x'.repeat(43) });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe('AUTH_INVALID');
  });

  it('accepts the admin token and a device token, and reports versions on health', async () => {
    expect(await (await t.api('/api/v1/health')).json()).toEqual({ status: 'ok', version: '0.1.0-test', protocol_version: 1 });
    expect((await t.api('/api/v1/health', { token: t.tokenFor('read') })).status).toBe(200);
  });

  it('accepts the session cookie', async () => {
    const res = await fetch(`${t.url}/api/v1/health`, { headers: { cookie: `other=1; specterm_session=${t.tokenFor('read')}` } });
    expect(res.status).toBe(200);
  });

  it('refuses a token in the query string even with a valid header, explaining why', async () => {
    const res = await t.api(`/api/v1/health?token=${t.adminToken}`);
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe('TOKEN_IN_URL');
    expect(body.detail).toMatch(/logs/);
    expect(JSON.stringify(body)).not.toContain(t.adminToken);
  });

  it('refuses a revoked token', async () => {
    const { token, record } = t.tokens.create({ name: 'old', scope: 'read' });
    expect((await t.api(`/api/v1/tokens/${record.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await t.api('/api/v1/health', { token })).status).toBe(401);
  });

  it('locks an address out after repeated failures, then takes guesses again once the lock expires; a valid token is never locked out', async () => {
    for (let i = 0; i < 5; i++) expect((await t.api('/api/v1/health', { token: `wrong-${i}` })).status).toBe(401);
    expect((await t.api('/api/v1/health', { token: 'wrong-5' })).status).toBe(401); // the 6th failure locks
    const locked = await t.api('/api/v1/health', { token: 'wrong-6' });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('1');
    expect((await problem(locked)).code).toBe('AUTH_LOCKED_OUT');
    // Any local process can fail from 127.0.0.1: the user's own clients there must go on working.
    expect((await t.api('/api/v1/health')).status).toBe(200);
    expect((await t.api('/api/v1/health', { token: t.tokenFor('read') })).status).toBe(200);
    t.clock.now += 1_001;
    expect((await t.api('/api/v1/health', { token: 'wrong-7' })).status).toBe(401);
  });

  it('doubles the lockout with every further failure', async () => {
    for (let i = 0; i < 6; i++) await t.api('/api/v1/health', { token: 'bad' });
    t.clock.now += 1_001;
    await t.api('/api/v1/health', { token: 'bad' });
    expect((await t.api('/api/v1/health', { token: 'bad' })).headers.get('retry-after')).toBe('2');
  });

  it('throttles failures from rotating addresses with a global budget, and never a valid token (issue 24 item 9)', async () => {
    const url = new URL(t.url);
    // Linux routes all of 127/8 to lo: each request comes from its own source address.
    const from = (n: number, token: string) => new Promise<{ status: number; code?: string; retryAfter?: string }>((resolve, reject) => {
      const req = http.get({ host: url.hostname, port: url.port, path: '/api/v1/health', localAddress: `127.0.${Math.floor(n / 250)}.${2 + (n % 250)}`, agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let text = '';
        res.on('data', (c) => { text += c; });
        res.on('end', () => resolve({ status: res.statusCode!, code: res.statusCode === 200 ? undefined : JSON.parse(text).code, retryAfter: res.headers['retry-after'] as string | undefined }));
      });
      req.on('error', reject);
    });
    const answers: string[] = [];
    for (let n = 0; n < 60; n++) answers.push(`${(await from(n, `guess-${n}`)).code}`);
    // A default budget of 30 failures, then every further one is refused, from whichever address.
    expect(answers.slice(0, 30)).toEqual(Array(30).fill('AUTH_INVALID'));
    expect(answers.slice(30)).toEqual(Array(30).fill('AUTH_THROTTLED'));
    const throttled = await from(100, 'guess-100');
    expect([throttled.status, throttled.retryAfter]).toEqual([429, '2']);
    // Valid tokens go on working, from a fresh address and from the ones that guessed.
    const valid = t.tokenFor('read');
    expect((await from(101, valid)).status).toBe(200);
    expect((await from(5, valid)).status).toBe(200);
    expect((await from(6, t.adminToken)).status).toBe(200);
    expect((await t.api('/api/v1/health')).status).toBe(200);
    // The budget refills: one failure every 2 s.
    t.clock.now += 2_001;
    expect((await from(102, 'guess-102')).code).toBe('AUTH_INVALID');
    expect((await from(103, 'guess-103')).code).toBe('AUTH_THROTTLED');
  });
});

describe('slow and many connections (issue 24 item 9)', () => {
  /** A raw TCP client: resolves with what the server wrote before closing, and how long after `started` it closed. */
  function rawClient(port: number, send: string): { socket: net.Socket; done: Promise<{ reply: string; afterMs: number }> } {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(send));
    let reply = '';
    socket.on('data', (c) => { reply += c; });
    socket.on('error', () => {});
    return { socket, done: new Promise((resolve) => socket.on('close', () => resolve({ reply, afterMs: Date.now() - started }))) };
  }

  it('cuts a client whose headers do not arrive within the header timeout, at that time, with 408', async () => {
    await t.server.close();
    t = await startTestServer({ headersTimeoutMs: 2_000 });
    const slow = rawClient(t.server.port, `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${t.server.port}\r\nX-Slow: 1`);
    const outcome = await Promise.race([slow.done, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 10_000))]);
    slow.socket.destroy();
    expect(outcome).not.toBe('still open');
    const { reply, afterMs } = outcome as { reply: string; afterMs: number };
    expect(afterMs).toBeGreaterThanOrEqual(1_900);
    expect(afterMs).toBeLessThan(5_000);
    expect(reply).toMatch(/^HTTP\/1.1 408 .*"code":"REQUEST_TIMEOUT"/s);
  }, 15_000);

  it('refuses connections beyond the cap with 503 TOO_MANY_CONNECTIONS, and takes them again once some close', async () => {
    await t.server.close();
    t = await startTestServer({ maxConnections: 3 });
    const idle = [0, 1, 2].map(() => rawClient(t.server.port, ''));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = rawClient(t.server.port, `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${t.server.port}\r\nAuthorization: Bearer ${t.adminToken}\r\n\r\n`);
    const { reply } = await refused.done;
    expect(reply).toMatch(/^HTTP\/1.1 503 .*retry-after: 1.*"code":"TOO_MANY_CONNECTIONS"/s);
    expect(reply).toMatch(/"detail":"the daemon serves at most 3 connections at once/);
    idle[0]!.socket.destroy();
    await idle[0]!.done;
    const again = rawClient(t.server.port, `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${t.server.port}\r\nAuthorization: Bearer ${t.adminToken}\r\nConnection: close\r\n\r\n`);
    expect((await again.done).reply).toMatch(/^HTTP\/1.1 200 /);
    for (const c of idle) c.socket.destroy();
  });
});

describe('scopes', () => {
  it('refuses a read token on an input route with 403 and audits the refusal', async () => {
    const res = await t.api(`/api/v1/sessions/${KNOWN_SESSION}/keys`, { method: 'POST', body: JSON.stringify({ data: 'rm -rf /\r' }), token: t.tokenFor('read') });
    expect(res.status).toBe(403);
    const body = await problem(res);
    expect(body.code).toBe('SCOPE_INSUFFICIENT');
    expect(body.detail).toMatch(/'input' scope.*'read'/);
    expect(t.audit).toEqual([expect.objectContaining({ who: 'read-device', what: 'sendKeys', outcome: 'refused', status: 403, code: 'SCOPE_INSUFFICIENT' })]);
  });

  it('lets an approve token answer approvals but not type', async () => {
    const token = t.tokenFor('approve');
    expect((await t.api('/api/v1/approvals/a_1', { method: 'POST', body: JSON.stringify({ button: 0, fingerprint: 'f' }), token })).status).toBe(200);
    expect((await t.api(`/api/v1/sessions/${KNOWN_SESSION}/messages`, { method: 'POST', body: JSON.stringify({ text: 'hi' }), token })).status).toBe(403);
  });

  it('keeps token management to the admin scope', async () => {
    expect((await t.api('/api/v1/tokens', { token: t.tokenFor('input') })).status).toBe(403);
  });
});

describe('where a request comes from', () => {
  it('answers 421 to a Host that is not ours (DNS rebinding)', async () => {
    const res = await raw({ path: '/api/v1/health', headers: { host: `evil.example:${t.server.port}`, authorization: `Bearer ${t.adminToken}` } });
    expect(res.status).toBe(421);
    expect(res.body.code).toBe('HOST_NOT_ALLOWED');
  });

  it('refuses a foreign Origin with 403 and accepts the same origin', async () => {
    const foreign = await t.api('/api/v1/health', { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await problem(foreign)).code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await t.api('/api/v1/health', { headers: { origin: t.url } })).status).toBe(200);
    expect((await t.api('/api/v1/health', { headers: { origin: 'null' } })).status).toBe(403);
  });

  it('refuses a cross-site browser request that carries no Origin', async () => {
    expect((await t.api('/api/v1/health', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
  });

  it('accepts a configured extra host and origin', async () => {
    const s = await startTestServer({ allowedHosts: ['specterm.lan'], allowedOrigins: ['https://dash.lan'] });
    try {
      const res = await new Promise<number>((resolve) => http.get({ host: '127.0.0.1', port: s.server.port, path: '/api/v1/health', headers: { host: `specterm.lan:${s.server.port}`, origin: 'https://dash.lan', authorization: `Bearer ${s.adminToken}` } }, (r) => { r.resume(); resolve(r.statusCode!); }));
      expect(res).toBe(200);
    } finally { await s.server.close(); }
  });
});

describe('bodies', () => {
  const keys = `/api/v1/sessions/${KNOWN_SESSION}/keys`;

  it('refuses a text/plain POST (CSRF) and a form POST with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.api(keys, { method: 'POST', body: '{"data":"x"}', headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
      expect((await problem(res)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(1024 * 1024) });
    const declared = await t.api(keys, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    expect((await problem(declared)).code).toBe('BODY_TOO_LARGE');
    const chunked = await raw({ method: 'POST', path: keys, headers: { host: `127.0.0.1:${t.server.port}`, authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
  });

  it('answers malformed JSON with 400 naming the position', async () => {
    const res = await t.api(keys, { method: 'POST', body: '{"data": "x",\n "oops" }' });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe('BODY_MALFORMED_JSON');
    expect(body).toMatchObject({ position: 22, line: 2, column: 9 });
    expect(body.detail).toMatch(/position 22 \(line 2, column 9\)/);
  });

  it('answers a schema-invalid body with 422 naming the field, the value and the fix', async () => {
    const res = await t.api('/api/v1/sessions', { method: 'POST', body: JSON.stringify({ spec: 'demo-agent', cwd: '/tmp', cols: 5000, colour: 'red' }) });
    expect(res.status).toBe(422);
    const body = await problem(res);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors).toEqual(expect.arrayContaining([
      { path: '/cols', code: 'too_big', message: expect.stringMatching(/^\/cols: .*1000.*\(got 5000\)$/) },
      { path: '', code: 'unrecognized_keys', message: expect.stringMatching(/unknown field 'colour'; remove it/) },
    ]));
  });

  it('names a missing field as missing', async () => {
    const res = await t.api('/api/v1/sessions', { method: 'POST', body: JSON.stringify({ spec: 'demo-agent' }) });
    const body = await problem(res);
    expect(body.errors).toEqual([{ path: '/cwd', code: 'invalid_type', message: expect.stringMatching(/missing/) }]);
  });

  it('never echoes an environment value in an error', async () => {
    const secret = `sk-${'x'.repeat(40000)}`;
    const res = await t.api('/api/v1/sessions', { method: 'POST', body: JSON.stringify({ spec: 'demo-agent', cwd: '/tmp', env: { API_KEY: secret } }) });
    const body = await problem(res);
    expect(body.errors).toEqual([{ path: '/env/API_KEY', code: 'too_big', message: expect.stringMatching(/not shown/) }]);
    expect(JSON.stringify(body)).not.toContain('sk-x');
  });

  it('refuses a body on a route that takes none', async () => {
    const res = await t.api(`/api/v1/sessions/${KNOWN_SESSION}/kill`, { method: 'POST', body: '{"now":true}' });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe('BODY_NOT_EXPECTED');
  });
});

describe('routing', () => {
  it('answers an unknown id with 404 naming it', async () => {
    const res = await t.api('/api/v1/sessions/s_nope');
    expect(res.status).toBe(404);
    const body = await problem(res);
    expect(body.code).toBe('SESSION_NOT_FOUND');
    expect(body.detail).toMatch(/'s_nope'/);
  });

  it('answers an invalid id with 422 on the path parameter', async () => {
    const res = await t.api('/api/v1/sessions/bad%20id!');
    expect(res.status).toBe(422);
    expect((await problem(res)).errors[0].path).toBe('/id');
  });

  it('answers an unknown route with 404 and a wrong method with 405 + Allow', async () => {
    expect((await problem(await t.api('/api/v1/nothing'))).code).toBe('ROUTE_NOT_FOUND');
    const wrong = await t.api('/api/v1/health', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('refuses unknown query parameters and validates known ones', async () => {
    expect((await t.api('/api/v1/sessions?color=1')).status).toBe(422);
    expect((await t.api(`/api/v1/sessions/${KNOWN_SESSION}/screen?format=pdf`)).status).toBe(422);
    expect(await (await t.api(`/api/v1/sessions/${KNOWN_SESSION}/screen?format=ansi`)).json()).toMatchObject({ format: 'ansi' });
  });

  it('answers 501 for a table route that has no handler', async () => {
    const s = await startTestServer({ handlers: {} });
    try {
      const res = await s.api('/api/v1/sessions');
      expect(res.status).toBe(501);
      expect((await res.json()).code).toBe('NOT_IMPLEMENTED');
    } finally { await s.server.close(); }
  });

  it('answers 500 without details when a handler answers outside its schema', async () => {
    const s = await startTestServer({ handlers: { listSessions: () => ({ sessions: 'no' }) as never } });
    try {
      const res = await s.api('/api/v1/sessions');
      expect(res.status).toBe(500);
      expect((await res.json()).code).toBe('INTERNAL');
      expect(s.warnings.join('\n')).toMatch(/listSessions answered outside its schema/);
    } finally { await s.server.close(); }
  });
});

describe('keystroke routes', () => {
  it('rate-limits per token with 429 and Retry-After, and audits every command', async () => {
    const s = await startTestServer({ rateLimit: { burst: 2, perSecond: 1 } });
    try {
      const send = () => s.api(`/api/v1/sessions/${KNOWN_SESSION}/keys`, { method: 'POST', body: JSON.stringify({ data: 'y' }) });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      s.clock.now += 1_000;
      expect((await send()).status).toBe(200);
      expect(s.audit.map((e) => [e.who, e.what, e.outcome, e.status])).toEqual([
        ['admin', 'sendKeys', 'ok', 200], ['admin', 'sendKeys', 'ok', 200], ['admin', 'sendKeys', 'refused', 429], ['admin', 'sendKeys', 'ok', 200],
      ]);
      expect(s.audit[0]).toMatchObject({ params: { id: KNOWN_SESSION }, body: { data: 'y' }, at: 1_000_000 });
    } finally { await s.server.close(); }
  });

  it('does not audit reads', async () => {
    await t.api(`/api/v1/sessions/${KNOWN_SESSION}`);
    expect(t.audit).toEqual([]);
  });
});

describe('tokens', () => {
  it('creates a scoped token (secret shown once), lists it without the secret, and revokes it', async () => {
    const created = await t.api('/api/v1/tokens', { method: 'POST', body: JSON.stringify({ name: 'phone', scope: 'approve' }) });
    expect(created.status).toBe(201);
    const { token, record } = await created.json();
    expect(record).toMatchObject({ name: 'phone', scope: 'approve', revoked_at: null });
    expect((await t.api('/api/v1/health', { token })).status).toBe(200);
    const list = await (await t.api('/api/v1/tokens')).text();
    expect(list).toContain('phone');
    expect(list).not.toContain(token);
    expect((await t.api(`/api/v1/tokens/${record.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await t.api(`/api/v1/tokens/${record.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('binding', () => {
  it('refuses a non-loopback bind without the explicit option', async () => {
    await expect(createApiServer({ host: '0.0.0.0', tokens: new MemoryTokenStore(Date.now) })).rejects.toMatchObject({ code: 'BIND_NOT_LOOPBACK' });
  });

  it('warns when a non-loopback bind has no TLS', async () => {
    const warnings: string[] = [];
    const s = await createApiServer({ host: '0.0.0.0', allowNonLoopback: true, tokens: new MemoryTokenStore(Date.now), log: (_l, m) => warnings.push(m) });
    await s.close();
    expect(warnings.join('\n')).toMatch(/without TLS/);
  });
});
