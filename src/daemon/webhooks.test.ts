import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualScheduler } from '../driver/schedulers.js';
import { verifyWebhookSignature, signatureHeader } from './webhook-signature.js';
import { WebhookConfigError } from './webhook-config.js';
import { WebhookDispatcher, type NotificationEvent, type WebhookReport } from './webhooks.js';

const SECRET = 'test-secret-0123456789abcdefghijklmnopqrstuv';
const exited = (sessionId: string): NotificationEvent => ({ type: 'session.exited', sessionId, at: 1, exitCode: 0, signal: null });

interface Received { headers: IncomingMessage['headers']; body: string }

/** A real receiver on 127.0.0.1; `respond` decides each answer (it may hold the response). */
async function startReceiver(respond: (req: Received, res: ServerResponse) => void) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/path-secret`;
  cleanups.push(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url, received };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function dispatcher(url: string, options: Partial<ConstructorParameters<typeof WebhookDispatcher>[0]> = {}) {
  const scheduler = new VirtualScheduler(1_800_000_000_000);
  const reports: WebhookReport[] = [];
  const hooks = new WebhookDispatcher({ webhooks: [{ id: 'ci', url, secret: SECRET }], scheduler, random: () => 1, onReport: (r) => reports.push(r), ...options });
  cleanups.push(() => void hooks.shutdown());
  return { hooks, scheduler, reports };
}

describe('WebhookDispatcher', () => {
  it('POSTs the event as signed JSON that a receiver can verify', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
    const { hooks, scheduler, reports } = dispatcher(receiver.url);
    hooks.notify(exited('s1'));
    await waitFor(() => reports.length === 1, 'the delivery');
    const [got] = receiver.received;
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-specterm-event']).toBe('session.exited');
    const payload = JSON.parse(got!.body);
    expect(payload).toEqual({ id: got!.headers['x-specterm-delivery'], event: exited('s1') });
    const nowSec = Math.floor(scheduler.now() / 1000);
    expect(verifyWebhookSignature(SECRET, got!.headers['x-specterm-signature'] as string, got!.body, nowSec)).toEqual({ ok: true, timestampSec: nowSec });
    expect(verifyWebhookSignature('another-secret-of-sufficient-length!!', got!.headers['x-specterm-signature'] as string, got!.body, nowSec)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhookSignature(SECRET, got!.headers['x-specterm-signature'] as string, `${got!.body} `, nowSec).ok).toBe(false);
    expect(reports).toEqual([{ type: 'delivered', webhookId: 'ci', eventId: payload.id, status: 204, attempts: 1 }]);
  });

  it('retries a 5xx after an exponential delay on the scheduler, with the same delivery id', async () => {
    let answers = [503, 500, 200];
    const receiver = await startReceiver((_req, res) => res.writeHead(answers.shift() ?? 200).end());
    const { hooks, scheduler, reports } = dispatcher(receiver.url, { baseDelayMs: 1_000 });
    hooks.notify(exited('s1'));
    await waitFor(() => reports.length === 1, 'the first failure');
    expect(reports[0]).toMatchObject({ type: 'retrying', attempt: 1, delayMs: 1_000, error: 'HTTP 503' });
    scheduler.advanceBy(999);
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toHaveLength(1);
    scheduler.advanceBy(1);
    await waitFor(() => reports.length === 2, 'the second failure');
    expect(reports[1]).toMatchObject({ type: 'retrying', attempt: 2, delayMs: 2_000 });
    scheduler.advanceBy(2_000);
    await waitFor(() => reports.length === 3, 'the delivery');
    expect(reports[2]).toMatchObject({ type: 'delivered', attempts: 3, status: 200 });
    const ids = new Set(receiver.received.map((r) => r.headers['x-specterm-delivery']));
    expect(ids.size).toBe(1);
    answers = [];
  });

  it('does not retry a 4xx (other than 408/429)', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(401).end());
    const { hooks, scheduler, reports } = dispatcher(receiver.url);
    hooks.notify(exited('s1'));
    await waitFor(() => reports.length === 1, 'the rejection');
    scheduler.advanceBy(3_600_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toHaveLength(1);
    expect(reports).toMatchObject([{ type: 'rejected', status: 401 }]);
    expect(hooks.stats()[0]).toMatchObject({ rejected: 1, delivered: 0, queued: 0 });
  });

  it('aborts a request that hangs past requestTimeoutMs and retries it; retries 429', async () => {
    const held: ServerResponse[] = [];
    let calls = 0;
    const receiver = await startReceiver((_req, res) => { calls += 1; if (calls === 1) held.push(res); else res.writeHead(calls === 2 ? 429 : 200).end(); });
    const { hooks, scheduler, reports } = dispatcher(receiver.url, { requestTimeoutMs: 5_000, baseDelayMs: 10 });
    hooks.notify(exited('s1'));
    await waitFor(() => held.length === 1, 'the hanging request');
    scheduler.advanceBy(4_999);
    await new Promise((r) => setTimeout(r, 30));
    expect(reports).toEqual([]);
    scheduler.advanceBy(1);
    await waitFor(() => reports.length === 1, 'the timeout');
    expect(reports[0]).toMatchObject({ type: 'retrying', error: 'timed out' });
    scheduler.advanceBy(10);
    await waitFor(() => reports.length === 2, 'the 429');
    expect(reports[1]).toMatchObject({ type: 'retrying', error: 'HTTP 429' });
    scheduler.advanceBy(20);
    await waitFor(() => reports.length === 3, 'the delivery');
    expect(reports[2]).toMatchObject({ type: 'delivered', attempts: 3 });
  });

  it('retries network failures with growing delays and gives up after maxAttempts', async () => {
    const receiver = await startReceiver((_req, res) => res.end());
    await cleanups.pop()!(); // closes it: the port now refuses connections
    const { hooks, scheduler, reports } = dispatcher(receiver.url, { maxAttempts: 3, baseDelayMs: 100 });
    hooks.notify(exited('s1'));
    await waitFor(() => reports.length === 1, 'the first failure');
    scheduler.advanceBy(100);
    await waitFor(() => reports.length === 2, 'the second failure');
    scheduler.advanceBy(200);
    await waitFor(() => reports.length === 3, 'giving up');
    expect(reports.map((r) => r.type)).toEqual(['retrying', 'retrying', 'gave-up']);
    expect(reports[0]).toMatchObject({ error: 'ECONNREFUSED' });
    expect(hooks.stats()[0]).toMatchObject({ gaveUp: 1 });
  });

  it('bounds the queue, dropping the oldest waiting event with a count, and never blocks the caller', async () => {
    const held: ServerResponse[] = [];
    const receiver = await startReceiver((_req, res) => held.push(res));
    const { hooks, reports } = dispatcher(receiver.url, { maxQueue: 2 });
    hooks.notify(exited('a'));
    await waitFor(() => held.length === 1, 'the first request');
    const started = performance.now();
    for (const id of ['b', 'c', 'd', 'e']) hooks.notify(exited(id));
    expect(performance.now() - started).toBeLessThan(50);
    // 'a' is in flight (it left the queue), the queue keeps the two newest of b..e.
    expect(reports.filter((r) => r.type === 'dropped')).toMatchObject([
      { eventType: 'session.exited', droppedTotal: 1 }, { droppedTotal: 2 },
    ]);
    expect(hooks.stats()[0]).toMatchObject({ queued: 2, inFlight: true, dropped: 2 });
    const release = () => { for (const res of held.splice(0)) res.writeHead(200).end(); };
    release();
    await waitFor(() => { release(); return reports.filter((r) => r.type === 'delivered').length === 3; }, 'three deliveries');
    const sessions = receiver.received.map((r) => JSON.parse(r.body).event.sessionId);
    expect(sessions).toEqual(['a', 'd', 'e']);
  });

  it('sends only the configured event types', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end());
    const scheduler = new VirtualScheduler();
    const reports: WebhookReport[] = [];
    const hooks = new WebhookDispatcher({ webhooks: [{ id: 'x', url: receiver.url, secret: SECRET, events: ['approval.needed'] }], scheduler, onReport: (r) => reports.push(r) });
    cleanups.push(() => void hooks.shutdown());
    hooks.notify(exited('s1'));
    hooks.notify({ type: 'session.error', sessionId: 's1', at: 2, message: 'boom' });
    hooks.notify({ type: 'approval.needed', sessionId: 's1', at: 3, approval: { id: 's1.1.abc', fingerprint: 'f', kind: 'approval', title: null, body: 'npm test', buttons: [] } });
    await waitFor(() => reports.length === 1, 'the delivery');
    expect(receiver.received.map((r) => r.headers['x-specterm-event'])).toEqual(['approval.needed']);
  });

  it('never puts the secret or the URL path in reports, errors or stats', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(500).end());
    const { hooks, reports } = dispatcher(receiver.url, { maxAttempts: 1 });
    hooks.notify(exited('s1'));
    await waitFor(() => reports.length === 1, 'giving up');
    const seen = JSON.stringify([reports, hooks.stats()]);
    expect(seen).not.toContain(SECRET);
    expect(seen).not.toContain('path-secret');
    expect(hooks.stats()[0]!.origin).toBe(new URL(receiver.url).origin);
  });

  it('stops on shutdown: retries cancelled, later events ignored', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(503).end());
    const { hooks, scheduler, reports } = dispatcher(receiver.url);
    hooks.notify(exited('s1'));
    await waitFor(() => reports.length === 1, 'the failure');
    expect(await hooks.shutdown()).toBe(1);
    hooks.notify(exited('s2'));
    expect(scheduler.pendingCount()).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toHaveLength(1);
  });
});

describe('webhook configuration', () => {
  const configError = (webhook: Record<string, unknown>): WebhookConfigError => {
    try {
      new WebhookDispatcher({ webhooks: [{ id: 'w', url: 'http://127.0.0.1:1/h', secret: SECRET, ...webhook } as never], scheduler: new VirtualScheduler() });
    } catch (e) {
      return e as WebhookConfigError;
    }
    throw new Error('expected the configuration to be refused');
  };

  it('accepts http(s) on loopback, and elsewhere only when allowed', () => {
    for (const url of ['http://localhost:9/h', 'https://127.0.0.2/h', 'http://[::1]:9/h']) {
      expect(() => new WebhookDispatcher({ webhooks: [{ id: 'w', url, secret: SECRET }], scheduler: new VirtualScheduler() })).not.toThrow();
    }
    expect(configError({ url: 'https://hooks.example.com/x' }).message).toMatch(/not loopback; set allowNonLoopback: true/);
    expect(() => new WebhookDispatcher({ webhooks: [{ id: 'w', url: 'https://hooks.example.com/x', secret: SECRET, allowNonLoopback: true }], scheduler: new VirtualScheduler() })).not.toThrow();
  });

  it('refuses other schemes, credentials in URLs, short secrets, unknown events and duplicate ids', () => {
    expect(configError({ url: 'ftp://127.0.0.1/x' })).toMatchObject({ code: 'WEBHOOK_CONFIG_INVALID', path: 'webhooks[0].url' });
    expect(configError({ url: 'file:///etc/passwd' }).path).toBe('webhooks[0].url');
    expect(configError({ url: 'not a url' }).path).toBe('webhooks[0].url');
    const creds = configError({ url: 'http://user:hunter2@127.0.0.1/x' });
    expect(creds.message).toMatch(/credentials/);
    expect(creds.message).not.toContain('hunter2');
    const short = configError({ secret: 'short-secret' });
    expect(short.path).toBe('webhooks[0].secret');
    expect(short.message).not.toContain('short-secret');
    expect(configError({ events: ['session.exit'] }).path).toBe('webhooks[0].events[0]');
    expect(() => new WebhookDispatcher({ webhooks: [{ id: 'w', url: 'http://127.0.0.1/a', secret: SECRET }, { id: 'w', url: 'http://127.0.0.1/b', secret: SECRET }], scheduler: new VirtualScheduler() })).toThrow(/used twice/);
  });
});

describe('verifyWebhookSignature', () => {
  it('agrees with the receiver example in docs/daemon-approvals.md', () => {
    const doc = readFileSync(new URL('../../docs/daemon-approvals.md', import.meta.url), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(doc)![1]!.replace(/^import .*$/m, '');
    const verify = new Function('createHmac', 'timingSafeEqual', 'Buffer', `${code}; return verify;`)(createHmac, timingSafeEqual, Buffer);
    const body = JSON.stringify({ id: 'x', event: exited('s1') });
    const header = signatureHeader(SECRET, 2_000, body);
    expect(verify(SECRET, header, body, 2_000)).toBe(true);
    expect(verify(SECRET, header, `${body} `, 2_000)).toBe(false);
    expect(verify(SECRET, header, body, 2_301)).toBe(false);
  });

  it('refuses stale and malformed signatures', () => {
    const header = signatureHeader(SECRET, 1_000, '{}');
    expect(verifyWebhookSignature(SECRET, header, '{}', 1_000 + 300).ok).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, '{}', 1_000 + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhookSignature(SECRET, undefined, '{}', 1_000)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyWebhookSignature(SECRET, header.replace('t=1000', 't=1001'), '{}', 1_000)).toEqual({ ok: false, reason: 'mismatch' });
  });
});
