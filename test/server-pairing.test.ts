/**
 * Pairing a browser against a real server with real fetch and `ws`: a one-time code (fragment
 * URL, 10 minutes, single use) becomes a named device token and an HttpOnly session cookie;
 * the cookie authenticates HTTP and the WebSocket (same origin only); sign-out revokes it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './helpers/api-server.js';

let t: TestServer;
beforeEach(async () => { t = await startTestServer(); });
afterEach(async () => { await t.server.close(); });

const TEN_MINUTES = 10 * 60_000;

function pair(code: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.url}/api/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url, ...headers }, body: JSON.stringify({ code }) });
}

/** Pairs a fresh device; the cookie pair `name=value` to send back. */
async function pairedCookie(scope: 'read' | 'approve' | 'input' | 'admin' = 'read'): Promise<string> {
  const { code } = t.server.createPairing({ deviceName: 'phone', scope });
  const res = await pair(code);
  expect(res.status).toBe(201);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

function upgrade(headers: Record<string, string>): Promise<{ status: number; socket?: WebSocket; hello?: any }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/v1/ws`, ['specterm.v1'], { headers });
    socket.once('message', (data) => resolve({ status: 101, socket, hello: JSON.parse(String(data)) }));
    socket.once('unexpected-response', (_req, res) => { resolve({ status: res.statusCode! }); res.resume(); });
    socket.once('error', () => {});
  });
}

describe('pairing codes', () => {
  it('makes a fragment URL: the code never reaches a request line', () => {
    const pairing = t.server.createPairing({ deviceName: 'phone', scope: 'approve' });
    expect(pairing.url).toBe(`${t.url}/#pair=${pairing.code}`);
    expect(pairing.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(pairing).toMatchObject({ device_name: 'phone', scope: 'approve', expires_at: t.clock.now + TEN_MINUTES });
    expect(t.server.createPairing({ deviceName: 'phone', scope: 'approve' }).code).not.toBe(pairing.code);
  });

  it('is also made by an admin call, refused below admin', async () => {
    const res = await t.api('/api/v1/pairings', { method: 'POST', body: JSON.stringify({ device_name: 'tablet', scope: 'input' }) });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.url).toBe(`${t.url}/#pair=${body.code}`);
    expect((await pair(body.code)).status).toBe(201);
    const refused = await t.api('/api/v1/pairings', { method: 'POST', token: t.tokenFor('input'), body: JSON.stringify({ device_name: 'x', scope: 'admin' }) });
    expect(refused.status).toBe(403);
  });

  it('creates the named device token with the chosen scope and sets the exact cookie', async () => {
    const { code } = t.server.createPairing({ deviceName: 'my phone', scope: 'approve' });
    const res = await pair(code);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.device).toMatchObject({ name: 'my phone', scope: 'approve', revoked_at: null });
    expect(JSON.stringify(body)).not.toMatch(/specterm_session/);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^specterm_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=34560000$/);
    const secret = cookie.split(';')[0]!.split('=')[1]!;
    expect(t.tokens.verify(secret)).toMatchObject({ id: body.device.id, name: 'my phone', scope: 'approve' });
  });

  it('refuses a wrong code, a reused code and an expired code, each with its own code and the fix', async () => {
    const wrong = await pair('not-a-code');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'PAIRING_CODE_UNKNOWN', detail: expect.stringMatching(/new pairing URL/) });
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const { code } = t.server.createPairing({ deviceName: 'phone', scope: 'read' });
    expect((await pair(code)).status).toBe(201);
    const reused = await pair(code);
    expect(reused.status).toBe(410);
    expect((await reused.json()).code).toBe('PAIRING_CODE_USED');

    const late = t.server.createPairing({ deviceName: 'phone', scope: 'read' });
    t.clock.now += TEN_MINUTES - 1;
    const justInTime = t.server.createPairing({ deviceName: 'phone', scope: 'read' });
    t.clock.now += 1;
    const expired = await pair(late.code);
    expect(expired.status).toBe(410);
    expect((await expired.json()).code).toBe('PAIRING_CODE_EXPIRED');
    expect((await pair(justInTime.code)).status).toBe(201);
    expect(t.tokens.list()).toHaveLength(2);
  });

  it('counts wrong codes toward the per-address lockout', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 30 && last?.status !== 429; i += 1) last = await pair(`guess-${i}`);
    expect(last!.status).toBe(429);
    expect((await last!.json()).code).toBe('AUTH_LOCKED_OUT');
    // Locked out, guesses get 429; the right code still pairs (a local process guessing must not block the user).
    expect((await pair('guess-more')).status).toBe(429);
    const { code } = t.server.createPairing({ deviceName: 'phone', scope: 'read' });
    expect((await pair(code)).status).toBe(201);
  });

  it('refuses a pairing POST from a foreign page', async () => {
    const { code } = t.server.createPairing({ deviceName: 'phone', scope: 'read' });
    const res = await pair(code, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect((await pair(code)).status).toBe(201); // the refused attempt did not burn the code
  });
});

