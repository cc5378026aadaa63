/**
 * The dashboard's Transcript tab, search and last line (issue 26 item 7), in Chromium against
 * the real daemon and the Demo Agent's own history, at a desktop's 1440×900 and a phone's
 * 390×844: the tab shows the turns (the person's message, the agent's answer, the tool call
 * collapsed and expandable with its output) and grows live; markup in a message stays text; a
 * phone opens a session on its transcript with the terminal one tap away, a desktop on its
 * terminal; a search from the overview finds the turn and links to the transcript; each overview
 * card shows the last line the agent said.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail, Transcript } from '../../src/protocol/index.js';
import { lastLineOf } from '../../src/dashboard/transcript-model.js';
import { axeViolations } from './axe.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

/** A message with markup in it: the page must show it as text, never run or insert it. */
const HOSTILE = 'hello <img src=x onerror="globalThis.__pwned=1"> <script>globalThis.__pwned=2</script> <iframe src="about:blank"></iframe>';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Markdown's paragraphs are elements: their text without the blank lines between them. */
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, '');

/**
 * The session's transcript once its last turn is over: the session idle again, the turn holding
 * the agent's text (and, with `tool`, its tool call succeeded), and two reads a moment apart
 * alike. A history turn's `ended_at` is only its latest record's time, set from its first
 * record on: waiting for it alone returned a turn whose answer was still being written.
 */
async function settledTranscript(e: DashboardE2e, id: string, turns: number, tool = false): Promise<Transcript> {
  await e.waitForState(id, 'idle');
  let last: Transcript | null = null;
  let previous = '';
  return waitFor(async () => {
    last = (await e.client.call('getTranscript', { params: { id } })).transcript;
    const turn = last?.turns.at(-1);
    const ok = last !== null && last.turns.length === turns && turn!.items.some((i) => i.kind === 'text')
      && (!tool || turn!.items.some((i) => i.kind === 'tool_call' && i.status === 'ok'));
    const settled = ok && JSON.stringify(last) === previous;
    previous = ok ? JSON.stringify(last) : '';
    if (!settled) await pause(250);
    return settled ? last : undefined;
  }, E2E_WAIT_MS, () => `${turns} settled turns in the transcript (have ${last?.turns.length ?? 'none'})`);
}

/** "hello" with markup, then "run the tests" answered Yes: a text turn and a tool turn. */
async function converse(e: DashboardE2e, id: string): Promise<Transcript> {
  await e.client.call('sendMessage', { params: { id }, body: { text: HOSTILE, wait: 'idle', timeout_ms: E2E_WAIT_MS } });
  const tests = await e.client.call('sendMessage', { params: { id }, body: { text: 'run the tests', wait: 'idle', timeout_ms: E2E_WAIT_MS } });
  expect(tests.delivery).toBe('blocked');
  const approval = (await e.client.call('listApprovals')).approvals.find((a) => a.session_id === id)!;
  await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
  await e.waitForState(id, 'idle');
  return settledTranscript(e, id, 2, true);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
}

