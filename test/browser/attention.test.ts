/**
 * What waits for a person, in Chromium against the real daemon and Demo Agent (issue 27 item 8):
 * the model picker the person opens (typing `/model` into the session's terminal, or sending it
 * as a message) raises no toast and no inbox count, and shows in the inbox apart, under "Opened by
 * you"; a session muted from its page raises no toast for the agent's consent prompt, which still
 * counts in the inbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';
import { nextApproval } from './notify-fixture.js';

let e: DashboardE2e;

beforeAll(async () => { e = await startDashboardE2e(); }, 120_000);
afterAll(async () => { await e?.close(); }, 60_000);

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('what waits for a person', () => {
  it('a picker the person opened: no inbox count, no toast, listed apart; a muted session: no toast, still counted', async () => {
    const page = e.page;
    const session = await e.createIdleSession({ name: 'quiet', args: ['--speed', '0.2', '--no-trust-prompt'] });
    const inboxCount = page.getByRole('navigation', { name: 'Views' }).locator('.count');
    const alerts = page.locator('.toasts [aria-live="assertive"] [role="alert"]');
    const pickerUp = async () => { await expect.poll(async () => (await e.client.call('getSession', { params: { id: session.id } })).modal?.kind, { timeout: E2E_WAIT_MS }).toBe('picker'); };
    const closePicker = async () => {
      await e.client.call('sendKeys', { params: { id: session.id }, body: { data: '\u001b' } });
      await expect.poll(async () => (await e.client.call('getSession', { params: { id: session.id } })).modal, { timeout: E2E_WAIT_MS }).toBeNull();
    };

    // Typed into the dashboard's terminal: the person is looking at the picker they opened.
    await page.goto(`${e.url}/sessions/${session.id}`);
    await page.waitForFunction((id) => (globalThis as any).specterm?.terminals?.get(id)?.seq.next > 0, session.id, { timeout: E2E_WAIT_MS });
    await page.getByLabel(/Type into the terminal/).check();
    await page.locator(`[data-terminal-for="${session.id}"]`).click();
    await page.keyboard.type('/model');
    await settle(300);
    await page.keyboard.press('Enter');
    await pickerUp();
    await page.locator('.modal-title').waitFor({ timeout: E2E_WAIT_MS }); // shown on the session
    await settle(1_000);
    expect(await inboxCount.count()).toBe(0);
    await page.getByLabel(/Type into the terminal/).uncheck();
    await closePicker();

    // Sent as a message while the person is on the overview: no toast, no count; the inbox lists it apart.
    await page.getByRole('link', { name: 'Sessions' }).click();
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: '/model' } });
    await pickerUp();
    await settle(1_500);
    expect(await alerts.count()).toBe(0);
    expect(await inboxCount.count()).toBe(0);
    await page.getByRole('link', { name: /^Inbox/ }).click();
    const yours = page.getByRole('region', { name: 'Opened by you' });
    await yours.locator('.approval-card[data-kind="picker"]').waitFor({ timeout: E2E_WAIT_MS });
    await page.getByText(/^Nothing waits for you/).waitFor();
    await closePicker();

    // Muted from the session page: the agent's consent prompt raises no toast, but still counts.
    await page.goto(`${e.url}/sessions/${session.id}`);
    const mute = page.getByRole('button', { name: 'Mute notifications' });
    expect(await mute.getAttribute('aria-pressed')).toBe('false');
    await mute.click();
    await expect.poll(() => mute.getAttribute('aria-pressed'), { timeout: E2E_WAIT_MS }).toBe('true');
    expect((await e.client.call('getSession', { params: { id: session.id } })).muted).toBe(true);
    await page.getByRole('link', { name: 'Sessions' }).click();
    const approval = await nextApproval(e, session.id);
    expect(approval.opened_by).toBe('agent');
    await expect.poll(() => inboxCount.textContent(), { timeout: E2E_WAIT_MS }).toBe('1');
    await settle(1_500);
    expect(await alerts.count()).toBe(0);
    await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
    await e.waitForState(session.id, 'idle');
  }, 240_000);
});
