/**
 * `npm start` (scripts/start.mjs over dist/, which `npm test` builds first, so it does not build
 * again): it starts the daemon with one demo-agent session and prints a pairing URL first;
 * Chromium opening that URL is signed in and lists the demo session; the CLI reaches the same
 * daemon with the exports it prints; no QR code is drawn for a loopback address a phone cannot
 * reach; Ctrl-C (SIGINT) stops the daemon, the PTY host and the agent, and removes the temp dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { killHostsUnder } from '../helpers/host-processes.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/specterm.js', import.meta.url));
const PAIRING_URL = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/#pair=[A-Za-z0-9_-]+)$/m;

let child: ChildProcess | undefined;
let browser: LaunchedChromium | undefined;
/** The script's temp root, once printed: what a failed run leaves is ended by it. */
let root: string | undefined;

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) child.kill('SIGKILL');
  // A SIGKILLed script cannot stop its daemon and detached PTY host: end them by their dirs.
  if (root) {
    await killHostsUnder([root]);
    for (const pid of processesUnder(root)) { try { process.kill(pid, 'SIGKILL'); } catch {} }
  }
});

/** Processes whose environment names `dir` (the daemon, the PTY host and the agents all inherit it). */
function processesUnder(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`SPECTERM_RUNTIME_DIR=${dir}/run`)) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

describe('npm start', () => {
  it('prints a pairing URL that signs Chromium in to a daemon with the demo session; Ctrl-C stops it all', async () => {
    child = spawn(process.execPath, [START, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    await expect.poll(() => PAIRING_URL.test(out) && out.includes('Ctrl-C stops it.'), { timeout: 90_000, interval: 100 }).toBe(true);
    const url = PAIRING_URL.exec(out)![1]!;
    root = /everything lives in (\/\S+),/.exec(out)![1]!;
    const sessionId = /session "demo" \((s_\S+)\)/.exec(out)![1]!;
    // What a first-time user needs comes first: the URL is the first thing said, with no build figures.
    expect(out.split('\n')[0]).toMatch(/^npm start: open the dashboard/);
    expect(out).not.toMatch(/gzip_bytes|building first/);
    // A QR code of http://127.0.0.1 could never work on a phone: none is drawn, and it says why.
    expect(out).not.toContain('▀');
    expect(out).toMatch(/no QR code for a phone: the daemon listens only on this computer \(127\.0\.0\.1:\d+\)/);
    expect(fs.statSync(root).mode & 0o777).toBe(0o700);

    // The CLI meets this daemon with the exports it printed.
    const exports = /export SPECTERM_RUNTIME_DIR=(\S+) SPECTERM_STATE_DIR=(\S+)/.exec(out)!;
    const ls = spawnSync(process.execPath, [BIN, 'ls'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, SPECTERM_RUNTIME_DIR: exports[1], SPECTERM_STATE_DIR: exports[2], SPECTERM_TOKEN: '' } });
    expect(ls.status, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(new RegExp(`${sessionId}\\s+demo\\s`));

    browser = await launchChromium();
    const page = await browser.context.newPage();
    await page.goto(url);
    const row = page.locator(`li.session[data-session-id="${sessionId}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.locator('.session-name').textContent()).toBe('demo');
    await expect.poll(() => row.getAttribute('data-badge'), { timeout: 30_000 }).toBe('idle');

    expect(processesUnder(root).length).toBeGreaterThanOrEqual(3); // the daemon, the PTY host, the agent
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('stopped; the temp state is removed');
    expect(fs.existsSync(root)).toBe(false);
    expect(processesUnder(root)).toEqual([]);
    expect(err).not.toMatch(/error/i);
    expect(err).not.toMatch(/: info: /); // the files the daemon made in the temp dir are not news to a first-time user
  }, 180_000);
});
