/**
 * The Tasks view (issue 28: the dashboard shows the task tree), in Chromium against the real
 * daemon with demo-agent workers and real tasks made through the API (`createTask`): a task a
 * worker session asked for nests under the task that worker is on; statuses follow
 * `task.updated` live (waiting for a person → done with the result shown) without reading the
 * list again; the worker's pending prompt is answered in place; Cancel asks first and shows the
 * daemon's answer; a session page lists its tasks, linked to the tree; no sideways scroll at
 * 390×844; axe finds nothing serious.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail, Task } from '../../src/protocol/index.js';
import { axeViolations } from './axe.js';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

/** Long enough to need more than one line at any width, with a token that cannot wrap. */
const LONG_TEXT = `hello, and then read ${'a-very-long-unbroken-path-segment/'.repeat(6)} and say what is in it ${'word '.repeat(40)}`;

const rowOf = (page: Page, task: Task) => page.locator(`li.task[data-task-id="${task.id}"]`);

async function waitForStatus(page: Page, task: Task, status: Task['status']): Promise<void> {
  await page.locator(`li.task[data-task-id="${task.id}"][data-status="${status}"]`).waitFor({ timeout: E2E_WAIT_MS });
}

async function waitForTask(e: DashboardE2e, task: Task, status: Task['status']): Promise<Task> {
  let last: Task | undefined;
  return waitFor(async () => {
    last = await e.client.call('getTask', { params: { id: task.id } });
    if (last.status === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return undefined;
  }, E2E_WAIT_MS, () => `task ${task.id} ${status} (last: ${last?.status ?? 'none'})`);
}

async function hasNoSidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}

/** What sticks out on the right, to say where when the page scrolls sideways. */
async function widerThanPage(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .slice(0, 8).map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').slice(0, 20)}"`));
}

