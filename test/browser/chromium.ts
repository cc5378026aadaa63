/**
 * Debian's Chromium driven by playwright-core for the browser tests: headless, no sandbox (CI
 * runs as root), no GPU, and none of the background traffic Chromium would otherwise send into
 * the closed network; a fresh user-data dir per launch, removed on close.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** One axe-core runner for every browser test (kept importable from here). */
export { axeViolations } from './axe.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** One persistent context (the fresh profile is the user-data dir); `options` as for a context. */
export async function launchChromium(options: { viewport?: { width: number; height: number }; bypassCSP?: boolean; hasTouch?: boolean } = {}): Promise<LaunchedChromium> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does it`);
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH, headless: true, args: ARGS, viewport: options.viewport ?? { width: 1280, height: 800 }, bypassCSP: options.bypassCSP ?? false,
    hasTouch: options.hasTouch ?? false,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
