/**
 * The page's own system notifications, end to end (the real daemon, a real demo-agent session,
 * Chromium with the notification permission granted): while the page is visible an approval
 * is only a toast; once the page is hidden (document.visibilityState overridden, as a tab
 * behind another would report) the approval and the turn's end are shown through the service
 * worker's registration with the push's words and tag (`<type>:<session>`, so they replace
 * each other per kind and session) and the session's URL for the click.
 *
 * Headless Chromium closes a notification that does not require interaction about 25 s after it
 * showed (measured): the test counts each one it has seen, not only those still open, so a slow
 * poll on a loaded machine does not miss the turn's end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';
import { nextApproval, recordEvents } from './notify-fixture.js';

let e: DashboardE2e;

beforeAll(async () => {
  e = await startDashboardE2e();
  await e.browser.context.grantPermissions(['notifications'], { origin: e.url });
}, 120_000);
afterAll(async () => { await e?.close(); }, 60_000);

/** The notifications open now. */
const shown = () => e.page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url, sticky: n.requireInteraction })));

describe('system notifications from a hidden page', () => {
  it('none while visible; approval needed and turn finished while hidden, tagged per kind and session', async () => {
    const page = e.page;
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');
    const session = await e.createIdleSession({ name: 'notifier', args: ['--speed', '0.2', '--no-trust-prompt'] });

    const first = await nextApproval(e, session.id);
    await page.locator('.toasts [role="alert"]').first().waitFor({ timeout: E2E_WAIT_MS });
    expect(await shown()).toEqual([]); // visible: the toast says it
    await e.client.call('answerApproval', { params: { id: first.id }, body: { button: 1, fingerprint: first.fingerprint } });
    await e.waitForState(session.id, 'idle');
    // The page had this turn's end while visible (its toast): hidden from here on, it must not notify it.
    await page.locator('.toasts li[data-type="turn.finished"]').waitFor({ state: 'attached', timeout: E2E_WAIT_MS });

    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const second = await nextApproval(e, session.id);
    await expect.poll(shown, { timeout: E2E_WAIT_MS }).toEqual([
      { title: 'notifier: approval needed', body: expect.stringContaining(second.title!), tag: `approval.needed:${session.id}`, url: `/sessions/${session.id}`, sticky: true },
    ]);
    const events = recordEvents(e, session.id);
    try {
      const answeredAt = Date.now();
      await e.client.call('answerApproval', { params: { id: second.id }, body: { button: 1, fingerprint: second.fingerprint } });
      // The daemon told the turn's end (else the failure is the daemon's, not the page's)...
      await events.next('turn.finished', answeredAt);
    } finally { await events.stop(); }
    // ...and the hidden page showed it, beside the approval it still asks for.
    const seen = new Map<string, Awaited<ReturnType<typeof shown>>[number]>();
    await expect.poll(async () => {
      for (const n of await shown()) seen.set(n.tag, n);
      return [...seen.keys()].sort();
    }, { timeout: E2E_WAIT_MS }).toEqual([`approval.needed:${session.id}`, `turn.finished:${session.id}`].sort());
    const finished = seen.get(`turn.finished:${session.id}`)!;
    expect(finished).toMatchObject({ title: 'notifier: turn finished', body: expect.stringMatching(/^after .+; now /), sticky: false });

    // A newer approval of the same session replaces the older notification (same tag).
    await nextApproval(e, session.id);
    await expect.poll(async () => (await shown()).filter((n) => n.tag.startsWith('approval.needed')).length, { timeout: E2E_WAIT_MS }).toBe(1);
  }, 240_000);
});
