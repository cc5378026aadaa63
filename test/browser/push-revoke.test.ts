/**
 * A revoked device stops getting pushes: its push subscriptions follow its token. Against the
 * real daemon (`specterm serve` over dist/) and a push service on loopback: three devices
 * subscribe with their own tokens; one is revoked by the admin API, one signs out; their rows
 * are gone at once and the next approval is pushed only to the device still signed in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonClient } from '../../src/client/index.js';
import { makeDirs, startDaemon, stopAll } from '../daemon/daemon-harness.js';
import { makeBrowserKeys, startPushService } from './push-service-fixture.js';

afterEach(stopAll);

describe('revoking a device drops its push subscriptions', () => {
  it('by the admin API and by sign-out: the rows go and no push reaches their endpoints', async () => {
    const service = await startPushService();
    try {
      const d = makeDirs();
      fs.writeFileSync(path.join(d.stateDir, 'settings.json'), JSON.stringify({ push: { allow_loopback_http: true } }));
      const daemon = await startDaemon(d);
      const admin = daemon.client;
      const device = async (name: string) => {
        const { token, record } = await admin.call('createToken', { body: { name, scope: 'read' } });
        const client = new DaemonClient(daemon.url, token);
        const keys = makeBrowserKeys();
        await client.call('subscribePush', { body: { endpoint: `${service.url}/push/${name}`, keys: { p256dh: keys.p256dh, auth: keys.auth } } });
        return { client, id: record.id };
      };
      const phone = await device('phone');
      const laptop = await device('laptop');
      await device('desk');
      const tablet = await device('tablet');
      service.script.set('/push/tablet', [503, 503, 503, 503]); // retried with backoff…
      expect((await admin.call('listPushSubscriptions')).subscriptions.map((s) => s.device)).toEqual(['phone', 'laptop', 'desk', 'tablet']);

      await admin.call('revokeToken', { params: { id: phone.id } });
      expect(await laptop.client.call('signOut')).toEqual({ revoked: true });
      expect((await admin.call('listPushSubscriptions')).subscriptions.map((s) => s.device)).toEqual(['desk', 'tablet']);

      const created = await admin.call('createSession', { body: { spec: 'demo-agent', cwd: d.work, name: 'revoker', args: ['--speed', '0.2', '--no-trust-prompt'] } });
      await admin.call('sendMessage', { params: { id: created.id }, body: { text: 'run the tests', wait: 'started', timeout_ms: 45_000 } });
      await expect.poll(() => service.requests.some((r) => r.path === '/push/desk'), { timeout: 45_000, interval: 100 }).toBe(true);
      await expect.poll(() => service.requests.some((r) => r.path === '/push/tablet'), { timeout: 10_000, interval: 20 }).toBe(true);
      // …and revoked while it waits for the retry: the retry is not sent.
      await admin.call('revokeToken', { params: { id: tablet.id } });
      // The first retry is due 0.5–1 s after the 503; give any stray push time to land.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(service.requests.map((r) => r.path).filter((p) => p !== '/push/desk')).toEqual(['/push/tablet']);
      expect((await admin.call('listPushSubscriptions')).subscriptions.map((s) => s.device)).toEqual(['desk']);
    } finally {
      await service.close();
    }
  }, 120_000);
});
