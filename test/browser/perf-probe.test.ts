/**
 * The dashboard benchmark's measuring hook (bench/dashboard/paint-probe.mjs) works on the real
 * page: installed before the page's scripts, it sees the terminal the session view opens, logs
 * the frame that first drew the daemon's screen, and times a stamped line of a streaming agent
 * (bench/dashboard/lag-agent.mjs) when xterm draws it. No timing is asserted: the benchmark
 * (`npm run bench:dashboard`) reports the figures; this only proves what it measures exists.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPaintProbe, type PaintProbe } from '../../bench/dashboard/paint-probe.mjs';
import { E2E_WAIT_MS, startDashboardE2e, waitFor, type DashboardE2e } from './e2e-harness.js';

const LAG_SPEC = path.resolve('bench/dashboard/lag-agent.spec.json');
let e: DashboardE2e;

beforeAll(async () => {
  e = await startDashboardE2e();
  await e.browser.context.addInitScript(installPaintProbe);
}, 150_000);
afterAll(async () => { await e?.close(); }, 60_000);

const probe = () => e.page.evaluate(() => (globalThis as unknown as { __paintProbe: PaintProbe }).__paintProbe);

describe('the paint probe of bench:dashboard', () => {
  it('logs the first frame that drew the session\'s screen', async () => {
    const session = await e.createIdleSession({ name: 'painted' });
    const screen = await e.client.call('getScreen', { params: { id: session.id } });
    const row = screen.content.split('\n').map((l) => l.trim()).find((l) => l.length >= 8)!.slice(0, 40);
    await e.page.goto(`${e.url}/sessions/${session.id}`);
    const painted = await waitFor(async () => (await probe()).renderLog.find((r) => r.text.includes(row)), E2E_WAIT_MS, `a frame showing "${row}"`);
    expect(painted.atMs).toBeGreaterThan(0);
    // The frame is one the page drew after it started: its time is since the navigation.
    expect(painted.atMs).toBeLessThan(await e.page.evaluate(() => performance.now()));
  }, 120_000);

  it('sees a stamped line of a streaming agent drawn, once, with its lag from the agent\'s clock', async () => {
    const created = await e.client.call('createSession', { body: { spec: LAG_SPEC, cwd: e.dirs.work, name: 'stamps' } });
    await e.waitForState(created.id, 'streaming');
    await e.page.goto(`${e.url}/sessions/${created.id}`);
    const stamps = await waitFor(async () => {
      const seen = (await probe()).stamps.filter((s) => s.sessionId === created.id);
      return seen.length >= 5 ? seen : undefined;
    }, E2E_WAIT_MS, 'five painted stamps');
    const numbers = stamps.map((s) => s.n);
    expect(new Set(numbers).size, 'each stamp is recorded the first time it is drawn only').toBe(numbers.length);
    for (const s of stamps) {
      expect(Number.isFinite(s.lagMs)).toBe(true);
      // One machine, one wall clock: a line is never drawn before it was written.
      expect(s.lagMs).toBeGreaterThan(-1);
    }
    // What was drawn is what the agent wrote: the page is never ahead of the daemon's screen.
    const screen = (await e.client.call('getScreen', { params: { id: created.id } })).content;
    const onDaemon = [...screen.matchAll(/STAMP (\d+) \d+\.\d{3}/g)].map((m) => Number(m[1]));
    expect(Math.max(...onDaemon)).toBeGreaterThanOrEqual(Math.max(...numbers));
  }, 120_000);
});
