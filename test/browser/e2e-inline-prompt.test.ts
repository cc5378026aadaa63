/**
 * Approvals answered where the person looks (issue 26 item 7), in Chromium against the real
 * daemon and Demo Agent, at a desktop's 1440×900 and a phone's 390×844: the agent's prompt shows
 * on the session page (above the terminal, without scrolling) and on its overview card; the key
 * `1` on the session page and a click on the overview card answer it; keys typed in the send box
 * or the terminal do not; a read-scope device sees the buttons disabled; an answered card stops looking
 * clickable; a picker the person opened shows on the session page but never on the overview.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, SessionDetail } from '../../src/protocol/index.js';
import { axeViolations, launchChromium, type LaunchedChromium } from './chromium.js';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';
import { nextApproval } from './notify-fixture.js';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openSession(e: DashboardE2e, page: Page, id: string): Promise<void> {
  // The terminal tab by name: a phone opens a session on its transcript.
  await page.goto(`${e.url}/sessions/${id}/terminal`);
  await page.waitForFunction((sid) => (globalThis as any).specterm?.terminals?.get(sid)?.seq.next > 0, id, { timeout: E2E_WAIT_MS });
}

/** The approval is gone from the daemon's list and the agent went on to idle (it ran the tests). */
async function expectAnswered(e: DashboardE2e, approval: Approval): Promise<void> {
  await expect.poll(async () => (await e.client.call('listApprovals')).approvals.map((a) => a.id), { timeout: E2E_WAIT_MS }).not.toContain(approval.id);
  await e.waitForState(approval.session_id, 'idle');
  const { entries } = await e.client.call('getHistory', { params: { id: approval.session_id }, query: { limit: 20 } });
  const asked = Math.max(...entries.filter((x) => x.state.status === 'approval').map((x) => x.seq));
  expect(entries.filter((x) => x.seq > asked).map((x) => x.state.status)).toContain('generating');
}

/** Disabled, and drawn so: no pointer cursor, muted. */
async function expectInert(buttons: Locator): Promise<void> {
  expect(await buttons.count()).toBeGreaterThan(0);
  for (const button of await buttons.all()) {
    expect(await button.isDisabled()).toBe(true);
    const look = await button.evaluate((b) => ({ cursor: getComputedStyle(b).cursor, opacity: Number(getComputedStyle(b).opacity) }));
    expect(look.cursor).not.toBe('pointer');
    expect(look.opacity).toBeLessThan(1);
  }
}

/** The panel's bottom edge is inside the viewport: seen without scrolling. */
async function expectAboveTheFold(page: Page, panel: Locator): Promise<void> {
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  expect(await page.evaluate(() => scrollY)).toBe(0);
}

