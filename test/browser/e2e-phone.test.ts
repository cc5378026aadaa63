/**
 * A 390×844 phone viewport against the real daemon: the overview, the approvals inbox and the
 * session's terminal (one tap from the transcript a phone opens on; view and send) are usable — nothing scrolls the page sideways, the
 * controls a thumb needs are inside the screen and big enough, and they work.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { axeViolations } from './axe.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

const PHONE = { width: 390, height: 844 };
/** The smallest touch target we accept, in CSS px (WCAG 2.2 AA's 24 px, with room). */
const MIN_TARGET_PX = 32;

let e: DashboardE2e;
let session: SessionDetail;

beforeAll(async () => {
  e = await startDashboardE2e({ viewport: PHONE, hasTouch: true });
  session = await e.createIdleSession({ name: 'pocket', labels: { device: 'phone' } });
}, 150_000);
afterAll(async () => { await e?.close(); }, 60_000);

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(clientWidth).toBe(PHONE.width);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** Inside the screen horizontally and at least MIN_TARGET_PX tall. */
async function expectTappable(target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(box.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
}

describe('on a 390×844 phone', () => {
  it('shows the overview without sideways scroll; a session opens with a tap', async () => {
    const page = e.page;
    const row = page.locator(`li.session[data-session-id="${session.id}"][data-badge="idle"]`);
    await row.waitFor({ timeout: E2E_WAIT_MS });
    await expectNoSidewaysScroll(page);
    await expectTappable(row.locator('a'));
    await expectTappable(row.getByRole('button', { name: 'Kill pocket' }));
    expect(await axeViolations(page)).toEqual([]);
    await row.locator('a').tap();
    await page.locator(`section.session-view[data-session-id="${session.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
  }, 60_000);

  it('shows the terminal fitted to the screen and sends a message from the send box', async () => {
    const page = e.page;
    // A phone opens a session on its transcript; the terminal is one tap away.
    await page.getByRole('navigation', { name: 'Session views' }).getByRole('link', { name: 'Terminal' }).tap();
    await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
    await expectNoSidewaysScroll(page);
    const terminal = page.locator(`[data-terminal-for="${session.id}"]`);
    const box = (await terminal.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(box.height).toBeGreaterThan(100);
    // Without the size lease the child keeps its 120 columns; this viewer scales its font down.
    expect(await page.evaluate((id) => (globalThis as any).specterm.terminals.get(id).term.options.fontSize, session.id)).toBeLessThan(14);
    const send = page.getByRole('button', { name: 'Send' });
    await expectTappable(send);
    await page.getByLabel('Message to the agent').fill('hello there');
    await send.tap();
    await page.locator('li.receipt[data-reached="turn_started"]').waitFor({ timeout: E2E_WAIT_MS });
    await expectNoSidewaysScroll(page);
    expect(await axeViolations(page)).toEqual([]);
    await e.waitForState(session.id, 'idle');
  }, 90_000);

  it('answers an approval from the inbox with a tap', async () => {
    const page = e.page;
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'run the tests', wait: 'started' } });
    const approval = await waitFor(async () => (await e.client.call('listApprovals')).approvals[0], E2E_WAIT_MS, 'the approval');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /Inbox/ }).tap();
    const card = page.locator(`li.approval-card[data-approval-id="${approval.id}"]`);
    await card.waitFor({ timeout: E2E_WAIT_MS });
    await expectNoSidewaysScroll(page);
    for (const b of approval.buttons) await expectTappable(card.locator(`button[data-button-index="${b.index}"]`));
    expect(await axeViolations(page)).toEqual([]);
    await card.locator('button[data-button-index="1"]').tap();
    await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
    await e.waitForState(session.id, 'idle');
  }, 90_000);
});
