/**
 * The overview end to end: a browser paired by the URL `specterm serve` printed sees a real
 * demo-agent session appear and go idle, live over the WebSocket (no reload).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WAIT_MS, startDashboardE2e, type DashboardE2e } from './e2e-harness.js';

let e: DashboardE2e;

beforeAll(async () => { e = await startDashboardE2e(); }, 120_000);
afterAll(async () => { await e?.close(); }, 60_000);

describe('the overview against a real daemon', () => {
  it('is paired by the printed URL: an HttpOnly cookie, and a device token named "browser" with the input scope', async () => {
    const cookies = await e.browser.context.cookies(e.url);
    expect(cookies).toEqual([expect.objectContaining({ name: 'specterm_session', httpOnly: true, sameSite: 'Strict' })]);
    const { tokens } = await e.client.call('listTokens');
    expect(tokens).toContainEqual(expect.objectContaining({ name: 'browser', scope: 'input' }));
  });

  it('shows a session created over the API and its badge turning idle, without a reload', async () => {
    const session = await e.client.call('createSession', { body: { spec: 'demo-agent', cwd: e.dirs.work, name: 'first' } });
    const row = e.page.locator(`li.session[data-session-id="${session.id}"]`);
    await row.waitFor({ timeout: E2E_WAIT_MS });
    await e.page.locator(`li.session[data-session-id="${session.id}"][data-badge="idle"]`).waitFor({ timeout: E2E_WAIT_MS });
    expect(await row.textContent()).toContain('first');
  }, 90_000);
});
