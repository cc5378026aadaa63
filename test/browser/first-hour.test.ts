/**
 * Issue 27's dashboard items, as a new user meets them, in Chromium against the real daemon with
 * a real demo-agent session, at a 1440×900 desktop and a 390×844 phone: the send box in view,
 * one way to stop a turn, an empty send explained; an inbox whose cursor mark is not a focus
 * ring and whose approval pill is not idle-green; a create form that speaks in words and offers
 * the specs; a debugger whose graph labels fit their nodes and whose screen is not clipped; a
 * light theme, a header that keeps its height, and the symbols agents draw in the terminal.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { axeViolations } from './axe.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const SIZES = [['desktop', DESKTOP], ['phone', PHONE]] as const;
/** Words a person should never read in a message: API paths, methods, JSON pointers. */
const JARGON = /\/api\/|\b(GET|POST|PUT|DELETE) \/|(^|\s)\/[a-z_]+:|schema|VALIDATION_FAILED/;

let e: DashboardE2e;
let session: SessionDetail;

beforeAll(async () => {
  e = await startDashboardE2e({ viewport: DESKTOP });
  session = await e.createIdleSession({ name: 'first-hour', cols: 120, rows: 40 });
}, 150_000);
afterAll(async () => { await e?.close(); }, 60_000);

async function openSession(page: Page, size: { width: number; height: number }, tab = ''): Promise<void> {
  await page.setViewportSize(size);
  // The terminal tab by name: a phone opens a session on its transcript.
  await page.goto(`${e.url}/sessions/${session.id}${tab || '/terminal'}`);
  if (tab === '') await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
}

/** The element's box lies inside the viewport as first shown (no scrolling). */
async function expectInViewport(page: Page, selector: string, size: { width: number; height: number }): Promise<void> {
  const box = await page.locator(selector).first().evaluate((el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; });
  expect(box.left, selector).toBeGreaterThanOrEqual(0);
  expect(box.top, selector).toBeGreaterThanOrEqual(0);
  expect(box.right, selector).toBeLessThanOrEqual(size.width);
  expect(box.bottom, selector).toBeLessThanOrEqual(size.height);
}

describe('item 6: the session view', () => {
  for (const [name, size] of SIZES) {
    it(`shows the send box without scrolling on a ${name}`, async () => {
      const page = e.page;
      await openSession(page, size);
      await page.evaluate(() => scrollTo(0, 0));
      await expectInViewport(page, '.send-box textarea', size);
      await expectInViewport(page, '.send-box button[type="submit"]', size);
    }, 60_000);
  }

  it('says why an empty send did nothing', async () => {
    const page = e.page;
    await openSession(page, DESKTOP);
    await page.getByLabel('Message to the agent').fill('   ');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.send-box [role="alert"]').textContent()).toMatch(/type a message/i);
    await page.getByLabel('Message to the agent').fill('x');
    await expect.poll(() => page.locator('.send-box [role="alert"]').count()).toBe(0);
    await page.getByLabel('Message to the agent').fill('');
  }, 60_000);

  it('offers one way to stop a turn while the agent generates', async () => {
    const page = e.page;
    await openSession(page, DESKTOP);
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'a long answer please', wait: 'started' } });
    await page.locator('section.session-view[data-badge="generating"]').waitFor({ timeout: E2E_WAIT_MS });
    await page.locator('.controls-bar button[data-control-id="stop"]').waitFor({ timeout: E2E_WAIT_MS });
    const shown = await page.locator('.controls-bar button').evaluateAll((buttons) => buttons.filter((b) => (b as HTMLElement).offsetParent !== null).map((b) => b.textContent));
    expect(shown.filter((t) => /^(Stop|Interrupt)/.test(t ?? ''))).toHaveLength(1);
    await e.waitForState(session.id, 'idle', 90_000);
    // Idle, with no spec stop on offer, Interrupt (Esc) is there again.
    await page.locator('.controls-bar button', { hasText: 'Interrupt (Esc)' }).waitFor({ timeout: E2E_WAIT_MS });
  }, 120_000);
});

