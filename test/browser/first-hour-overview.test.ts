/**
 * Issue 27's overview, recordings and devices items, as a new user meets them, in Chromium
 * against the real daemon with real demo-agent sessions, at a 1440×900 desktop and a 390×844
 * phone: cards side by side on a desktop with their Kill/Remove inside the card; a kill that
 * asks first and then says who killed the session (in the API, the overview and the audit log).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { openStore } from '../../src/store/index.js';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let e: DashboardE2e;
let one: SessionDetail;
let two: SessionDetail;

beforeAll(async () => {
  e = await startDashboardE2e({ viewport: DESKTOP });
  one = await e.createIdleSession({ name: 'card-one' });
  two = await e.createIdleSession({ name: 'card-two' });
}, 150_000);
afterAll(async () => { await e?.close(); }, 60_000);

async function openOverview(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.goto(`${e.url}/`);
  await page.locator(`li.session[data-session-id="${two.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
}

/** The nearest ancestor of the element (itself excluded) drawn as a box (a top and a left border): the card it sits in. */
async function borderedAncestor(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).first().evaluate((el) => {
    for (let at = el.parentElement; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (['Top', 'Left'].every((side) => style.getPropertyValue(`border-${side.toLowerCase()}-style`) !== 'none' && parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0)) return at.tagName.toLowerCase() + (at.className ? `.${at.className.split(' ').join('.')}` : '');
    }
    return null;
  });
}

const tops = (page: Page) => page.locator('li.session').evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));

describe('item 7: the overview', () => {
  it('lays the cards side by side on a desktop, one per row on a phone', async () => {
    const page = e.page;
    await openOverview(page, DESKTOP);
    const desktop = await tops(page);
    expect(new Set(desktop).size).toBeLessThan(desktop.length);
    await openOverview(page, PHONE);
    const phone = await tops(page);
    expect(new Set(phone).size).toBe(phone.length);
    const widest = await page.locator('li.session').evaluateAll((items) => Math.max(...items.map((li) => li.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(PHONE.width);
  }, 60_000);

  for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`puts Kill and Remove inside the card on a ${name}`, async () => {
      const page = e.page;
      await openOverview(page, size);
      const card = `li.session[data-session-id="${one.id}"]`;
      expect(await borderedAncestor(page, `${card} button[aria-label="Kill card-one"]`)).toMatch(/^li\.session/);
      expect(await borderedAncestor(page, `${card} button[aria-label="Remove card-one"]`)).toMatch(/^li\.session/);
    }, 60_000);
  }

  it('asks before killing, then says who killed the session, in the API, the card and the audit log', async () => {
    const page = e.page;
    await openOverview(page, DESKTOP);
    const row = page.locator(`li.session[data-session-id="${one.id}"]`);
    await row.getByRole('button', { name: 'Kill card-one' }).click();
    // Not before the confirmation.
    expect((await e.client.call('getSession', { params: { id: one.id } })).lifecycle).toBe('running');
    const before = Date.now();
    await row.getByRole('button', { name: 'Confirm killing card-one' }).click();
    await page.locator(`li.session[data-session-id="${one.id}"][data-badge="exited"]`).waitFor({ timeout: E2E_WAIT_MS });
    const killed = await e.client.call('getSession', { params: { id: one.id } });
    expect(killed.exit?.killed_by).toEqual({ name: 'browser', token_id: expect.any(String), at: expect.any(Number) });
    expect(killed.exit!.killed_by!.at).toBeGreaterThanOrEqual(before - 1000);
    await expect.poll(() => row.locator('.exit-reason').textContent(), { timeout: E2E_WAIT_MS }).toMatch(/^Killed by browser at \d/);
    expect(await row.textContent()).not.toContain('exited on SIG');
    const store = openStore(path.join(e.dirs.stateDir, 'specterm.db'));
    try {
      const kills = store.audit.page({ sessionId: one.id, limit: 100 }).items.filter((a) => a.action === 'killSession');
      expect(kills).toEqual([expect.objectContaining({ who: 'browser', tokenId: killed.exit!.killed_by!.token_id, outcome: 'ok' })]);
    } finally {
      store.close();
    }
  }, 90_000);

  it('says an admin (the CLI\'s token) killed a session killed over the API', async () => {
    const killed = await e.client.call('killSession', { params: { id: two.id } });
    expect(killed.exit?.killed_by).toEqual({ name: 'admin', token_id: 'admin', at: expect.any(Number) });
    expect((await e.client.call('listSessions')).sessions.find((s) => s.id === two.id)?.exit?.killed_by?.name).toBe('admin');
  }, 60_000);
});
