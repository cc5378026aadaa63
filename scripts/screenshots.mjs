#!/usr/bin/env node
/**
 * `npm run screenshots`: the dashboard's main views as PNGs in docs/screenshots/, taken in
 * Debian's Chromium against a throw-away daemon (./start-daemon.mjs) with demo-agent sessions.
 * Captures whichever views this build has: a route that is not there yet is skipped and said.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDemoDaemon } from './start-daemon.mjs';

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const daemon = await startDemoDaemon();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'st-shots-'));
let context;
try {
  const ids = [await daemon.createDemoSession('builder'), await daemon.createDemoSession('asker'), await daemon.createDemoSession('reviewer')];
  await daemon.client.call('sendMessage', { params: { id: ids[1] }, body: { text: 'run the tests', wait: 'started', timeout_ms: 45_000 } });
  context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: ARGS, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(await daemon.createPairing('screenshots', 'admin'));
  await page.locator('li.session').nth(2).waitFor({ timeout: 30_000 });
  await page.locator('li.session[data-badge="approval"]').waitFor({ timeout: 30_000 });
  fs.mkdirSync(OUT, { recursive: true });
  const shoot = async (name) => { await page.screenshot({ path: path.join(OUT, `${name}.png`) }); process.stdout.write(`screenshot=${name}.png\n`); };
  await shoot('overview');
  const views = [['session', `/sessions/${ids[1]}`, '.xterm'], ['inbox', '/inbox', '[data-view="inbox"]'], ['debugger', `/sessions/${ids[1]}/debug`, '[data-view="debugger"]'], ['recordings', '/recordings', '[data-view="recordings"]']];
  for (const [name, route, selector] of views) {
    await page.goto(`${daemon.url}${route}`);
    try {
      await page.locator(selector).first().waitFor({ timeout: 10_000 });
      await page.waitForTimeout(500);
      await shoot(name);
    } catch {
      process.stdout.write(`skipped=${name} (${route} shows no ${selector} in this build)\n`);
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${daemon.url}/`);
  await page.locator('li.session').nth(2).waitFor({ timeout: 30_000 });
  await shoot('phone');
} finally {
  await context?.close();
  fs.rmSync(profile, { recursive: true, force: true });
  await daemon.stop();
}
