/**
 * The push service's choice of what wakes a phone, against a push service on loopback: a
 * notification event is pushed with its session's name and reference, a muted one is not, and
 * with `staleAfterMs` (a hub catching up on what it missed) an event older than that is not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PushMessage } from '../protocol/index.js';
import { openStore } from '../store/index.js';
import { decryptPushMessage, makeBrowserKeys, startPushService as startReceiver } from '../../test/browser/push-service-fixture.js';
import { EventLog } from './event-log.js';
import { startPushService } from './push-service.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(options: { staleAfterMs?: number; now: () => number }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-push-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const store = openStore(path.join(dir, 'specterm.db'));
  cleanups.push(() => store.close());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const phone = makeBrowserKeys();
  store.pushSubscriptions.upsert({ endpoint: `${receiver.url}/push/phone`, keys: { p256dh: phone.p256dh, auth: phone.auth }, tokenId: 't_1', device: 'phone', at: 1 });
  const events = new EventLog({ node: 'build-01' });
  const push = startPushService({
    stateDir: dir, events, subscriptions: store.pushSubscriptions, settings: { allow_loopback_http: true },
    sessionName: (e) => `api-fix on ${e.node}`, sessionRef: (e) => `${e.node}_${e.session_id}`,
    staleAfterMs: options.staleAfterMs, now: options.now, log: () => {},
  });
  cleanups.push(() => push.close());
  const pushed = () => receiver.requests.map((r) => PushMessage.parse(JSON.parse(decryptPushMessage(r.body, phone))));
  return { events, pushed };
}

const finished = (at: number, muted?: true) => ({
  type: 'turn.finished' as const, session_id: 's_1', at, duration_ms: 4_000, ...(muted ? { muted } : {}),
  state: { id: 'idle', label: 'Idle', title: null, status: 'idle' as const },
});

describe('the push service', () => {
  it('pushes a notification event by the session\'s name and reference; a muted one wakes nobody', async () => {
    const now = 1_800_000_000_000;
    const { events, pushed } = await setUp({ now: () => now });
    events.append(finished(now, true) as never);
    events.append(finished(now) as never);
    await expect.poll(pushed, { timeout: 10_000 }).toHaveLength(1);
    expect(pushed()[0]).toMatchObject({ type: 'turn.finished', title: 'api-fix on build-01: turn finished', session_id: 'build-01_s_1', url: '/sessions/build-01_s_1' });
  });

  it('with staleAfterMs, does not push an event older than that when it arrives', async () => {
    const now = 1_800_000_000_000;
    const { events, pushed } = await setUp({ staleAfterMs: 600_000, now: () => now });
    events.append(finished(now - 600_001) as never);
    events.append(finished(now - 599_000) as never);
    events.append(finished(now) as never);
    await expect.poll(() => pushed().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything else would have come by now
    expect(pushed().map((m) => m.at).sort()).toEqual([now - 599_000, now]);
  });
});
