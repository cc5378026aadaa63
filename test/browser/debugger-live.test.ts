/**
 * The live spec debugger in Chromium against a real daemon (`specterm serve` over dist/) with a
 * real demo-agent session: the countdown of `done → idle` (an `elapsed_ms: 1500` guard) ticks
 * down on the page and reaches zero when the daemon fires the transition; the graph then marks
 * idle and the done → idle edge; the sections are drawn over their rows; a snapshot shows the
 * screen and the evaluation of its moment; no serious accessibility violation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { axeViolations } from './chromium.js';
import { openDaemonPage, type DaemonPage } from './daemon-page.js';

const WAIT_MS = 60_000;

let t: DaemonPage;
let client: DaemonClient;
let page: Page;
let sessionId: string;

beforeAll(async () => {
  t = await openDaemonPage('debugger-test', 'read', WAIT_MS);
  ({ client, page, sessionId } = t);
}, 120_000);

afterAll(async () => { await t?.close(); }, 60_000);

interface Sample { t: number; state: string | null; remaining: number | null; dueAt: number | null }

describe('the live debugger in Chromium against a real daemon', () => {
  it('shows the idle state, its transitions, the sections over the screen and the graph', async () => {
    await page.goto(new URL(`/sessions/${sessionId}/debug`, page.url()).href);
    await page.locator('.debug-state [data-state="idle"]').waitFor({ timeout: WAIT_MS });
    expect(await page.locator('.transition').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-to')))).toEqual(expect.arrayContaining(['busy', 'approval', 'picker']));
    await page.locator('.section-band[data-section="footer"]').waitFor();
    const footer = await page.locator('.screen-overlay').first().evaluate((overlay) => {
      const band = overlay.querySelector<HTMLElement>('.section-band[data-section="footer"]')!;
      const [from] = band.dataset.rows!.split('-').map(Number);
      const row = overlay.querySelectorAll<HTMLElement>('.screen-row')[from!]!;
      return { bandTop: band.getBoundingClientRect().top, rowTop: row.getBoundingClientRect().top, rowText: row.textContent };
    });
    // The band starts on its first row, and that row is the demo agent's input box.
    expect(Math.abs(footer.bandTop - footer.rowTop)).toBeLessThan(1);
    expect(footer.rowText).toMatch(/[╭─│]/);
    await page.locator('svg.graph g[data-current="true"][data-state="idle"]').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('ticks the done → idle countdown down to zero as the daemon fires the transition', async () => {
    // Sample the page every 20 ms: the state shown and the first countdown of the row to idle.
    await page.evaluate(() => {
      const samples: Sample[] = [];
      (globalThis as any).debuggerSamples = samples;
      setInterval(() => {
        const bar = document.querySelector<HTMLElement>('.transition[data-to="idle"] .countdown');
        samples.push({
          t: Date.now(),
          state: document.querySelector<HTMLElement>('.debug-state [data-state]')?.dataset.state ?? null,
          remaining: bar ? Number(bar.dataset.remainingMs) : null,
          dueAt: bar ? Number(bar.dataset.dueAt) : null,
        });
      }, 20);
    });
    const sent = await client.call('sendMessage', { params: { id: sessionId }, body: { text: 'hello there', wait: 'idle', timeout_ms: 45_000 } });
    expect(sent.delivery).toBe('idle');
    await page.locator('.debug-state [data-state="idle"]').waitFor();
    await waitFor(async () => (await page.evaluate(() => (globalThis as any).debuggerSamples.at(-1).state)) === 'idle', 10_000, 'the page to show idle');
    const samples: Sample[] = await page.evaluate(() => (globalThis as any).debuggerSamples);
    const lastDone = samples.map((s) => s.state).lastIndexOf('done');
    expect(lastDone).toBeGreaterThan(0);
    const counting = samples.slice(0, lastDone + 1).filter((s) => s.state === 'done' && s.remaining !== null);
    expect(counting.length).toBeGreaterThan(10);
    // It ticked: from most of the 1.5 s window down to zero, never climbing back by more than a re-estimate of the clock.
    expect(counting[0]!.remaining!).toBeGreaterThan(500);
    expect(counting[0]!.remaining!).toBeLessThanOrEqual(1500);
    for (let i = 1; i < counting.length; i += 1) expect(counting[i]!.remaining!).toBeLessThanOrEqual(counting[i - 1]!.remaining! + 60);
    // It ran down to the firing: the bar was at zero, or within 300 ms of it, when the page left done.
    // (On a loaded box the clock-offset estimate can be off by a share of a round trip, and the
    // idle event can then overtake the last 20 ms samples: exactly 0 is not always sampled.)
    const last = counting.at(-1)!;
    expect(last.remaining, 'the countdown ran down to the firing while the page still showed done').toBeLessThanOrEqual(300);
    const firstIdle = samples.slice(lastDone).find((s) => s.state === 'idle')!;
    expect(firstIdle.t - (counting.find((s) => s.remaining === 0) ?? last).t).toBeLessThan(1000);
    // The due time the page counted down to is when the daemon's driver fired done → idle.
    const moments = await client.call('getDebugMoments', { params: { id: sessionId } });
    const fired = moments.history.filter((h) => h.via === 'done→idle').at(-1);
    expect(fired).toBeDefined();
    expect(Math.abs(fired!.at - counting.at(-1)!.dueAt!)).toBeLessThan(300);
    // The graph follows: idle is current and the done → idle edge is the last one taken.
    await page.locator('svg.graph g[data-current="true"][data-state="idle"]').waitFor();
    const graph = await client.call('getSpecGraph', { params: { id: sessionId } });
    const key = (id: string) => graph.nodes.find((n) => n.id === id)!.key;
    await page.locator(`svg.graph line[data-last="true"][data-edge="${key('done')}->${key('idle')}"]`).waitFor();
  });

  it('shows a past moment: the screen the transition fired on and its evaluation', async () => {
    const moments = await client.call('getDebugMoments', { params: { id: sessionId } });
    const snapshot = moments.snapshots.filter((s) => s.from === 'busy' && s.to === 'done').at(-1)!;
    expect(snapshot.screen?.join('\n')).toMatch(/hello there/);
    await page.locator(`button[data-snapshot-at="${snapshot.at}"]`).first().click();
    const moment = page.locator(`.moment[data-moment-at="${snapshot.at}"]`);
    await moment.waitFor();
    expect(await moment.locator('.transition[data-to="done"] .verdict').textContent()).toBe('[fires]');
    expect(await moment.locator('.screen-overlay').textContent()).toContain('hello there');
    expect(await axeViolations(page)).toEqual([]);
  });
});
