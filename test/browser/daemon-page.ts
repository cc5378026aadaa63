/**
 * A real daemon (`specterm serve` over dist/) with one idle demo-agent session, and Chromium
 * signed in to its dashboard by a pairing for `deviceName`: the set-up of the browser tests that
 * need the real thing (the debugger, recordings, the spec editor). Built on e2e-harness.ts (one
 * browser set-up); `close()` ends the browser, the daemon, its host and agents.
 */
import type { Page } from 'playwright-core';
import type { DaemonClient } from '../../src/client/index.js';
import type { Scope } from '../../src/protocol/index.js';
import { waitFor, type DaemonDirs } from '../daemon/daemon-harness.js';
import type { LaunchedChromium } from './chromium.js';
import { startDashboardE2e } from './e2e-harness.js';

export interface DaemonPage { dirs: DaemonDirs; client: DaemonClient; browser: LaunchedChromium; page: Page; sessionId: string; close(): Promise<void> }

export async function openDaemonPage(deviceName: string, scope: Scope, waitMs = 60_000): Promise<DaemonPage> {
  const e = await startDashboardE2e({ pairAs: { deviceName, scope } });
  try {
    const { client, dirs } = e;
    const sessionId = (await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30 } })).id;
    await waitFor(async () => (await client.call('getSession', { params: { id: sessionId } })).state?.id === 'idle', waitMs, 'idle');
    return { dirs, client, browser: e.browser, page: e.page, sessionId, close: () => e.close() };
  } catch (error) {
    await e.close();
    throw error;
  }
}
