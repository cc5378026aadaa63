/**
 * A real daemon (`specterm serve` over dist/) with one idle demo-agent session, and Chromium
 * signed in to its dashboard by a pairing URL: the set-up of the browser tests that need the
 * real thing (the debugger, recordings). `close()` ends the browser, the daemon, its host and agents.
 */
import type { Page } from 'playwright-core';
import type { DaemonClient } from '../../src/client/index.js';
import type { Scope } from '../../src/protocol/index.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs } from '../daemon/daemon-harness.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';

export interface DaemonPage { dirs: DaemonDirs; client: DaemonClient; browser: LaunchedChromium; page: Page; sessionId: string; close(): Promise<void> }

export async function openDaemonPage(deviceName: string, scope: Scope, waitMs = 60_000): Promise<DaemonPage> {
  const dirs = makeDirs();
  const client = (await startDaemon(dirs)).client;
  const sessionId = (await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30 } })).id;
  await waitFor(async () => (await client.call('getSession', { params: { id: sessionId } })).state?.id === 'idle', waitMs, 'idle');
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  const pairing = await client.call('createPairing', { body: { device_name: deviceName, scope } });
  await page.goto(pairing.url);
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();
  return { dirs, client, browser, page, sessionId, close: async () => { await browser.close(); await stopAll(); } };
}
