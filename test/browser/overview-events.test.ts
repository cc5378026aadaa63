/**
 * The overview kept by the `sessions` events against the real daemon (issue 27 item 2's CPU
 * target): a session going busy → idle changes its card with no `GET /sessions` at all (the event
 * carries the state, the modal and when it moved); a session created, killed or removed is read
 * again (the reload path); and after a burst of all of them the page's list is what a fresh
 * `GET /sessions` answers (less `controls`, which the overview does not keep: the session page
 * reads its own).
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SessionDetail } from '../../src/protocol/index.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

let e: DashboardE2e;
/** Every `GET /api/v1/sessions` the page made, from the start. */
const listReads: number[] = [];

beforeAll(async () => {
  e = await startDashboardE2e({ viewport: { width: 1440, height: 900 } });
  e.page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/v1/sessions') listReads.push(Date.now());
  });
}, 120_000);
afterAll(async () => { await e?.close(); }, 60_000);

const card = (page: Page, id: string, badge?: string) =>
  page.locator(`li.session[data-session-id="${id}"]${badge ? `[data-badge="${badge}"]` : ''}`);

/** Waits until the page has made no list read for `quietMs` (a reload a creation asked for has landed). */
async function settle(quietMs = 1500): Promise<void> {
  await waitFor(async () => {
    const last = listReads.at(-1) ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return Date.now() - last >= quietMs;
  }, E2E_WAIT_MS, 'the page to stop reading the session list');
}

/** Records every badge the card of session `id` shows from now on (a MutationObserver in the page). */
async function watchBadges(page: Page, id: string): Promise<() => Promise<string[]>> {
  await page.evaluate((sessionId) => {
    const seen: string[] = [];
    const read = () => {
      const badge = document.querySelector(`li.session[data-session-id="${sessionId}"]`)?.getAttribute('data-badge');
      if (badge && seen.at(-1) !== badge) seen.push(badge);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-badge'] });
    (globalThis as { badgesSeen?: string[] }).badgesSeen = seen;
  }, id);
  return () => page.evaluate(() => [...((globalThis as { badgesSeen?: string[] }).badgesSeen ?? [])]);
}

/** The list as the page keeps it (the app's test hook), and as the daemon answers it now, both without `controls`. */
async function pageList(page: Page): Promise<unknown> {
  return page.evaluate(() => (globalThis as { specterm?: { sessions?: { value: unknown } } }).specterm?.sessions?.value ?? 'no test hook');
}
async function daemonList(): Promise<unknown> {
  const { sessions } = await e.client.call('listSessions');
  return sessions.map(({ controls: _controls, ...rest }) => rest);
}

describe('the overview kept by events', () => {
  let steady: SessionDetail;

  it('follows a session busy → idle on its card without reading the list again', async () => {
    steady = await e.createIdleSession({ name: 'steady' });
    await card(e.page, steady.id, 'idle').waitFor({ timeout: E2E_WAIT_MS });
    await settle();
    const readsBefore = listReads.length;
    const badges = await watchBadges(e.page, steady.id);
    await e.client.call('sendMessage', { params: { id: steady.id }, body: { text: 'give me a long answer', wait: 'started' } });
    await card(e.page, steady.id, 'generating').waitFor({ timeout: E2E_WAIT_MS });
    await e.waitForState(steady.id, 'idle', 120_000);
    await card(e.page, steady.id, 'idle').waitFor({ timeout: E2E_WAIT_MS });
    expect(await badges()).toEqual(['idle', 'generating', 'idle']);
    await expect.poll(() => e.page.locator(`li.session[data-session-id="${steady.id}"] .time-in-state`).textContent(), { timeout: E2E_WAIT_MS })
      .toMatch(/^\d+ s in Idle$/);
    expect(listReads.length - readsBefore).toBe(0);
  }, 180_000);

  it('shows a session created over the API (read again: the event cannot say all of it)', async () => {
    await settle();
    const readsBefore = listReads.length;
    const added = await e.client.call('createSession', { body: { spec: 'demo-agent', cwd: e.dirs.work, name: 'added' } });
    await card(e.page, added.id, 'idle').waitFor({ timeout: E2E_WAIT_MS });
    expect(await e.page.locator(`li.session[data-session-id="${added.id}"] .session-name`).textContent()).toBe('added');
    expect(listReads.length - readsBefore).toBeGreaterThan(0);
  }, 120_000);

  it('after a burst of turns, a prompt, a kill, a removal and a creation, equals a fresh GET /sessions', async () => {
    const more = await Promise.all(['burst-a', 'burst-b', 'burst-c'].map((name) => e.createIdleSession({ name })));
    const [a, b, c] = more as [SessionDetail, SessionDetail, SessionDetail];
    await Promise.all([
      e.client.call('sendMessage', { params: { id: steady.id }, body: { text: 'hello there', wait: 'started' } }),
      e.client.call('sendMessage', { params: { id: a.id }, body: { text: 'run the tests', wait: 'started' } }),
      e.client.call('sendMessage', { params: { id: b.id }, body: { text: 'give me a long answer', wait: 'started' } }),
    ]);
    const approval = await waitFor(async () => (await e.client.call('listApprovals')).approvals.find((x) => x.session_id === a.id), E2E_WAIT_MS, 'the approval');
    await card(e.page, a.id, 'approval').waitFor({ timeout: E2E_WAIT_MS });
    await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
    await e.client.call('killSession', { params: { id: b.id } });
    await e.client.call('removeSession', { params: { id: c.id }, query: {} });
    await e.client.call('createSession', { body: { spec: 'demo-agent', cwd: e.dirs.work, name: 'late' } });
    await e.waitForState(steady.id, 'idle', 120_000);
    await e.waitForState(a.id, 'idle', 120_000);
    await waitFor(async () => (await e.client.call('getSession', { params: { id: b.id } })).lifecycle === 'exited', E2E_WAIT_MS, 'the kill');
    await waitFor(async () => (await e.client.call('listSessions')).sessions.every((s) => s.lifecycle !== 'running' || s.state?.id === 'idle'), E2E_WAIT_MS, 'every agent idle');
    await expect.poll(async () => isDeepStrictEqual(await pageList(e.page), await daemonList()), { timeout: E2E_WAIT_MS }).toBe(true);
    // The same lists, said plainly when they differ.
    expect(await pageList(e.page)).toEqual(await daemonList());
  }, 300_000);
});