describe('the Tasks view', () => {
  let e: DashboardE2e;
  let lead: SessionDetail;
  let helper: SessionDetail;
  let tester: SessionDetail;
  let spare: SessionDetail;
  /** GET /api/v1/tasks requests the page made: the list is read once, events do the rest. */
  const listReads: string[] = [];

  beforeAll(async () => {
    e = await startDashboardE2e({ viewport: { width: 1440, height: 900 } });
    [lead, helper, tester, spare] = await Promise.all(['lead', 'helper', 'tester', 'spare'].map((name) => e.createIdleSession({ name })));
    e.page.on('request', (request) => { if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/v1/tasks') listReads.push(request.url()); });
  }, 240_000);
  afterAll(async () => { await e?.close(); }, 60_000);

  it('opens from the nav, empty at first', async () => {
    await e.page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).click();
    await e.page.getByRole('heading', { name: 'Tasks' }).waitFor({ timeout: E2E_WAIT_MS });
    await e.page.getByText('No tasks yet').waitFor({ timeout: E2E_WAIT_MS });
    expect(new URL(e.page.url()).pathname).toBe('/tasks');
  });

  let root: Task;
  let child: Task;
  it('nests a task its worker asked for under that task, both arriving live', async () => {
    root = await e.client.call('createTask', { body: { text: 'hello', worker: { session: lead.id }, timeout_ms: 120_000 } });
    await waitForStatus(e.page, root, 'done');
    // The lead's worker asks the helper: the lead is the asker, its task the parent.
    child = await e.client.call('createTask', { body: { text: LONG_TEXT, worker: { session: helper.id }, parent_session_id: lead.id, timeout_ms: 120_000 } });
    const nested = rowOf(e.page, root).locator(`ol.task-children > li.task[data-task-id="${child.id}"]`);
    await nested.waitFor({ timeout: E2E_WAIT_MS });
    expect(await e.page.locator('ol.task-tree > li.task').count()).toBe(1);
    // Asker → worker, each a link to its session page.
    const who = nested.locator('.task-who').first();
    expect(await who.getByRole('link', { name: 'lead' }).getAttribute('href')).toBe(`/sessions/${lead.id}`);
    expect(await who.getByRole('link', { name: 'helper' }).getAttribute('href')).toBe(`/sessions/${helper.id}`);
    expect(await rowOf(e.page, root).locator('.task-who').first().textContent()).toContain('admin');
    await waitForStatus(e.page, child, 'done');
  });

  it('shows the text on one line and all of it when opened, the result collapsed and rendered', async () => {
    const row = rowOf(e.page, child);
    const line = row.locator('.task-line').first();
    const collapsed = await line.boundingBox();
    await row.locator('.task-text summary').first().click();
    const opened = await line.boundingBox();
    expect(opened!.height).toBeGreaterThan(collapsed!.height * 2);
    const result = row.locator('details.task-result').first();
    expect(await result.getAttribute('open')).toBeNull();
    await result.locator('summary').click();
    const done = await waitForTask(e, child, 'done');
    expect(done.result!.text).toMatch(/Hello!/);
    expect((await result.locator('.task-result-text').textContent())!.replace(/\s+/g, '')).toContain('Hello!');
  });

  let tests: Task;
  it('follows a task live: waiting for a person, the prompt answered in place, done with its result', async () => {
    tests = await e.client.call('createTask', { body: { text: 'run the tests', worker: { session: tester.id }, timeout_ms: 120_000 } });
    await waitForStatus(e.page, tests, 'waiting_for_person');
    const row = rowOf(e.page, tests);
    expect(await row.locator('.task-status').textContent()).toContain('waiting for a person');
    await row.getByText('1 pending approval').waitFor({ timeout: E2E_WAIT_MS });
    expect(await row.getByRole('link', { name: 'answer in the inbox' }).getAttribute('href')).toBe('/inbox');
    await row.locator('.session-prompt-compact').getByRole('button', { name: /^1\b.*Yes/ }).first().click();
    await waitForStatus(e.page, tests, 'done');
    await row.locator('details.task-result summary').click();
    await row.locator('.task-result-text').getByText(/12 tests pass/).waitFor({ timeout: E2E_WAIT_MS });
    expect(listReads).toHaveLength(1);
  });

  it('cancels a task after a confirmation and shows the daemon\'s answer', async () => {
    const held = await e.client.call('createTask', { body: { text: 'run the tests', worker: { session: spare.id }, timeout_ms: 120_000 } });
    await waitForStatus(e.page, held, 'waiting_for_person');
    const row = rowOf(e.page, held);
    await row.getByRole('button', { name: `Cancel task ${held.id}` }).click();
    // Asked first: nothing is cancelled until confirmed.
    await row.getByText('Stop following this task?').waitFor({ timeout: E2E_WAIT_MS });
    expect((await e.client.call('getTask', { params: { id: held.id } })).status).toBe('waiting_for_person');
    await row.getByRole('button', { name: 'Confirm cancel' }).click();
    await row.getByRole('status').filter({ hasText: 'The daemon answered: cancelled' }).waitFor({ timeout: E2E_WAIT_MS });
    await waitForStatus(e.page, held, 'cancelled');
    expect((await e.client.call('getTask', { params: { id: held.id } })).status).toBe('cancelled');
    // The worker's prompt is still up, but no longer this task's to answer.
    expect((await e.client.call('getSession', { params: { id: spare.id } })).modal).not.toBeNull();
    expect(await row.getByText('pending approval').count()).toBe(0);
    // A finished task offers no cancel.
    expect(await rowOf(e.page, tests).getByRole('button', { name: /Cancel task/ }).count()).toBe(0);
  });

  it('lists a session\'s tasks on its page, each linked to its row in the tree', async () => {
    await e.page.goto(`${e.url}/sessions/${lead.id}`);
    const line = e.page.locator('p.session-tasks');
    await line.waitFor({ timeout: E2E_WAIT_MS });
    expect(await line.textContent()).toMatch(/works on: hello \(done\).*asked for: hello, and then read/);
    await line.getByRole('link', { name: /^hello, and then read/ }).click();
    await e.page.locator(`li.task.task-target[data-task-id="${child.id}"]`).waitFor({ timeout: E2E_WAIT_MS });
    expect(new URL(e.page.url()).pathname).toBe('/tasks');
  });

  it('passes axe, and at 390×844 scrolls no sideways', async () => {
    expect(await axeViolations(e.page)).toEqual([]);
    await e.page.setViewportSize({ width: 390, height: 844 });
    await e.page.goto(`${e.url}/tasks`);
    await rowOf(e.page, child).waitFor({ timeout: E2E_WAIT_MS });
    for (const summary of await e.page.locator('li.task summary').all()) await summary.click();
    expect(await hasNoSidewaysScroll(e.page), `wider than the page: ${(await widerThanPage(e.page)).join(', ')}`).toBe(true);
    expect(await axeViolations(e.page)).toEqual([]);
  });
});
