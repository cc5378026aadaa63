/**
 * The session view end to end against the real daemon: input passthrough only behind its
 * toggle, the controller lease for size between two viewers (the holder sizes the child, the
 * other fits the picture to its own screen), the state history tab on its own route, and a
 * late answer about the session shown before staying out of the one navigated to.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { launchChromium } from './chromium.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

let e: DashboardE2e;
let session: SessionDetail;

beforeAll(async () => {
  e = await startDashboardE2e();
  session = await e.createIdleSession({ name: 'viewed' });
}, 150_000);
afterAll(async () => { await e?.close(); }, 60_000);

async function openSession(page: Page): Promise<void> {
  // The terminal tab by name: a phone-sized viewer would open the transcript.
  await page.goto(`${e.url}/sessions/${session.id}/terminal`);
  await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
}

const screenText = async () => (await e.client.call('getScreen', { params: { id: session.id } })).content;
const termOf = (page: Page) => page.evaluate((id) => {
  const { term } = (globalThis as any).specterm.terminals.get(id);
  const host = document.querySelector(`[data-terminal-for="${id}"]`) as HTMLElement;
  const screen = host.querySelector('.xterm-screen') as HTMLElement;
  return { cols: term.cols as number, rows: term.rows as number, fontSize: term.options.fontSize as number, screenWidth: screen.offsetWidth, hostWidth: host.clientWidth };
}, session.id);

describe('the session view against a real daemon', () => {
  it('sends keystrokes typed into the terminal only while the input toggle is on', async () => {
    const page = e.page;
    await openSession(page);
    await page.locator(`[data-terminal-for="${session.id}"]`).click();
    await page.keyboard.type('zq');
    await page.getByLabel(/Type into the terminal/).check();
    await page.locator(`[data-terminal-for="${session.id}"]`).click();
    await page.keyboard.type('xkcd');
    // Keystrokes arrive in order: once "xkcd" is on screen, "zq" would have been before it.
    const text = await waitFor(async () => { const t = await screenText(); return t.includes('xkcd') && t; }, E2E_WAIT_MS, 'the typed text on the daemon\'s screen');
    expect(text).not.toContain('zq');
    await page.getByLabel(/Type into the terminal/).uncheck();
    await e.client.call('sendKeys', { params: { id: session.id }, body: { data: '\u0015' } }); // Ctrl+U clears the input line
  }, 90_000);

  it('gives the size to the lease holder; the other viewer sees "other" and fits the picture to its own width', async () => {
    const holder = e.page;
    const watcher = await e.browser.context.newPage();
    try {
      await watcher.setViewportSize({ width: 390, height: 844 });
      await openSession(holder);
      await openSession(watcher);
      await holder.getByRole('button', { name: 'Take size control' }).click();
      await holder.locator('.lease[data-lease="you"]').waitFor({ timeout: E2E_WAIT_MS });
      await watcher.locator('.lease[data-lease="other"]').waitFor({ timeout: E2E_WAIT_MS });
      expect(await watcher.getByRole('button', { name: 'Take size control' }).isDisabled()).toBe(true);
      // The holder fitted the child to its own screen (not the 120 columns it was created with)…
      const sized = await waitFor(async () => { const t = await termOf(holder); return t.cols !== session.cols && t; }, E2E_WAIT_MS, 'the holder to resize the child');
      // …and every viewer got the new size from the daemon, the watcher scaled to fit 390 px.
      await waitFor(async () => (await termOf(watcher)).cols === sized.cols, E2E_WAIT_MS, 'the watcher to get the new size');
      const watched = await termOf(watcher);
      expect(watched.rows).toBe(sized.rows);
      expect(watched.fontSize).toBeLessThan(sized.fontSize);
      expect(await watcher.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await holder.getByRole('button', { name: 'Release size' }).click();
      await watcher.locator('.lease[data-lease="none"]').waitFor({ timeout: E2E_WAIT_MS });
    } finally {
      await watcher.close();
    }
  }, 90_000);

  it('opens a deep link to a session that was opened signed out once the code typed in pairs', async () => {
    // The page preloads a deep-linked session's detail before it knows it is signed in: the 401
    // it got then must not be what the view shows after signing in.
    const fresh = await launchChromium();
    try {
      const page = await fresh.context.newPage();
      // Any problem the page shows, even for one frame (a later event reloads the view).
      await page.addInitScript(() => {
        const seen: string[] = ((globalThis as any).__problems = []);
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('.problem')) if (!seen.includes(el.textContent ?? '')) seen.push(el.textContent ?? '');
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      await page.goto(`${e.url}/sessions/${session.id}`);
      await page.getByLabel('Pairing code').waitFor({ timeout: E2E_WAIT_MS });
      const url = new URL(await e.pairingUrl('deep-link', 'read'));
      await page.getByLabel('Pairing code').fill(new URLSearchParams(url.hash.slice(1)).get('pair')!);
      await page.getByRole('button', { name: 'Pair' }).click();
      await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
      expect(await page.locator('#session-title').textContent()).toBe('viewed');
      expect(await page.evaluate(() => (globalThis as any).__problems)).toEqual([]);
    } finally {
      await fresh.close();
    }
  }, 90_000);

  it('shows the state history on its own tab route, as the daemon lists it', async () => {
    const page = e.page;
    await openSession(page);
    await page.getByRole('navigation', { name: 'Session views' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL(`${e.url}/sessions/${session.id}/history`);
    const listed = await e.client.call('getHistory', { params: { id: session.id }, query: { limit: 50 } });
    expect(listed.entries.length).toBeGreaterThan(0);
    await page.locator('.history tbody tr').nth(listed.entries.length - 1).waitFor({ timeout: E2E_WAIT_MS });
    expect(await page.locator('.history tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq')))))
      .toEqual(listed.entries.map((x) => x.seq));
    expect(await page.locator('.history tbody tr td:nth-child(2)').allTextContents()).toEqual(listed.entries.map((x) => x.state.label));
  }, 60_000);

  it('keeps showing the session navigated to when the previous one\'s read lands after it', async () => {
    // A page that moves on before its read of the session it showed comes back: that late answer
    // must not put the old session's header over the new one's (the view is not remounted).
    const other = await e.createIdleSession({ name: 'navigated-to' });
    const page = await e.browser.context.newPage();
    try {
      await page.goto(e.url);
      await page.getByRole('heading', { name: 'Sessions' }).waitFor({ timeout: E2E_WAIT_MS });
      const detailPath = `/api/v1/sessions/${session.id}`;
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let asked!: () => void;
      const wasAsked = new Promise<void>((resolve) => { asked = resolve; });
      await page.route((url) => url.pathname === detailPath, async (route) => { asked(); await held; await route.continue(); });
      const go = (path: string) => page.evaluate((to) => { history.pushState(null, '', to); dispatchEvent(new PopStateEvent('popstate')); }, path);
      await go(`/sessions/${session.id}/history`);
      await wasAsked;
      await go(`/sessions/${other.id}/history`);
      await page.locator(`.session-view[data-session-id="${other.id}"] h2`, { hasText: 'navigated-to' }).waitFor({ timeout: E2E_WAIT_MS });
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === detailPath, { timeout: E2E_WAIT_MS });
      release();
      await (await answered).finished();
      // The late answer's handler runs right after its body is read; a second is ample for it.
      await page.waitForTimeout(1_000);
      expect(await page.locator('.session-view').getAttribute('data-session-id')).toBe(other.id);
      expect(await page.locator('#session-title').textContent()).toBe('navigated-to');
    } finally {
      await page.close();
    }
  }, 90_000);
});
