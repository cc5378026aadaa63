/**
 * The dashboard's main path end to end, against the real daemon and real demo-agent sessions:
 * create a session from the overview's form, see it go idle, send a message from the session
 * view and watch its delivery receipt, answer the approval card that appears in the inbox with
 * the exact buttons the daemon lists, see the state return to idle; drop the WebSocket
 * mid-stream and check the browser's terminal equals the daemon's screen after the reconnect.
 * Accessibility (axe-core): no serious or critical violation on the inbox and the session view.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { axeViolations } from './axe.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';


let e: DashboardE2e;
let session: SessionDetail;

beforeAll(async () => { e = await startDashboardE2e(); }, 120_000);
afterAll(async () => { await e?.close(); }, 60_000);

/** The visible rows of the page's xterm for `id`, as the daemon's screen text is made (blank rows at either end dropped). */
async function browserScreen(p: Page, id: string): Promise<{ text: string; next: number | null }> {
  return p.evaluate((sessionId) => {
    const t = (globalThis as any).specterm.terminals.get(sessionId);
    const buffer = t.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < t.term.rows; y += 1) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return { text: lines.join('\n'), next: t.seq.next };
  }, id);
}

const trimScreen = (text: string) => text.split('\n').map((l) => l.trimEnd()).join('\n').replace(/^\n+|\n+$/g, '');