function suite(label: string, viewport: { width: number; height: number }, hasTouch: boolean) {
  describe(`inline approvals at ${label} (${viewport.width}×${viewport.height})`, () => {
    let e: DashboardE2e;
    let session: SessionDetail;

    beforeAll(async () => {
      e = await startDashboardE2e({ viewport, hasTouch });
      session = await e.createIdleSession({ name: `inline-${label}` });
    }, 150_000);
    afterAll(async () => { await e?.close(); }, 60_000);

    it('shows the prompt on the session page with key hints; keys in the send box or the terminal do not answer, the key 1 does', async () => {
      const page = e.page;
      await openSession(e, page, session.id);
      const approval = await nextApproval(e, session.id);
      const panel = page.locator('section.session-view .session-prompt');
      await page.locator(`section.session-view .session-prompt[data-approval-id="${approval.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
      await expectAboveTheFold(page, panel);
      expect(await axeViolations(page)).toEqual([]);
      const one = panel.locator('button[data-button-index="1"]');
      expect(await one.getAttribute('aria-keyshortcuts')).toMatch(/^1( y)?$/);
      expect(await one.isDisabled()).toBe(false);
      const no = approval.buttons.find((b) => /^no\b/i.test(b.label));
      if (no) expect(await panel.locator(`button[data-button-index="${no.index}"]`).getAttribute('aria-keyshortcuts')).toBe(`${no.index} n`);

      // Typed into the send box, "1", "y" and "n" are text, not answers.
      const box = page.getByLabel('Message to the agent');
      await box.click();
      await page.keyboard.type('1yn');
      // Nor in the terminal (its input toggle off, they go nowhere).
      await page.locator(`[data-terminal-for="${session.id}"]`).click();
      await page.keyboard.type('1y');
      await settle(1_000);
      expect(await box.inputValue()).toBe('1yn');
      expect(await panel.locator('.outcome').count()).toBe(0); // no press was even tried
      expect((await e.client.call('listApprovals')).approvals.map((a) => a.id)).toContain(approval.id);
      await box.fill('');

      // Focus on the page itself: the key 1 presses button 1.
      await page.locator('#session-title').click();
      await page.keyboard.press('1');
      await panel.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
      await expectAnswered(e, approval);
      // The answered prompt stays with its outcome, and no longer looks clickable.
      expect(await panel.locator('.outcome').textContent()).toBe(`Pressed 1. ${approval.buttons.find((b) => b.index === 1)!.label}: the modal cleared.`);
      await expectInert(panel.locator('.card-buttons button'));
    }, 150_000);

    it('shows the prompt on the session\'s overview card; a click there answers it', async () => {
      const page = e.page;
      await page.goto(`${e.url}/`);
      const approval = await nextApproval(e, session.id);
      const card = page.locator(`li.session[data-session-id="${session.id}"]`);
      const prompt = card.locator('.session-prompt');
      await prompt.locator('button[data-button-index="1"]').waitFor({ timeout: E2E_WAIT_MS });
      expect(await prompt.getAttribute('data-approval-id')).toBe(approval.id);
      const one = prompt.locator('button[data-button-index="1"]');
      if (hasTouch) await one.tap(); else await one.click();
      await prompt.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
      await expectAnswered(e, approval);
      await expectInert(prompt.locator('.card-buttons button'));
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    }, 150_000);
  });
}

suite('desktop', { width: 1440, height: 900 }, false);
suite('phone', { width: 390, height: 844 }, true);

describe('inline approvals: who may answer, and what waits for nobody', () => {
  let e: DashboardE2e;
  let session: SessionDetail;
  let reader: LaunchedChromium | undefined;

  beforeAll(async () => {
    e = await startDashboardE2e({ viewport: { width: 1440, height: 900 } });
    session = await e.createIdleSession({ name: 'inline-scopes', args: ['--speed', '0.2', '--no-trust-prompt'] });
  }, 150_000);
  afterAll(async () => { await reader?.close().catch(() => {}); await e?.close(); }, 60_000);

  it('a read-scope device sees the buttons disabled with the hint, and its keys press nothing', async () => {
    reader = await launchChromium({ viewport: { width: 1440, height: 900 } });
    const page = await reader.context.newPage();
    await page.goto(await e.pairingUrl('reader', 'read'));
    await page.getByRole('heading', { name: 'Sessions' }).waitFor({ timeout: E2E_WAIT_MS });
    const approval = await nextApproval(e, session.id);
    const row = page.locator(`li.session[data-session-id="${session.id}"] .session-prompt`);
    await row.locator('button[data-button-index="1"]').waitFor({ timeout: E2E_WAIT_MS });
    for (const b of await row.locator('.card-buttons button').all()) expect(await b.isDisabled()).toBe(true);
    await row.getByText(/read scope/).waitFor();

    await openSession(e, page, session.id);
    const panel = page.locator('section.session-view .session-prompt');
    await panel.locator('button[data-button-index="1"]').waitFor({ timeout: E2E_WAIT_MS });
    for (const b of await panel.locator('.card-buttons button').all()) expect(await b.isDisabled()).toBe(true);
    await panel.getByText(/read scope/).waitFor();
    await page.locator('#session-title').click();
    await page.keyboard.press('1');
    await page.keyboard.press('y');
    await settle(1_000);
    expect(await panel.locator('.outcome').count()).toBe(0);
    expect((await e.client.call('listApprovals')).approvals.map((a) => a.id)).toContain(approval.id);
    await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
    await e.waitForState(session.id, 'idle');
  }, 150_000);

  it('an answered inbox card no longer looks clickable', async () => {
    const page = e.page;
    const approval = await nextApproval(e, session.id);
    await page.goto(`${e.url}/inbox`);
    const card = page.locator(`li.approval-card[data-approval-id="${approval.id}"]`);
    await card.locator('button[data-button-index="1"]').click({ timeout: E2E_WAIT_MS });
    await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
    await expectInert(card.locator('.card-buttons button'));
    await expectAnswered(e, approval);
  }, 150_000);

  it('keeps an answered inbox card and its outcome when the approval leaves the list before the answer arrives', async () => {
    const page = e.page;
    const approval = await nextApproval(e, session.id);
    await page.goto(`${e.url}/inbox`);
    const card = page.locator(`li.approval-card[data-approval-id="${approval.id}"]`);
    // A slow link: the answer's response reaches the page only once the daemon has dropped the
    // approval (its modal cleared) and the page has read the approvals again without it.
    const answerUrl = `${e.url}/api/v1/approvals/${encodeURIComponent(approval.id)}`;
    const reread = page.waitForResponse(async (r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/v1/approvals'
      && !((await r.json()) as { approvals: Approval[] }).approvals.some((a) => a.id === approval.id), { timeout: E2E_WAIT_MS });
    await page.route(answerUrl, async (route) => {
      const response = await route.fetch();
      await reread;
      await route.fulfill({ response });
    });
    try {
      await card.locator('button[data-button-index="1"]').click({ timeout: E2E_WAIT_MS });
      await reread;
      await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
      await expectInert(card.locator('.card-buttons button'));
    } finally {
      await page.unroute(answerUrl);
    }
    await expectAnswered(e, approval);
  }, 150_000);

  it('a picker the person opened shows on the session page, but neither prompts nor badges on the overview', async () => {
    const page = e.page;
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: '/model' } });
    await expect.poll(async () => (await e.client.call('getSession', { params: { id: session.id } })).modal?.opened_by, { timeout: E2E_WAIT_MS }).toBe('person');
    await openSession(e, page, session.id);
    await page.locator('section.session-view .session-prompt .card-buttons button').first().waitFor({ timeout: E2E_WAIT_MS });
    await page.goto(`${e.url}/`);
    const row = page.locator(`li.session[data-session-id="${session.id}"]`);
    await row.locator('.modal-title').waitFor({ timeout: E2E_WAIT_MS });
    expect(await row.locator('.session-prompt').count()).toBe(0);
    expect(await row.getAttribute('data-badge')).not.toBe('approval');
    await e.client.call('sendKeys', { params: { id: session.id }, body: { data: '\u001b' } });
    await expect.poll(async () => (await e.client.call('getSession', { params: { id: session.id } })).modal, { timeout: E2E_WAIT_MS }).toBeNull();
  }, 150_000);
});