describe('item 9: the inbox', () => {
  it('marks the CLI cursor unlike a focus ring and the approval pill unlike idle', async () => {
    const page = e.page;
    await page.setViewportSize(DESKTOP);
    await page.goto(e.url);
    const idlePill = page.locator(`li.session[data-session-id="${session.id}"] .badge-idle`);
    await idlePill.waitFor({ timeout: E2E_WAIT_MS });
    const idleColour = await idlePill.evaluate((el) => getComputedStyle(el).color);
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'run the tests', wait: 'started' } });
    const approval = await waitFor(async () => (await e.client.call('listApprovals')).approvals[0], E2E_WAIT_MS, 'the approval');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /Inbox/ }).click();
    const card = page.locator(`li.approval-card[data-approval-id="${approval.id}"]`);
    const cursor = card.locator('button[aria-current="true"]');
    await cursor.waitFor({ timeout: E2E_WAIT_MS });
    expect(await card.locator('.card-head .badge').evaluate((el) => getComputedStyle(el).color)).not.toBe(idleColour);
    const unfocused = await cursor.evaluate((el) => ({ outline: getComputedStyle(el).outlineStyle, focused: el.matches(':focus') }));
    expect(unfocused).toEqual({ outline: 'none', focused: false });
    // Keyboard focus on the cursor button: the ring is there, in a colour of its own.
    await cursor.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const ring = await cursor.evaluate((el) => ({ visible: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineColor, style: getComputedStyle(el).outlineStyle }));
    expect(ring.visible).toBe(true);
    expect(ring.style).toBe('solid');
    const mark = await cursor.evaluate((el) => getComputedStyle(el).borderLeftColor);
    expect(mark).not.toBe(ring.outline);
    await card.locator('button[data-button-index="1"]').click();
    await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
    await e.waitForState(session.id, 'idle', 90_000);
  }, 150_000);
});

describe('item 10: the create form', () => {
  async function openForm(page: Page, size: { width: number; height: number }) {
    await page.setViewportSize(size);
    await page.goto(e.url);
    await page.locator('details.create summary').click();
    return page.getByRole('form', { name: 'New session' });
  }

  for (const [name, size] of SIZES) {
    it(`says a relative directory is wrong in words, across the form, on a ${name}`, async () => {
      const page = e.page;
      const form = await openForm(page, size);
      await form.getByLabel(/Working directory/).fill('project/here');
      await form.getByRole('button', { name: 'Create' }).click();
      const problem = form.locator('[role="alert"]');
      await problem.waitFor({ timeout: E2E_WAIT_MS });
      const text = (await problem.textContent())!;
      expect(text).toMatch(/absolute/);
      expect(text).not.toMatch(JARGON);
      const [formBox, problemBox] = [(await form.boundingBox())!, (await problem.boundingBox())!];
      expect(problemBox.width).toBeGreaterThan(formBox.width * 0.9);
    }, 60_000);
  }

  it('names an unknown spec once, with the advice once, and offers the built-in specs', async () => {
    const page = e.page;
    const form = await openForm(page, DESKTOP);
    const options = await form.getByLabel(/^Spec/).evaluate((input) => [...((input as HTMLInputElement).list?.options ?? [])].map((o) => o.value));
    expect(options).toEqual(expect.arrayContaining(['demo-agent', 'claude-code', 'codex']));
    await form.getByLabel(/^Spec/).fill('no-such-spec');
    await form.getByLabel(/Working directory/).fill(e.dirs.work);
    await form.getByRole('button', { name: 'Create' }).click();
    const problem = form.locator('[role="alert"]');
    await problem.waitFor({ timeout: E2E_WAIT_MS });
    const text = (await problem.textContent())!;
    expect(text).toContain('no-such-spec');
    expect(text.match(/built-in/gi) ?? []).toHaveLength(1);
    expect(text).not.toMatch(JARGON);
  }, 60_000);
});

