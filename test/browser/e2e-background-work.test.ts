/**
 * The agent's own work still running, in Chromium against the real daemon and Demo Agent: after
 * `/bg 20` the session is idle with one background job, and its overview card and its page say so
 * beside the status ("1 background job"); when the job ends the badge goes (issue 29 item 4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

describe('background work in the dashboard', () => {
  let e: DashboardE2e;
  let session: SessionDetail;

  beforeAll(async () => {
    e = await startDashboardE2e({ viewport: { width: 1440, height: 900 } });
    session = await e.createIdleSession({ name: 'bg-worker' });
  }, 150_000);
  afterAll(async () => { await e?.close(); }, 60_000);

  it('shows the badge on the card and the page while the job runs, and drops it when it ends', async () => {
    await e.client.call('sendMessage', { params: { id: session.id }, body: { text: '/bg 20', wait: 'accepted' } });
    await waitFor(async () => (await e.client.call('getSession', { params: { id: session.id } })).state?.background?.count === 1, E2E_WAIT_MS, 'the background job reported');
    const card = e.page.locator(`li.session[data-session-id="${session.id}"] .badge-background`);
    await card.waitFor({ timeout: E2E_WAIT_MS });
    expect(await card.textContent()).toContain('1 background job');
    await e.page.goto(`${e.url}/sessions/${session.id}`);
    const onPage = e.page.locator('section.session-view .badge-background');
    await onPage.waitFor({ timeout: E2E_WAIT_MS });
    expect(await onPage.textContent()).toContain('1 background job');
    await onPage.waitFor({ state: 'detached', timeout: E2E_WAIT_MS });
    expect((await e.client.call('getSession', { params: { id: session.id } })).state?.background).toBeUndefined();
  }, 150_000);
});
