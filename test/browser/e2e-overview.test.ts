/**
 * The overview end to end against the real daemon: a browser paired by the URL `specterm serve`
 * printed sees real demo-agent sessions appear and go idle live (no reload), with their time in
 * state, the modal's summary and the last notification; filters by label; moves with j/k,
 * opens with Enter, goes to the inbox with `a`; follows a turn from its events without reloading
 * the list for each state change; kills and removes a session.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../src/protocol/index.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

/** Counts the page's GET requests to `path` until `stop()`. */
function countGets(page: Page, path: string): { count(): number; stop(): void } {
  let count = 0;
  const onRequest = (request: Request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === path) count += 1;
  };
  page.on('request', onRequest);
  return { count: () => count, stop: () => { page.off('request', onRequest); } };
}

let e: DashboardE2e;
let core: SessionDetail;
let web: SessionDetail;

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

  it('shows the time in state, and filters by label', async () => {
    core = await e.createIdleSession({ name: 'core-one', labels: { team: 'core' } });
    web = await e.createIdleSession({ name: 'web-one', labels: { team: 'web', ci: '' } });
    const page = e.page;
    await page.locator(`li.session[data-session-id="${web.id}"][data-badge="idle"]`).waitFor({ timeout: E2E_WAIT_MS });
    // The spec's Starting state is idle too (same badge): the label tells them apart.
    await expect.poll(() => page.locator(`li.session[data-session-id="${web.id}"] .time-in-state`).textContent(), { timeout: E2E_WAIT_MS }).toMatch(/^\d+ (s|min) in Idle$/);
    const filter = page.getByLabel('Filter by label');
    const shown = () => page.locator('li.session').evaluateAll((items) => items.map((li) => li.getAttribute('data-session-id')));
    await filter.fill('team=web');
    await expect.poll(shown).toEqual([web.id]);
    await filter.fill('ci');
    await expect.poll(shown).toEqual([web.id]);
    await filter.fill('team=nobody');
    await page.getByText('No session has the labels').waitFor();
    await filter.fill('');
    await expect.poll(async () => (await shown()).length).toBe(3);
  }, 120_000);

  it('puts the session with a modal first, with the modal summary and the last notification', async () => {
    const page = e.page;
    await e.client.call('sendMessage', { params: { id: web.id }, body: { text: 'run the tests', wait: 'started' } });
    const approval = await waitFor(async () => (await e.client.call('listApprovals')).approvals[0], E2E_WAIT_MS, 'the approval');
    const first = page.locator('li.session').first();
    await page.locator(`li.session[data-session-id="${web.id}"][data-badge="approval"]`).waitFor({ timeout: E2E_WAIT_MS });
    expect(await first.getAttribute('data-session-id')).toBe(web.id);
    expect(await first.locator('.modal-title').textContent()).toBe(`${approval.title} · approval · ${approval.buttons.length} choices`);
    await expect.poll(() => first.locator('.last-note').textContent()).toMatch(new RegExp(`^Last: approval needed: ${approval.title!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · \\d+ s ago$`));
    expect(await page.locator('nav[aria-label="Views"] .count').textContent()).toBe('1');
    await e.client.call('answerApproval', { params: { id: approval.id }, body: { button: 1, fingerprint: approval.fingerprint } });
    await expect.poll(() => page.locator(`li.session[data-session-id="${web.id}"] .last-note`).textContent(), { timeout: E2E_WAIT_MS }).toMatch(/^Last: (answered "Yes"|turn finished in \d+ s)/);
    await e.waitForState(web.id, 'idle');
  }, 120_000);

  it('moves with j/k, opens with Enter, and goes to the inbox with a', async () => {
    const page = e.page;
    await page.goto(`${e.url}/`);
    await page.locator('li.session').nth(2).waitFor({ timeout: E2E_WAIT_MS });
    // The order follows the states: read it once every session has settled in Idle.
    await expect.poll(() => page.locator('li.session .time-in-state').allTextContents(), { timeout: E2E_WAIT_MS })
      .toEqual([expect.stringMatching(/ in Idle$/), expect.stringMatching(/ in Idle$/), expect.stringMatching(/ in Idle$/)]);
    const ids = await page.locator('li.session').evaluateAll((items) => items.map((li) => li.getAttribute('data-session-id')!));
    expect(await page.locator('li.session.selected').getAttribute('data-session-id')).toBe(ids[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.locator('li.session.selected').getAttribute('data-session-id')).toBe(ids[1]);
    // The selection follows the session, not its position: when the first session starts
    // working it sinks below the idle ones, and the selected session stays selected.
    await e.client.call('sendMessage', { params: { id: ids[0] }, body: { text: 'give me a long answer', wait: 'started' } });
    await expect.poll(() => page.locator('li.session').first().getAttribute('data-session-id'), { timeout: E2E_WAIT_MS }).not.toBe(ids[0]);
    expect(await page.locator('li.session.selected').getAttribute('data-session-id')).toBe(ids[1]);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${e.url}/sessions/${ids[1]}`);
    await page.locator(`section.session-view[data-session-id="${ids[1]}"]`).waitFor({ timeout: E2E_WAIT_MS });
    await page.goBack();
    await page.locator('li.session').first().waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('a');
    await page.waitForURL(`${e.url}/inbox`);
    await page.getByRole('heading', { name: 'Approvals inbox' }).waitFor();
  }, 90_000);

  it('follows a turn from its state events alone, without reloading the whole list for each', async () => {
    const page = e.page;
    await page.goto(`${e.url}/`);
    const badge = (name: string) => page.locator(`li.session[data-session-id="${web.id}"][data-badge="${name}"]`);
    await badge('idle').waitFor({ timeout: E2E_WAIT_MS });
    const lists = countGets(page, '/api/v1/sessions');
    const from = Date.now();
    try {
      await e.client.call('sendMessage', { params: { id: web.id }, body: { text: 'give me a long answer', wait: 'started' } });
      await badge('generating').waitFor({ timeout: E2E_WAIT_MS });
      await e.waitForState(web.id, 'idle');
      await badge('idle').waitFor({ timeout: E2E_WAIT_MS });
      await expect.poll(() => page.locator(`li.session[data-session-id="${web.id}"] .time-in-state`).textContent(), { timeout: E2E_WAIT_MS }).toMatch(/ in Idle$/);
    } finally {
      lists.stop();
    }
    // Busy, idle and the finished turn each reloaded the list before; now they patch it, and at
    // most one reconciling reload comes per 10 s (plus, at most, the page's own first reload
    // after it subscribed, if that came late).
    expect(lists.count()).toBeLessThanOrEqual(1 + Math.floor((Date.now() - from) / 10_000));
  }, 90_000);

  it('opens afresh without the event history: no event older than its list arrives, yet each last notification shows', async () => {
    const page = e.page;
    // Every event message the page's socket receives, by the time the daemon stamped it.
    const received: Array<{ seq: number; at: number; topic: string }> = [];
    const onSocket = (ws: import('playwright-core').WebSocket) => ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const message = JSON.parse(payload) as { type: string; topic?: string; event?: { seq: number; at: number } };
      if (message.type === 'event' && message.event) received.push({ seq: message.event.seq, at: message.event.at, topic: message.topic! });
    });
    page.on('websocket', onSocket);
    const openedAt = Date.now();
    try {
      await page.goto(`${e.url}/`);
      const row = page.locator(`li.session[data-session-id="${web.id}"]`);
      // The last turn ended before the page opened: its note comes with the list, not from a replay.
      await expect.poll(() => row.locator('.last-note').textContent(), { timeout: E2E_WAIT_MS }).toMatch(/^Last: turn finished in \d+ s · \d+ s ago$/);
      // The session's page reads its session once (and once more at most), not once per past event.
      const reads = countGets(page, `/api/v1/sessions/${web.id}`);
      try {
        await row.locator('a').first().click();
        await page.locator(`section.session-view[data-session-id="${web.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
        await page.waitForTimeout(1500);
      } finally {
        reads.stop();
      }
      expect(reads.count()).toBeLessThanOrEqual(2);
    } finally {
      page.off('websocket', onSocket);
    }
    // web's turns, approvals and state changes all happened before; a replay sent them all again.
    expect(received.filter((r) => r.at < openedAt)).toEqual([]);
  }, 90_000);

  it('kills a session after a confirmation (it stays, exited) and removes it after one', async () => {
    const page = e.page;
    await page.goto(`${e.url}/`);
    const row = page.locator(`li.session[data-session-id="${core.id}"]`);
    await row.waitFor({ timeout: E2E_WAIT_MS });
    await row.getByRole('button', { name: 'Kill core-one' }).click();
    await row.getByRole('button', { name: 'Confirm killing core-one' }).click();
    await page.locator(`li.session[data-session-id="${core.id}"][data-badge="exited"]`).waitFor({ timeout: E2E_WAIT_MS });
    expect((await e.client.call('getSession', { params: { id: core.id } })).lifecycle).toBe('exited');
    await row.getByRole('button', { name: 'Remove core-one' }).click();
    expect((await e.client.call('listSessions')).sessions.map((s) => s.id)).toContain(core.id); // not before the confirmation
    await row.getByRole('button', { name: 'Confirm removing core-one' }).click();
    await row.waitFor({ state: 'detached', timeout: E2E_WAIT_MS });
    expect((await e.client.call('listSessions')).sessions.map((s) => s.id)).not.toContain(core.id);
  }, 90_000);
});