describe('item 12: the debugger', () => {
  for (const [name, size] of SIZES) {
    it(`fits the graph labels in their nodes and shows all 120 columns on a ${name}`, async () => {
      const page = e.page;
      await openSession(page, size, '/debug');
      await expect.poll(() => page.locator('#debugger-title').textContent(), { timeout: E2E_WAIT_MS }).toContain('first-hour');
      await page.locator('svg.graph g.node').first().waitFor({ timeout: E2E_WAIT_MS });
      const spills = await page.locator('svg.graph g.node').evaluateAll((nodes) => nodes.flatMap((g) => {
        const box = g.querySelector('rect')!.getBoundingClientRect();
        return [...g.querySelectorAll('text')].map((t) => t.getBoundingClientRect())
          .filter((t) => t.left < box.left || t.right > box.right || t.top < box.top || t.bottom > box.bottom)
          .map(() => g.getAttribute('data-state'));
      }));
      expect(spills).toEqual([]);
      const screen = await page.locator('.screen-overlay').first().evaluate((overlay) => {
        const row = [...overlay.querySelectorAll<HTMLElement>('.screen-row')].reduce((a, b) => (b.textContent!.length > a.textContent!.length ? b : a));
        const range = document.createRange();
        range.selectNodeContents(row);
        const r = overlay.getBoundingClientRect();
        const columnsWidth = (range.getBoundingClientRect().width / row.textContent!.length) * 120;
        return { right: r.right, left: r.left, clientWidth: overlay.clientWidth, columnsWidth, reach: overlay.scrollWidth, overflowX: getComputedStyle(overlay).overflowX, pageWidth: document.documentElement.scrollWidth };
      });
      // The box is on the screen, and what it cannot show at once it scrolls to.
      expect(screen.left).toBeGreaterThanOrEqual(0);
      expect(screen.right).toBeLessThanOrEqual(size.width);
      expect(screen.pageWidth).toBeLessThanOrEqual(size.width);
      // A desktop has the room: all 120 columns in view. A phone scrolls to them.
      if (size === DESKTOP) expect(screen.columnsWidth).toBeLessThanOrEqual(screen.clientWidth);
      else expect(screen.overflowX).toMatch(/auto|scroll/);
      expect(screen.reach).toBeGreaterThanOrEqual(Math.floor(screen.columnsWidth));
    }, 60_000);
  }
});

describe('item 13: theme, header, symbols', () => {
  const luminance = (rgb: string) => {
    const [r, g, b] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number) as [number, number, number];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  const backgroundOf = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  it('follows the system preference for a light or dark page', async () => {
    const page = e.page;
    await page.setViewportSize(DESKTOP);
    await page.goto(e.url);
    await page.locator(`li.session[data-session-id="${session.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
    try {
      await page.emulateMedia({ colorScheme: 'light' });
      expect(luminance(await backgroundOf(page))).toBeGreaterThan(0.8);
      expect(luminance(await page.locator('.session-name').first().evaluate((el) => getComputedStyle(el).color))).toBeLessThan(0.3);
      // The light palette keeps text readable (axe's contrast rules among the rest).
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(luminance(await backgroundOf(page))).toBeLessThan(0.2);
    } finally {
      await page.emulateMedia({ colorScheme: null });
    }
  }, 60_000);

  it('keeps the phone header at one height with and without an inbox count', async () => {
    const page = e.page;
    await page.setViewportSize(PHONE);
    await page.goto(e.url);
    await page.locator(`li.session[data-session-id="${session.id}"][data-badge="idle"]`).waitFor({ timeout: E2E_WAIT_MS });
    const header = page.locator('header.top');
    const without = (await header.boundingBox())!.height;
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'run the tests', wait: 'started' } });
    await page.locator('header.top .count').waitFor({ state: 'visible', timeout: E2E_WAIT_MS });
    const withCount = (await header.boundingBox())!.height;
    expect(withCount).toBe(without);
    // At most two rows of 44 px targets.
    expect(without).toBeLessThanOrEqual(100);
    const approval = await waitFor(async () => (await e.client.call('listApprovals')).approvals[0], E2E_WAIT_MS, 'the approval');
    await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
    await e.waitForState(session.id, 'idle', 90_000);
  }, 150_000);

  it('draws ⏺ in the terminal with a glyph, not the missing-glyph box', async () => {
    const page = e.page;
    await openSession(page, DESKTOP);
    const differs = await page.evaluate(async (id) => {
      const { term } = (globalThis as any).specterm.terminals.get(id);
      const font = `32px ${term.options.fontFamily as string}`;
      await document.fonts.load(font, '⏺');
      const pixels = (text: string) => {
        const canvas = document.createElement('canvas');
        canvas.width = 64; canvas.height = 64;
        const ctx = canvas.getContext('2d')!;
        ctx.font = font;
        ctx.fillStyle = '#000';
        ctx.fillText(text, 8, 44);
        return Array.from(ctx.getImageData(0, 0, 64, 64).data).join(',');
      };
      // U+10FFFD is a private-use code point no font draws: the page's .notdef box.
      return { record: pixels('⏺') !== pixels('\u{10FFFD}'), check: document.fonts.check(font, '⏺') };
    }, session.id);
    expect(differs.record).toBe(true);
  }, 60_000);
});