describe('one session from creation to an answered approval', () => {
  it('creates a session from the overview form and shows it idle', async () => {
    const page = e.page;
    await page.getByText('New session').click();
    const form = page.getByRole('form', { name: 'New session' });
    await form.getByLabel('Spec (id or path)').fill('demo-agent');
    await form.getByLabel('Working directory (absolute)').fill(e.dirs.work);
    await form.getByLabel('Name').fill('flow');
    await form.getByLabel('Labels').fill('team=core');
    await form.getByRole('button', { name: 'Create' }).click();
    const row = page.locator('li.session[data-badge="idle"]', { hasText: 'flow' });
    await row.waitFor({ timeout: E2E_WAIT_MS });
    const listed = (await e.client.call('listSessions')).sessions;
    expect(listed).toHaveLength(1);
    session = listed[0]!;
    expect(session).toMatchObject({ name: 'flow', labels: { team: 'core' }, cwd: e.dirs.work, spec: { id: 'demo-agent' } });
    expect(await row.getAttribute('data-session-id')).toBe(session.id);
  }, 90_000);

  it('sends a message from the session view; the receipt goes queued → typed → echoed → turn started', async () => {
    const page = e.page;
    await page.locator(`li.session[data-session-id="${session.id}"] a`).click();
    await page.getByRole('heading', { name: 'flow' }).waitFor();
    await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
    await page.getByLabel('Message to the agent').fill('run the tests');
    await page.getByRole('button', { name: 'Send' }).click();
    const receipt = page.locator('li.receipt', { hasText: 'run the tests' });
    await receipt.waitFor();
    await page.locator('li.receipt[data-reached="turn_started"]').waitFor({ timeout: E2E_WAIT_MS });
    expect(await receipt.locator('.receipt-steps li.done').allTextContents()).toEqual(['✓ queued', '✓ typed', '✓ echoed', '✓ turn started']);
    expect(await receipt.getAttribute('data-failure')).toBeNull();
  }, 90_000);

  it('shows the approval in the inbox with the exact buttons and the CLI\'s cursor, which follows the arrow keys; pressing 1 clears it and the session returns to idle', async () => {
    const page = e.page;
    const approval = await waitFor(async () => (await e.client.call('listApprovals')).approvals[0], E2E_WAIT_MS, 'the approval');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /Inbox/ }).click();
    const card = page.locator(`li.approval-card[data-approval-id="${approval.id}"]`);
    await card.waitFor({ timeout: E2E_WAIT_MS });
    expect(await card.getAttribute('data-kind')).toBe(approval.kind);
    expect(await card.locator('h3').textContent()).toBe(approval.title);
    // The mark comes with the session list, which the page reloads 100 ms after each event: wait for it.
    await card.locator('.card-buttons button[aria-current="true"]').waitFor({ timeout: E2E_WAIT_MS });
    expect(await card.locator('.card-buttons button[aria-current="true"]').getAttribute('data-button-index')).toBe('1');
    expect(await card.locator('.card-buttons button').allTextContents()).toEqual(approval.buttons.map((b) => `${b.index === 1 ? '❯ ' : ''}${b.index}. ${b.label}`));
    if (approval.text) expect(await card.locator('.card-text').textContent()).toBe(approval.text);
    expect(await axeViolations(page)).toEqual([]);
    // Arrowing in the terminal moves the mark, live, on the same card (the same approval).
    await e.client.call('sendKeys', { params: { id: approval.session_id }, body: { data: '\x1b[B' } });
    await card.locator('.card-buttons button[data-button-index="2"][aria-current="true"]').waitFor({ timeout: E2E_WAIT_MS });
    expect(await card.locator('.card-buttons button[aria-current="true"]').count()).toBe(1);

    await card.locator('.card-buttons button[data-button-index="1"]').click();
    await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
    expect(await card.locator('.outcome').textContent()).toBe(`Pressed 1. ${approval.buttons.find((b) => b.index === 1)!.label}: the modal cleared.`);
    await e.waitForState(session.id, 'idle');
    await page.getByText('Nothing waits for you').waitFor({ timeout: E2E_WAIT_MS });
    const answered = await e.client.call('getHistory', { params: { id: session.id }, query: { limit: 20 } });
    expect(answered.entries.map((x) => x.state.status)).toContain('approval');
  }, 120_000);

  it('refuses a press on a card whose modal changed, shows the modal up now, and answers that one', async () => {
    const page = e.page;
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'run the tests again', wait: 'started' } });
    const first = await waitFor(async () => (await e.client.call('listApprovals')).approvals[0], E2E_WAIT_MS, 'the first approval');
    const card = page.locator('li.approval-card').first();
    await page.locator(`li.approval-card[data-approval-id="${first.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
    // The page keeps seeing the first approval (as over a slow network) while, elsewhere, it is
    // answered and the agent asks again: the card on the page is stale.
    await page.route('**/api/v1/approvals', (route) => route.fulfill({ json: { approvals: [first] } }));
    try {
      await e.client.call('answerApproval', { params: { id: first.id }, body: { button: 1, fingerprint: first.fingerprint } });
      await e.waitForState(session.id, 'idle');
      await e.client.call('sendMessage', { params: { id: session.id }, body: { text: 'and the tests once more', wait: 'started' } });
      const second = await waitFor(async () => (await e.client.call('listApprovals')).approvals.find((a) => a.id !== first.id), E2E_WAIT_MS, 'the second approval');

      await card.locator('.card-buttons button[data-button-index="1"]').click();
      await card.locator('.outcome-stale').waitFor({ timeout: E2E_WAIT_MS });
      expect(await card.locator('.outcome').textContent()).toMatch(/^Refused, nothing was pressed: the modal changed\./);
      expect(await card.getAttribute('data-approval-id')).toBe(second.id);
      expect((await card.locator('.card-buttons button').allTextContents()).map((t) => t.replace(/^❯ /, ''))).toEqual(second.buttons.map((b) => `${b.index}. ${b.label}`));
      expect((await e.client.call('listApprovals')).approvals.map((a) => a.id)).toEqual([second.id]); // nothing was pressed

      await card.locator('.card-buttons button[data-button-index="1"]').click();
      await card.locator('.outcome-cleared').waitFor({ timeout: E2E_WAIT_MS });
    } finally {
      await page.unroute('**/api/v1/approvals');
    }
    await e.waitForState(session.id, 'idle');
  }, 150_000);

  it('after the WebSocket drops mid-stream and reconnects, the browser\'s terminal equals the daemon\'s screen', async () => {
    const page = e.page;
    await page.goto(`${e.url}/sessions/${session.id}`);
    await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Message to the agent').fill('tell me something long');
    await page.getByRole('button', { name: 'Send' }).click();
    const receipt = page.locator('li.receipt', { hasText: 'tell me something long' });
    await page.waitForFunction(() => document.querySelector('li.receipt')?.getAttribute('data-reached') === 'turn_started' || document.querySelector('li.receipt')?.hasAttribute('data-failure'), undefined, { timeout: E2E_WAIT_MS });
    expect(await receipt.getAttribute('data-failure'), await receipt.textContent() ?? '').toBeNull();
    // Mid-stream: bytes are flowing while the socket goes.
    await page.evaluate(() => (globalThis as any).specterm.live.drop());
    await page.getByText('live', { exact: true }).waitFor({ timeout: E2E_WAIT_MS });
    await e.waitForState(session.id, 'idle', 90_000);
    let last = { browser: '', daemon: '', browserSeq: null as number | null, daemonSeq: -1 };
    await waitFor(async () => {
      const screen = await e.client.call('getScreen', { params: { id: session.id } });
      const view = await browserScreen(page, session.id);
      last = { browser: trimScreen(view.text), daemon: trimScreen(screen.content), browserSeq: view.next, daemonSeq: screen.seq };
      return last.browserSeq === last.daemonSeq && last.browser === last.daemon;
    }, E2E_WAIT_MS, () => `the browser's terminal to equal the daemon's screen: ${JSON.stringify(last)}`);
    expect(last.browser).toContain('That is the end of the long answer.');
  }, 150_000);
});
