/**
 * The dashboard's service worker and PWA manifest in Chromium, against a real server serving
 * the built dist/dashboard: /sw.js registers at the root scope; a push message dispatched to it
 * (DevTools `ServiceWorker.deliverPushMessage`: Chromium's own push service needs FCM, which is
 * not reachable here) shows a notification with the session's title, body and URL when no
 * dashboard window is visible, and none while one is (the page says it itself); the
 * manifest is linked and names an icon that is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/protocol/index.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';

let t: TestServer;
let browser: LaunchedChromium;

beforeAll(async () => {
  t = await startTestServer({ handlers: { listSessions: () => ({ sessions: [] }) } });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.server.close();
});

describe('the service worker and the manifest', () => {
  it('registers /sw.js at the root; a push shows the notification that opens its session, unless a dashboard is visible', async () => {
    await browser.context.grantPermissions(['notifications'], { origin: t.url });
    const page = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(page);
    const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await page.goto(`${t.url}/`);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${t.url}/`);
    await expect.poll(() => registrations.some((r) => r.scopeURL === `${t.url}/`)).toBe(true);
    const registrationId = registrations.find((r) => r.scopeURL === `${t.url}/`)!.registrationId;

    const message: PushMessage = { type: 'approval.needed', session_id: 's_1', title: 'builder: approval needed', body: 'Bash command\n1 Yes · 2 No', url: '/sessions/s_1', at: 1 };
    const shown = async () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
      .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url, sticky: n.requireInteraction })));
    // A visible dashboard already shows the event (a toast): the push is not shown a second time.
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: t.url, registrationId, data: JSON.stringify({ ...message, body: 'while visible' }) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await shown()).toEqual([]);

    // No dashboard window: the push is shown (read back once the page is on the origin again).
    await page.goto('about:blank');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: t.url, registrationId, data: JSON.stringify(message) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await page.goto(`${t.url}/`);
    await expect.poll(shown, { timeout: 10_000 }).toEqual([{ title: 'builder: approval needed', body: 'Bash command\n1 Yes · 2 No', tag: 'approval.needed:s_1', url: '/sessions/s_1', sticky: true }]);

    // A second message of the same kind for the same session replaces the first (same tag).
    await page.goto('about:blank');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: t.url, registrationId, data: JSON.stringify({ ...message, body: 'Edit file\n1 Yes · 2 No' }) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await page.goto(`${t.url}/`);
    await expect.poll(async () => (await shown()).map((n) => n.body), { timeout: 10_000 }).toEqual(['Edit file\n1 Yes · 2 No']);
  });

  it('links a manifest a phone can install from: standalone, root scope, a served icon', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${t.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const response = await page.request.get(new URL(href!, t.url).href);
    expect(response.headers()['content-type']).toBe('application/manifest+json');
    const manifest = await response.json() as { start_url: string; scope: string; display: string; icons: Array<{ src: string; type: string; sizes: string; purpose: string }> };
    expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
    const icon = await page.request.get(new URL(manifest.icons[0]!.src, t.url).href);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toBe(manifest.icons[0]!.type);

    // Android and iOS want PNGs: 192 and 512, a maskable one, and the 180×180 apple-touch-icon.
    const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const pngs = [...manifest.icons.filter((i) => i.type === 'image/png'), { src: touch!, type: 'image/png', sizes: '180x180', purpose: 'any' }];
    expect(pngs.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['180x180 any', '192x192 any', '512x512 any', '512x512 maskable']);
    for (const png of pngs) {
      const served = await page.request.get(new URL(png.src, t.url).href);
      expect(served.headers()['content-type']).toBe('image/png');
      const bytes = await served.body();
      expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a'); // the PNG signature
      expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(png.sizes);
    }
  });
});
