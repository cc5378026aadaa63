/**
 * `npm start -- --lan` (scripts/start.mjs over dist/): the demo daemon serves HTTPS on this
 * computer's LAN address (or, on a machine without one, `--lan 127.0.0.1`), the pairing URL and
 * QR code carry that address, the certificate's fingerprint is printed, and Ctrl-C still stops
 * everything and removes the temp dir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { killHostsUnder } from './helpers/host-processes.js';
import { runCli } from './helpers/cli.js';
import { lanTarget } from './helpers/lan-target.js';

const START = fileURLToPath(new URL('../scripts/start.mjs', import.meta.url));

const children: ChildProcess[] = [];
const roots: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // A SIGKILLed script cannot stop its detached PTY host: end it by its dir.
  await killHostsUnder(roots);
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}, 60_000);

/** Runs scripts/start.mjs with `args`; its temp root is cleaned up after the tests whatever happens. */
function start(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [START, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    const root = /everything lives in (\/\S+),/.exec(out)?.[1];
    if (root && !roots.includes(root)) roots.push(root);
  });
  child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

describe('npm start -- --lan', () => {
  it('prints an https pairing URL on the LAN address, its QR code and the certificate fingerprint; Ctrl-C stops it', async () => {
    const { args, address } = lanTarget();
    const { child, out: output, err, exited } = start(args);
    await expect.poll(() => output().includes('Ctrl-C stops it.') || child.exitCode !== null, { timeout: 90_000, interval: 100 }).toBe(true);
    expect(child.exitCode, err()).toBeNull();
    const out = output();
    const root = roots.at(-1)!;
    const url = new RegExp(`^ {2}(https://${address.replace(/\./g, '\\.')}:\\d+/#pair=[A-Za-z0-9_-]+)$`, 'm').exec(out);
    expect(url, out).not.toBeNull();
    const cert = new crypto.X509Certificate(fs.readFileSync(path.join(root, 'state', 'lan-cert.pem')));
    expect(out).toContain(cert.fingerprint256);
    // A phone can reach a LAN address: the QR code is drawn; for loopback it says why not.
    if (address === '127.0.0.1') expect(out).toMatch(/no QR code for a phone/);
    else expect(out).toContain('▀');

    // The CLI on this computer reaches the HTTPS daemon with the exports printed.
    const exports = /export SPECTERM_RUNTIME_DIR=(\S+) SPECTERM_STATE_DIR=(\S+)/.exec(out)!;
    const ls = runCli(['ls'], { env: { SPECTERM_RUNTIME_DIR: exports[1]!, SPECTERM_STATE_DIR: exports[2]!, SPECTERM_TOKEN: '' } });
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(/\sdemo\s/);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(fs.existsSync(root)).toBe(false);
  });

  it('refuses an address that is not this computer\'s, saying so, without a stack trace', async () => {
    const { err, exited } = start(['--lan', '203.0.113.254']);
    expect(await exited).toBe(2);
    expect(err()).toMatch(/specterm serve: --lan 203\.0\.113\.254 is not an address of this computer/);
    expect(err()).toMatch(/npm start: the daemon did not start/);
    expect(err()).not.toMatch(/\n\s+at /);
  });
});