function suite(label: 'desktop' | 'phone', viewport: { width: number; height: number }) {
  describe(`the Transcript tab at ${label} (${viewport.width}×${viewport.height})`, () => {
    let e: DashboardE2e;
    let session: SessionDetail;
    let transcript: Transcript;

    beforeAll(async () => {
      e = await startDashboardE2e({ viewport, hasTouch: label === 'phone' });
      session = await e.createIdleSession({ name: `talk-${label}` });
      transcript = await converse(e, session.id);
    }, 180_000);
    afterAll(async () => { await e?.close(); }, 60_000);

    it('shows the turns, the tool call collapsed and expandable, markup as text', async () => {
      const page = e.page;
      await page.goto(`${e.url}/sessions/${session.id}/transcript`);
      const turns = page.locator('ol.turns > li.turn');
      await turns.nth(1).locator('details.tool-call').waitFor({ timeout: E2E_WAIT_MS });
      expect(await turns.count()).toBe(transcript.turns.length);

      const [hello, tests] = transcript.turns;
      const first = turns.nth(0);
      expect(await first.locator('.user-text').textContent()).toBe(HOSTILE);
      const answer = hello!.items.find((i) => i.kind === 'text')!;
      expect(answer.kind === 'text' && answer.text).toMatch(/^Hello! I'm Demo Agent/);
      expect(squash(await first.locator('.turn-text').first().textContent())).toBe(squash(answer.kind === 'text' ? answer.text : ''));

      // The markup in the message is text: no element came from it, nothing ran.
      expect(await page.locator('ol.turns').locator('img, script, iframe, svg, object, embed, style').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();

      const call = tests!.items.find((i) => i.kind === 'tool_call')!;
      const details = turns.nth(1).locator('details.tool-call');
      expect(await details.getAttribute('open')).toBeNull();
      expect(await details.locator('.tool-output').isVisible()).toBe(false);
      expect(await details.locator('summary').textContent()).toContain(call.kind === 'tool_call' ? call.name : '');
      const summary = details.locator('summary');
      if (label === 'phone') await summary.tap(); else await summary.click();
      await details.locator('.tool-output').waitFor({ state: 'visible' });
      expect(await details.locator('.tool-output').textContent()).toBe(call.kind === 'tool_call' ? call.output : null);
      expect(await details.locator('.tool-input').textContent()).toContain('npm test');
      expect(await turns.nth(1).locator('.turn-usage').count()).toBe(tests!.usage ? 1 : 0);
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);
    }, 90_000);

    it('adds a new turn live, in place, without reloading the page', async () => {
      const page = e.page;
      await page.goto(`${e.url}/sessions/${session.id}/transcript`);
      const turns = page.locator('ol.turns > li.turn');
      await turns.nth(transcript.turns.length - 1).waitFor({ timeout: E2E_WAIT_MS });
      await page.evaluate(() => { (globalThis as { __samePage?: boolean }).__samePage = true; });
      await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'tell me something long', wait: 'started', timeout_ms: E2E_WAIT_MS } });
      const grown = await settledTranscript(e, session.id, transcript.turns.length + 1);
      const added = turns.nth(transcript.turns.length);
      await added.locator('.user-text', { hasText: 'tell me something long' }).waitFor({ timeout: E2E_WAIT_MS });
      const text = grown.turns.at(-1)!.items.filter((i) => i.kind === 'text').map((i) => squash(i.kind === 'text' ? i.text : ''));
      await expect.poll(async () => (await added.locator('.turn-text').allTextContents()).map(squash), { timeout: E2E_WAIT_MS }).toEqual(text);
      expect(await page.evaluate(() => (globalThis as { __samePage?: boolean }).__samePage)).toBe(true);
      transcript = grown;
    }, 120_000);

    it(`opens a session on its ${label === 'phone' ? 'transcript, the terminal one tap away' : 'terminal, the transcript one click away'}`, async () => {
      const page = e.page;
      await page.goto(`${e.url}/sessions/${session.id}`);
      const tabs = page.getByRole('navigation', { name: 'Session views' });
      const first = label === 'phone' ? 'Transcript' : 'Terminal';
      const other = label === 'phone' ? 'Terminal' : 'Transcript';
      await tabs.getByRole('link', { name: first }).and(page.locator('[aria-current="page"]')).waitFor({ timeout: E2E_WAIT_MS });
      if (label === 'phone') await page.locator('ol.turns > li.turn').first().waitFor({ timeout: E2E_WAIT_MS });
      else await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
      const link = tabs.getByRole('link', { name: other });
      if (label === 'phone') await link.tap(); else await link.click();
      await page.waitForURL(`${e.url}/sessions/${session.id}/${other.toLowerCase()}`);
      if (label === 'phone') await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
      else await page.locator('ol.turns > li.turn').first().waitFor({ timeout: E2E_WAIT_MS });
      await expectNoSidewaysScroll(page);
    }, 90_000);

    it('finds a turn from the overview\'s search and links to the transcript', async () => {
      const page = e.page;
      await page.goto(`${e.url}/`);
      await page.getByLabel('Search what the agents said').fill('scripted stand');
      const hit = page.locator(`li.search-hit[data-session-id="${session.id}"]`).first();
      await hit.waitFor({ timeout: E2E_WAIT_MS });
      expect(await hit.locator('.session-name').textContent()).toBe(session.name);
      expect(await hit.getAttribute('data-turn-index')).toBe('0');
      expect((await hit.locator('mark').allTextContents()).join(' ').toLowerCase()).toContain('scripted');
      expect(await hit.locator('.snippet').textContent()).not.toMatch(/\[|\]/);
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);
      const link = hit.locator('a');
      if (label === 'phone') await link.tap(); else await link.click();
      await page.waitForURL(`${e.url}/sessions/${session.id}/transcript`);
      await page.locator('ol.turns > li.turn').first().waitFor({ timeout: E2E_WAIT_MS });
    }, 90_000);

    it('shows on the overview card the last line the agent said, and the next one as it comes', async () => {
      const page = e.page;
      await page.goto(`${e.url}/`);
      const line = page.locator(`li.session[data-session-id="${session.id}"] .last-line`);
      const said = lastLineOf(transcript.turns)!;
      await expect.poll(async () => (await line.count()) > 0 && line.getAttribute('title'), { timeout: E2E_WAIT_MS }).toBe(said);
      await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'hello again', wait: 'started', timeout_ms: E2E_WAIT_MS } });
      const next = lastLineOf((await settledTranscript(e, session.id, transcript.turns.length + 1)).turns)!;
      expect(next).not.toBe(said);
      await expect.poll(() => line.getAttribute('title'), { timeout: E2E_WAIT_MS }).toBe(next);
      expect(await line.textContent()).toContain(next);
      await expectNoSidewaysScroll(page);
    }, 120_000);
  });
}

suite('desktop', { width: 1440, height: 900 });
suite('phone', { width: 390, height: 844 });
