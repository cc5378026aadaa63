/**
 * Issue 27's overview, recordings and devices items, as a new user meets them, in Chromium
 * against the real daemon with real demo-agent sessions, at a 1440×900 desktop and a 390×844
 * phone: cards side by side on a desktop with their Kill/Remove inside the card; a kill that
 * asks first and then says who killed the session (in the API, the overview and the audit log);
 * recordings named by their session and time, linked to it, downloadable as `.cast`, and played
 * from their first frame at 0 s; a Devices page that pairs a device (a one-time link, its QR code
 * drawn as `specterm pair` draws it, or why there is none), lists devices and revokes one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { qrModules } from '../../src/server/pairing-qr.js';
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

describe('item 4: the Devices page', () => {
  it('tells an input-scope browser that managing devices needs the admin scope, and how to get it', async () => {
    const page = e.page;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${e.url}/`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Devices' }).click();
    await page.waitForURL(`${e.url}/devices`);
    const notice = page.locator('.devices-view .scope-notice');
    await notice.waitFor({ timeout: E2E_WAIT_MS });
    expect(await notice.textContent()).toMatch(/admin scope.*this browser has "input".*specterm pair/s);
  }, 60_000);

  it('pairs a new device: a one-time link, and for a loopback daemon no QR code but why', async () => {
    const page = e.page;
    await page.goto(await e.pairingUrl('laptop', 'admin'));
    await page.getByRole('heading', { name: 'Sessions' }).waitFor({ timeout: E2E_WAIT_MS });
    await page.goto(`${e.url}/devices`);
    await page.getByLabel('Device name').fill('tablet');
    await page.getByLabel('Scope').selectOption('approve');
    await page.getByRole('button', { name: 'Create pairing link' }).click();
    const link = page.getByLabel('Pairing link');
    await expect.poll(() => link.inputValue(), { timeout: E2E_WAIT_MS }).toMatch(new RegExp(`^${e.url}/#pair=[A-Za-z0-9_-]+$`));
    expect(await page.locator('.pairing-result').textContent()).toMatch(/no QR code for a phone: the daemon listens only on this computer \(127\.0\.0\.1:\d+\), which a phone cannot reach/);
    expect(await page.locator('.pairing-result svg.qr').count()).toBe(0);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await page.getByText(/^no QR code for a phone/).isVisible()).toBe(true);
    }
    await page.setViewportSize(DESKTOP);
    // The link pairs: the code is the one-time credential a second device presents.
    const code = new URL(await link.inputValue()).hash.replace('#pair=', '');
    const paired = await fetch(`${e.url}/api/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json', origin: e.url }, body: JSON.stringify({ code }) });
    expect(paired.status).toBe(201);
    expect((await e.client.call('listTokens')).tokens).toContainEqual(expect.objectContaining({ name: 'tablet', scope: 'approve', revoked_at: null }));
  }, 60_000);

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`draws the QR code of a LAN pairing link module for module as specterm pair does, on a ${size}`, async () => {
      const page = e.page;
      await page.setViewportSize(viewport);
      // The daemon here listens on loopback only: its answer's host is rewritten to a LAN address.
      let lanUrl = '';
      await page.route('**/api/v1/pairings', async (route) => {
        const answer = await (await route.fetch()).json() as { url: string };
        lanUrl = answer.url.replace(/^http:\/\/127\.0\.0\.1:/, 'http://192.168.1.20:');
        await route.fulfill({ status: 201, contentType: 'application/json', body: JSON.stringify({ ...answer, url: lanUrl }) });
      });
      try {
        await page.goto(`${e.url}/devices`);
        await page.getByLabel('Device name').fill('phone');
        await page.getByRole('button', { name: 'Create pairing link' }).click();
        const svg = page.locator('.pairing-result svg.qr');
        await svg.waitFor({ timeout: E2E_WAIT_MS });
        const drawn = await svg.evaluate((el) => ({
          size: Number(el.getAttribute('viewBox')!.split(' ')[2]),
          dark: [...el.querySelector('path')!.getAttribute('d')!.matchAll(/M(\d+) (\d+)/g)].map((m) => `${m[1]},${m[2]}`),
          box: el.getBoundingClientRect().toJSON() as DOMRect,
        }));
        const expected = qrModules(lanUrl);
        const dark: string[] = [];
        for (let y = 0; y < expected.size; y += 1) for (let x = 0; x < expected.size; x += 1) if (expected.dark(x, y)) dark.push(`${x},${y}`);
        expect(drawn.size).toBe(expected.size);
        expect(drawn.dark.sort()).toEqual(dark.sort());
        expect(drawn.box.right).toBeLessThanOrEqual(viewport.width);
        expect(drawn.box.width).toBeGreaterThanOrEqual(160);
      } finally {
        await page.unroute('**/api/v1/pairings');
      }
    }, 60_000);
  }

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`lists the devices and revokes one after a confirmation, on a ${size}`, async () => {
      const page = e.page;
      const name = `gone-${size}`;
      const created = await e.client.call('createToken', { body: { name, scope: 'read' } });
      await page.setViewportSize(viewport);
      await page.goto(`${e.url}/devices`);
      const row = page.locator(`.devices tr[data-token-id="${created.record.id}"]`);
      await row.waitFor({ timeout: E2E_WAIT_MS });
      expect(await row.textContent()).toContain('read');
      expect(await page.locator('.devices tr', { hasText: 'laptop' }).textContent()).toContain('this browser');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await axeViolations(page)).toEqual([]);
      await row.getByRole('button', { name: `Revoke ${name}` }).click();
      expect((await e.client.call('listTokens')).tokens.find((t) => t.id === created.record.id)?.revoked_at).toBeNull();
      await row.getByRole('button', { name: `Confirm revoking ${name}` }).click();
      await expect.poll(() => row.textContent(), { timeout: E2E_WAIT_MS }).toContain('revoked');
      expect((await e.client.call('listTokens')).tokens.find((t) => t.id === created.record.id)?.revoked_at).toEqual(expect.any(Number));
    }, 60_000);
  }
});
