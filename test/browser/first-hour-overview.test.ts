/**
 * Issue 27's overview, recordings and devices items, as a new user meets them, in Chromium
 * against the real daemon with real demo-agent sessions, at a 1440×900 desktop and a 390×844
 * phone: cards side by side on a desktop with their Kill/Remove inside the card; a kill that
 * asks first and then says who killed the session (in the API, the overview and the audit log);
 * recordings named by their session and time, linked to it, downloadable as `.cast`, and played
 * from their first frame at 0 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { openStore } from '../../src/store/index.js';
import { axeViolations } from './axe.js';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let e: DashboardE2e;
let one: SessionDetail;
let two: SessionDetail;
let rec: SessionDetail;

beforeAll(async () => {
  e = await startDashboardE2e({ viewport: DESKTOP });
  one = await e.createIdleSession({ name: 'card-one' });
  two = await e.createIdleSession({ name: 'card-two' });
  rec = await e.createIdleSession({ name: 'rec-three' });
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

describe('item 11: recordings', () => {
  let name: string;
  let firstLine: string;

  beforeAll(async () => {
    firstLine = (await e.client.call('getScreen', { params: { id: rec.id } })).content.split('\n').map((l) => l.trim()).find((l) => l.length > 3)!;
    await e.client.call('startRecording', { params: { id: rec.id }, body: {} });
    await e.client.call('sendMessage', { params: { id: rec.id }, body: { text: 'hello there', wait: 'idle', timeout_ms: 45_000 } });
    name = (await e.client.call('stopRecording', { params: { id: rec.id } })).name;
  }, 90_000);

  it('names a recording by its session and local time, and keeps its session', async () => {
    expect(name).toMatch(/^rec-three-\d{4}-\d{2}-\d{2}-\d{4}(\d{2})?$/);
    const info = (await e.client.call('listRecordings')).recordings.find((r) => r.name === name);
    expect(info).toMatchObject({ session_id: rec.id, session_name: 'rec-three' });
  });

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`lists it readably on a ${size}, with a link to its session and a .cast download`, async () => {
      const page = e.page;
      await page.setViewportSize(viewport);
      await page.goto(`${e.url}/recordings`);
      const item = page.locator(`.recordings li[data-recording="${name}"]`);
      await item.waitFor({ timeout: E2E_WAIT_MS });
      expect(await item.locator('a.recording-title').textContent()).toMatch(/^rec-three · /);
      expect(await item.locator('a.recording-title').textContent()).not.toContain(rec.id);
      expect(await item.getByRole('link', { name: 'Session rec-three' }).getAttribute('href')).toBe(`/sessions/${rec.id}`);
      const button = item.getByRole('button', { name: `Download .cast of ${name}` });
      expect(await axeViolations(page)).toEqual([]);
      const right = await button.evaluate((b) => b.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(viewport.width);
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toBe(`${name}.cast`);
      const file = await download.path();
      const header = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!) as { version: number };
      expect(header.version).toBe(2);
      expect(fs.readFileSync(file, 'utf8')).toContain('hello there');
    }, 60_000);
  }

  it('plays from the first frame at 0 s', async () => {
    const page = e.page;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${e.url}/recordings/${name}`);
    const atZero = page.locator('.explain[data-explained-at="0"]');
    await atZero.waitFor({ timeout: E2E_WAIT_MS });
    expect(await atZero.locator('.screen-overlay').textContent()).toContain(firstLine);
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toMatch(/^Recording rec-three · /);
  }, 60_000);
});
