/**
 * The dashboard's files served at `/` by a real server: types, caching, the security headers,
 * SPA routes, and no way out of the directory (dot segments, encoded, backslash, symlinks).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/api-server.js';

let t: TestServer;
let root: string;
let dir: string;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-static-'));
  dir = path.join(root, 'dashboard');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title><script type="module" src="/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.css'), 'body{}');
  fs.mkdirSync(path.join(dir, 'fonts'));
  fs.writeFileSync(path.join(dir, 'fonts', 'specterm-symbols.ttf'), Buffer.from([0, 1, 0, 0]));
  fs.writeFileSync(path.join(root, 'secret.txt'), 'outside');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(dir, 'assets', 'link.txt'));
  fs.writeFileSync(path.join(dir, '.hidden.txt'), 'dotfile');
  t = await startTestServer({ dashboardDir: dir });
});
afterAll(async () => {
  await t.server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A raw request: fetch would normalize `..` out of the path before sending it. */
function raw(target: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: target, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

describe('the dashboard at /', () => {
  it('serves index.html without a credential, with the strict headers and no-cache', async () => {
    const res = await raw('/');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>t</title>');
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': CSP,
      'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY',
    });
  });

  it('serves hashed assets with their type, immutable', async () => {
    const js = await raw('/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await raw('/assets/index-abc123.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('serves the shipped symbol font as a font', async () => {
    const font = await raw('/fonts/specterm-symbols.ttf');
    expect(font.status).toBe(200);
    expect(font.headers['content-type']).toBe('font/ttf');
  });

  it('answers app routes (no extension) with index.html, and HEAD without a body', async () => {
    expect((await raw('/sessions/s_1')).body).toContain('<title>t</title>');
    const head = await raw('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it.each([
    '/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/assets/..%5c..%5csecret.txt', '/assets/link.txt', '/.hidden.txt', '/missing.js', '/assets/%00.js', '/%E0%A4%A.js',
  ])('refuses %s with 404 and never leaks the outside file', async (target) => {
    const res = await raw(target);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('outside');
    expect(res.body).not.toContain('dotfile');
    expect(JSON.parse(res.body).code).toBe('FILE_NOT_FOUND');
    expect(res.headers['content-security-policy']).toBe(CSP);
  });

  it('refuses other methods with 405 and Allow', async () => {
    const res = await raw('/', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('checks the Host (DNS rebinding) but lets a cross-site navigation open a pairing link', async () => {
    expect((await raw('/', { headers: { host: 'evil.example' } })).status).toBe(421);
    expect((await raw('/', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } })).status).toBe(200);
  });

  it('leaves the API locked: /api paths never come from the directory', async () => {
    expect((await raw('/api/v1/health')).status).toBe(401);
    expect((await raw('/api/index.html')).status).toBe(401);
  });
});

describe('without a built dashboard', () => {
  it('serves nothing at / (the API answers, locked)', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'st-static-none-'));
    const s = await startTestServer({ dashboardDir: empty });
    try {
      const res = await fetch(`${s.url}/`);
      expect(res.status).toBe(401);
    } finally {
      await s.server.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
