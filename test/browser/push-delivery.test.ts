/**
 * Web Push end to end against the real daemon (`specterm serve` over dist/) and a push service
 * on loopback (no external push service is reachable here): the VAPID key pair is made on the
 * first start and kept (0600) across a restart; a browser's subscription is stored; the demo
 * agent's approval, its turn's end and its exit each arrive encrypted for the subscription's
 * keys (decrypted here with the browser-side private key) with a VAPID JWT for the push
 * service's origin; a 503 is retried with backoff; a 410 removes the subscription; an http:
 * endpoint off loopback is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientError } from '../../src/client/index.js';
import { PushMessage } from '../../src/protocol/index.js';
import { makeDirs, startDaemon, stopAll } from '../daemon/daemon-harness.js';
import { decryptPushMessage, makeBrowserKeys, startPushService, verifyVapid } from './push-service-fixture.js';

afterEach(stopAll);

describe('Web Push from the daemon', () => {
  it('pushes approval needed, turn finished and exited, encrypted and signed; retries a 503; drops a 410 subscription', async () => {
    const service = await startPushService();
    try {
      const d = makeDirs();
      fs.writeFileSync(path.join(d.stateDir, 'settings.json'), JSON.stringify({ push: { allow_loopback_http: true, subject: 'mailto:ops@example.org' } }));
      let daemon = await startDaemon(d);
      const keyFile = path.join(d.stateDir, 'push-vapid.json');
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const { public_key: publicKey } = await daemon.client.call('getPushKey');
      expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);

      // The key pair outlives a restart: browsers' subscriptions are bound to it.
      daemon.child.kill('SIGTERM');
      await daemon.exited;
      daemon = await startDaemon(d);
      expect((await daemon.client.call('getPushKey')).public_key).toBe(publicKey);
      const client = daemon.client;

      const refused = await client.call('subscribePush', { body: { endpoint: 'http://192.0.2.1/push/x', keys: { p256dh: makeBrowserKeys().p256dh, auth: 'A'.repeat(22) } } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ClientError);
      expect((refused as ClientError).code).toBe('PUSH_ENDPOINT_REFUSED');

      const phone = makeBrowserKeys();
      const gone = makeBrowserKeys();
      await client.call('subscribePush', { body: { endpoint: `${service.url}/push/phone`, expirationTime: null, keys: { p256dh: phone.p256dh, auth: phone.auth } } });
      await client.call('subscribePush', { body: { endpoint: `${service.url}/push/gone`, keys: { p256dh: gone.p256dh, auth: gone.auth } } });
      expect((await client.call('listPushSubscriptions')).subscriptions.map((s) => s.endpoint_origin)).toEqual([service.url, service.url]);
      service.script.set('/push/phone', [503]); // the first push fails once, then succeeds
      service.script.set('/push/gone', [410]);

      const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: d.work, name: 'pusher', args: ['--speed', '0.2', '--no-trust-prompt'] } });
      const messagesTo = (p: string, keys: typeof phone) => service.requests.filter((r) => r.path === p).map((r) => ({ r, message: PushMessage.parse(JSON.parse(decryptPushMessage(r.body, keys))) }));
      await client.call('sendMessage', { params: { id: created.id }, body: { text: 'run the tests', wait: 'started', timeout_ms: 45_000 } });
      await expect.poll(() => messagesTo('/push/phone', phone).filter((m) => m.message.type === 'approval.needed').length, { timeout: 45_000, interval: 100 }).toBe(2)
        .catch((error: Error) => { throw new Error(`${error.message}; requests ${service.requests.map((r) => r.path).join(',')}; daemon: ${daemon.stderr()}`); });

      const [first, retry] = messagesTo('/push/phone', phone);
      expect(retry!.r.at - first!.r.at).toBeGreaterThanOrEqual(400); // backoff: 1 s × (0.5…1)
      expect(retry!.r.body.equals(first!.r.body)).toBe(true);
      expect(first!.message).toEqual({ type: 'approval.needed', session_id: created.id, title: 'pusher: approval needed', body: expect.stringMatching(/^Bash command\n1 Yes · 2 /), url: `/sessions/${created.id}`, at: expect.any(Number) });
      expect(first!.r.headers).toMatchObject({ 'content-encoding': 'aes128gcm', 'content-type': 'application/octet-stream', ttl: '86400', urgency: 'high' });
      expect(first!.r.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const { claims, k } = verifyVapid(first!.r.headers.authorization);
      expect(k).toBe(publicKey);
      expect(claims.aud).toBe(service.url);
      expect(claims.sub).toBe('mailto:ops@example.org');
      expect(claims.exp * 1000).toBeGreaterThan(Date.now());
      expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);

      // The 410 removed the second subscription: later events reach only the phone.
      await expect.poll(async () => (await client.call('listPushSubscriptions')).subscriptions.length, { timeout: 10_000 }).toBe(1);
      const approval = (await client.call('listApprovals')).approvals[0]!;
      await client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
      await expect.poll(() => messagesTo('/push/phone', phone).some((m) => m.message.type === 'turn.finished'), { timeout: 45_000, interval: 100 }).toBe(true);
      await client.call('killSession', { params: { id: created.id } });
      await expect.poll(() => messagesTo('/push/phone', phone).some((m) => m.message.type === 'session.exited'), { timeout: 20_000, interval: 100 }).toBe(true);
      const finished = messagesTo('/push/phone', phone).find((m) => m.message.type === 'turn.finished')!;
      expect(finished.message.title).toBe('pusher: turn finished');
      expect(finished.r.headers.urgency).toBe('normal');
      expect(service.requests.filter((r) => r.path === '/push/gone')).toHaveLength(1);
      expect(daemon.stderr()).not.toContain('/push/phone'); // endpoints are capabilities: never logged
    } finally {
      await service.close();
    }
  }, 180_000);
});
