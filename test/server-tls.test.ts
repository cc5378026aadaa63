/** HTTPS/WSS with a real self-signed certificate made by openssl for the test. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './helpers/api-server.js';

let dir: string;
let cert: string;
let t: TestServer;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  t = await startTestServer({ tls: { cert, key: fs.readFileSync(path.join(dir, 'key.pem')) } });
});
afterAll(async () => {
  await t.server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('TLS', () => {
  it('serves HTTPS with the same authentication', async () => {
    expect(t.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const get = (token: string | null) => new Promise<number>((resolve, reject) => {
      https.get(`${t.url}/api/v1/health`, { ca: cert, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => { res.resume(); resolve(res.statusCode!); }).on('error', reject);
    });
    expect(await get(t.adminToken)).toBe(200);
    expect(await get(null)).toBe(401);
  });

  it('serves WSS, and the same-origin check accepts the https origin', async () => {
    const socket = new WebSocket(`${t.url.replace('https', 'wss')}/api/v1/ws`, ['specterm.v1'], { ca: cert, headers: { authorization: `Bearer ${t.adminToken}`, origin: t.url } });
    const hello = await new Promise<any>((resolve, reject) => { socket.once('message', (m) => resolve(JSON.parse(String(m)))); socket.once('error', reject); });
    expect(hello).toMatchObject({ type: 'hello', protocol_version: 1 });
    socket.close();
  });
});
