/**
 * Recordings in Chromium against a real daemon with a real demo-agent session: press Record in
 * the debugger, send a message, press Stop → the playback page of the new recording; the list
 * shows it; the state timeline (replayed on the daemon) has the turn; scrubbing to an instant
 * inside `busy` shows the state of the timeline there, its screen and the `specterm explain`
 * report; no serious accessibility violation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { axeViolations } from './chromium.js';
import { openDaemonPage, type DaemonPage } from './daemon-page.js';

const WAIT_MS = 60_000;
let t: DaemonPage;
let client: DaemonClient;
let page: Page;
let sessionId: string;

beforeAll(async () => {
  t = await openDaemonPage('recordings-test', 'input', WAIT_MS);
  ({ client, page, sessionId } = t);
}, 120_000);

afterAll(async () => { await t?.close(); }, 60_000);

describe('recordings in Chromium against a real daemon', () => {
  it('records from the debugger, lists the recording and plays it back with its state timeline', async () => {
    await page.goto(new URL(`/sessions/${sessionId}/debug`, page.url()).href);
    await page.getByRole('button', { name: 'Record' }).click();
    await page.getByRole('button', { name: /^Stop recording / }).waitFor();
    const sent = await client.call('sendMessage', { params: { id: sessionId }, body: { text: 'hello there', wait: 'idle', timeout_ms: 45_000 } });
    expect(sent.delivery).toBe('idle');
    await page.getByRole('button', { name: /^Stop recording / }).click();
    await page.waitForURL(/\/recordings\/[A-Za-z0-9_-]+$/);
    const name = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    await page.locator('.state-timeline .segment[data-state="busy"]').waitFor({ timeout: WAIT_MS });
    const timeline = await page.locator('.state-timeline .segment').evaluateAll((items) => items.map((li) => li.getAttribute('data-state')));
    expect(timeline[0]).toBe('starting');
    expect(timeline).toEqual(expect.arrayContaining(['idle', 'busy', 'done']));

    await page.getByRole('link', { name: 'Recordings' }).click();
    await page.locator(`.recordings li[data-recording="${name}"] a.recording-title`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.locator(`.recordings li[data-recording="${name}"] a.recording-title`).click();
    await page.locator('.state-timeline .segment[data-state="busy"]').waitFor({ timeout: WAIT_MS });
  });

  it('explains the scrubbed instant: the state is the timeline\'s there, with its screen and the explain report', async () => {
    const segments = await page.locator('.state-timeline .segment').evaluateAll((items) => items.map((li) => ({ state: li.getAttribute('data-state'), at: Number(li.getAttribute('data-at-ms')) })));
    const busy = segments.findIndex((s) => s.state === 'busy');
    const instant = Math.round((segments[busy]!.at + segments[busy + 1]!.at) / 2 / 10) * 10;
    await page.getByRole('slider', { name: 'Instant in the recording' }).fill(String(instant));
    const explain = page.locator(`.explain[data-explained-at="${instant}"]`);
    await explain.waitFor({ timeout: WAIT_MS });
    expect(await explain.locator('[role="status"] [data-state]').getAttribute('data-state')).toBe('busy');
    expect(await page.locator('.segment-current').getAttribute('data-state')).toBe('busy');
    expect(await explain.locator('.screen-overlay').textContent()).toContain('hello there');
    expect(await explain.locator('.transition[data-to="done"]').count()).toBe(1);
    const report = await explain.locator('.explain-text').textContent();
    expect(report).toMatch(/^At \d+\.\d{3} s \(recording ends at/);
    expect(report).toContain('State: busy');
    await explain.locator('summary').click();
    expect(await axeViolations(page)).toEqual([]);
  });
});
