/**
 * In-page notifications (toasts) end to end: the real daemon, a real demo-agent session, the
 * dashboard in Chromium. "run the tests" → an approval toast (role="alert", the approval's
 * title, the session's name), dismissed, does not come back with a WebSocket reconnect (the
 * backlog replay); the turn's end shows a polite toast that goes by itself; the next approval's
 * link opens the session; nothing is toasted for the session on screen; an approval answered
 * elsewhere takes its toast away; the exit's toast is dismissed by its button.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';
import { nextApproval } from './notify-fixture.js';

let e: DashboardE2e;

beforeAll(async () => { e = await startDashboardE2e(); }, 120_000);
afterAll(async () => { await e?.close(); }, 60_000);

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('toasts for the events that call for a person', () => {
  it('approval → alert toast, not repeated by a reconnect, opens its session; turn finished → polite toast; killed → dismissable, naming who killed it', async () => {
    const page = e.page;
    const session = await e.createIdleSession({ name: 'toaster', args: ['--speed', '0.2', '--no-trust-prompt'] });
    const alerts = page.locator('.toasts [aria-live="assertive"] [role="alert"]');
    const polite = page.locator('.toasts [aria-live="polite"] li.toast');
    expect(await alerts.count()).toBe(0); // the session's start events came before: nothing is toasted on load

    const approval = await nextApproval(e, session.id);
    await alerts.first().waitFor({ timeout: E2E_WAIT_MS });
    expect(approval.title).toBeTruthy();
    await expect.poll(() => alerts.first().textContent()).toBe(`toaster approval needed: ${approval.title}×`);

    // The sessions topic replays its backlog on every connect: a dismissed toast must not come back.
    await alerts.first().getByRole('button', { name: /^Dismiss: toaster, approval needed/ }).click();
    expect(await alerts.count()).toBe(0);
    await page.evaluate(() => (globalThis as any).specterm.live.drop());
    await page.getByRole('status', { name: 'live updates: open' }).waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByRole('status', { name: 'live updates: open' }).waitFor({ timeout: E2E_WAIT_MS });
    await settle(1_000);
    expect(await alerts.count()).toBe(0);

    // The turn's end is a polite toast that goes by itself (8 s).
    await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
    const finished = polite.filter({ hasText: 'turn finished' });
    await finished.waitFor({ timeout: E2E_WAIT_MS });
    expect(await finished.first().textContent()).toMatch(/^toaster turn finished in \d+ s×$/);
    await finished.waitFor({ state: 'detached', timeout: 20_000 });

    // The next approval's toast opens its session.
    const second = await nextApproval(e, session.id);
    await alerts.first().waitFor({ timeout: E2E_WAIT_MS });
    await alerts.first().getByRole('link').click();
    await page.waitForURL(`${e.url}/sessions/${session.id}`);
    await page.getByRole('heading', { name: 'toaster' }).waitFor();
    expect(await alerts.count()).toBe(0);

    // While the session is on screen its own events are not toasted: its header says them.
    await e.client.call('answerApproval', { params: { id: second.id }, body: { button: 1, fingerprint: second.fingerprint } });
    await e.waitForState(session.id, 'idle');
    await settle(1_000);
    expect(await polite.count()).toBe(0);

    // Back on the overview: an approval answered elsewhere leaves no stale toast.
    await page.getByRole('link', { name: 'Sessions' }).click();
    const third = await nextApproval(e, session.id);
    await alerts.first().waitFor({ timeout: E2E_WAIT_MS });
    await e.client.call('answerApproval', { params: { id: third.id }, body: { button: 1, fingerprint: third.fingerprint } });
    await alerts.first().waitFor({ state: 'detached', timeout: 10_000 });
    await e.waitForState(session.id, 'idle');

    await e.client.call('killSession', { params: { id: session.id } });
    // A kill through the API names who killed it (the toast used to read "exited on SIGHUP").
    const exited = polite.filter({ hasText: 'killed by' });
    await exited.waitFor({ timeout: E2E_WAIT_MS });
    await exited.getByRole('button', { name: /^Dismiss: toaster, killed by \S+/ }).click();
    await exited.waitFor({ state: 'detached', timeout: 5_000 });
  }, 240_000);
});
