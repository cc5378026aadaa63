/**
 * The dashboard end to end: the real built daemon (`node bin/specterm.js serve --port 0` over
 * dist/, fresh private runtime and state dirs, a temp HOME) with real demo-agent sessions, and
 * Debian's Chromium paired by the pairing URL the daemon printed (a fresh user-data dir). No
 * fixture handler anywhere: what the page shows is what the daemon serves.
 * Call `close()` in afterAll: it closes the browser, stops the daemon, its PTY host and every
 * agent, and removes the dirs.
 */
import type { Page } from 'playwright-core';
import type { DaemonClient } from '../../src/client/index.js';
import type { CreateSessionRequest, Scope, SessionDetail } from '../../src/protocol/index.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';

export { waitFor };

/** The pairing URL `serve` prints: the daemon's origin, the code in the fragment. */
const PAIRING_URL = /(http:\/\/127\.0\.0\.1:\d+\/#pair=[A-Za-z0-9_-]+)/;

/** Generous: two CPU cores shared by several agents, a Node TUI starting in a real PTY. */
export const E2E_WAIT_MS = 45_000;

export interface DashboardE2e {
  daemon: RunningDaemon;
  dirs: DaemonDirs;
  /** Admin client of the daemon (the test's own view, to compare the page against). */
  client: DaemonClient;
  url: string;
  browser: LaunchedChromium;
  /** A page already paired and showing the overview. */
  page: Page;
  /** Creates a demo-agent session in the work dir (over the API) and waits until it is idle. */
  createIdleSession(body?: Partial<CreateSessionRequest>): Promise<SessionDetail>;
  /** Waits until the daemon reports `stateId` for session `id`. */
  waitForState(id: string, stateId: string, timeoutMs?: number): Promise<SessionDetail>;
  /** A fresh pairing URL (admin call) for a second device. */
  pairingUrl(deviceName: string, scope: Scope): Promise<string>;
  close(): Promise<void>;
}

export interface DashboardE2eOptions {
  /** The scope of the pairing URL `serve` prints (`--pair-scope`). Default input. */
  pairScope?: Scope;
  /** Pair the page by an admin-made pairing for this device instead of the printed URL. */
  pairAs?: { deviceName: string; scope: Scope };
  viewport?: { width: number; height: number };
  hasTouch?: boolean;
}

export async function startDashboardE2e(options: DashboardE2eOptions = {}): Promise<DashboardE2e> {
  const dirs = makeDirs();
  const daemon = await startDaemon(dirs, ['--pair-scope', options.pairScope ?? 'input']);
  let browser: LaunchedChromium | undefined;
  try {
    const { pairAs } = options;
    let pairingUrl: string;
    if (pairAs) {
      pairingUrl = (await daemon.client.call('createPairing', { body: { device_name: pairAs.deviceName, scope: pairAs.scope } })).url;
    } else {
      await waitFor(() => PAIRING_URL.test(daemon.stdout()), E2E_WAIT_MS, 'the pairing URL on serve\'s stdout');
      pairingUrl = PAIRING_URL.exec(daemon.stdout())![1]!;
    }
    browser = await launchChromium({ viewport: options.viewport, hasTouch: options.hasTouch });
    const page = await browser.context.newPage();
    await page.goto(pairingUrl);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor({ timeout: E2E_WAIT_MS });
    const client = daemon.client;
    const waitForState = async (id: string, stateId: string, timeoutMs = E2E_WAIT_MS) => {
      let last: SessionDetail | undefined;
      await waitFor(async () => {
        last = await client.call('getSession', { params: { id } });
        if (last.state?.id === stateId) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return false;
      }, timeoutMs, () => `session ${id} in state ${stateId} (last: ${last?.state?.id ?? 'none'})`);
      return last!;
    };
    const launched = browser;
    return {
      daemon, dirs, client, url: daemon.url, browser: launched, page,
      createIdleSession: async (body = {}) => {
        const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, ...body } });
        return waitForState(created.id, 'idle');
      },
      waitForState,
      pairingUrl: async (deviceName, scope) => (await client.call('createPairing', { body: { device_name: deviceName, scope } })).url,
      close: async () => {
        await launched.close().catch(() => {});
        await stopAll();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => {});
    await stopAll();
    throw error;
  }
}