describe('the session cookie', () => {
  it('authenticates HTTP with the device scope', async () => {
    const cookie = await pairedCookie('read');
    expect((await fetch(`${t.url}/api/v1/sessions`, { headers: { cookie } })).status).toBe(200);
    const denied = await fetch(`${t.url}/api/v1/sessions/s_1/kill`, { method: 'POST', headers: { cookie, origin: t.url } });
    expect(denied.status).toBe(403);
  });

  it('authenticates the WebSocket upgrade from the same origin', async () => {
    const cookie = await pairedCookie('approve');
    const { status, socket, hello } = await upgrade({ cookie, origin: t.url });
    expect(status).toBe(101);
    expect(hello).toMatchObject({ type: 'hello', scope: 'approve' });
    socket!.close();
  });

  it('is refused with a valid cookie from a foreign Origin, HTTP and WebSocket', async () => {
    const cookie = await pairedCookie('admin');
    const res = await fetch(`${t.url}/api/v1/sessions`, { headers: { cookie, origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await upgrade({ cookie, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('sign-out revokes the device token, clears the cookie and closes its sockets', async () => {
    const cookie = await pairedCookie('read');
    const { socket } = await upgrade({ cookie, origin: t.url });
    const closed = new Promise<number>((resolve) => socket!.once('close', (code) => resolve(code)));
    const res = await fetch(`${t.url}/api/v1/sign-out`, { method: 'POST', headers: { cookie, origin: t.url } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: true });
    expect(res.headers.get('set-cookie')).toBe('specterm_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    expect(await closed).toBe(1008);
    expect((await fetch(`${t.url}/api/v1/sessions`, { headers: { cookie } })).status).toBe(401);
    expect(t.tokens.list()[0]!.revokedAt).not.toBeNull();
    expect((await upgrade({ cookie, origin: t.url })).status).toBe(401);
  });

  it('sign-out with the admin token only clears the cookie', async () => {
    const res = await t.api('/api/v1/sign-out', { method: 'POST' });
    expect(await res.json()).toEqual({ revoked: false });
    expect((await t.api('/api/v1/health')).status).toBe(200);
  });
});

describe('under TLS', () => {
  it('marks the cookie Secure', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-pair-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
        '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
      const cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
      const tls = await startTestServer({ tls: { cert, key: fs.readFileSync(path.join(dir, 'key.pem')) } });
      try {
        const { code, url } = tls.server.createPairing({ deviceName: 'phone', scope: 'read' });
        expect(url.startsWith('https://127.0.0.1:')).toBe(true);
        const setCookie = await new Promise<string>((resolve, reject) => {
          const req = https.request(`${tls.url}/api/v1/pair`, { method: 'POST', ca: cert, headers: { 'content-type': 'application/json', origin: tls.url } }, (res) => {
            res.resume();
            resolve(String(res.headers['set-cookie']));
          });
          req.on('error', reject);
          req.end(JSON.stringify({ code }));
        });
        expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=34560000; Secure$/);
      } finally {
        await tls.server.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
