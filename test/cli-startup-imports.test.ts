/**
 * What the quick commands load (issue 27 item 1: `list` and `validate <built-in>` ≤ 0.5 s). A
 * timing test would flake on a loaded machine, so this checks the cause instead: the real CLI
 * runs under an ESM resolve hook (test/fixtures/record-imports) that records every module it
 * resolves, and the help, `list` and `validate` must not pull in the daemon, the server, the
 * driver, the terminal emulator, the PTY or the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, SPECTERM_BIN } from './helpers/cli.js';

const REGISTER = path.join(REPO_ROOT, 'test/fixtures/record-imports/register.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-imports-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `specterm <args>` and returns its exit code and the module URLs it resolved. */
function resolvedBy(args: string[]): { code: number | null; urls: string[]; stderr: string } {
  const file = path.join(dir, `${args.join('_').replace(/[^\w-]/g, '')}.txt`);
  fs.writeFileSync(file, '');
  const r = spawnSync(process.execPath, ['--import', REGISTER, SPECTERM_BIN, ...args], {
    cwd: REPO_ROOT, env: { ...process.env, RECORD_IMPORTS_FILE: file }, input: '', encoding: 'utf8', timeout: 60_000,
  });
  return { code: r.status, urls: fs.readFileSync(file, 'utf8').split('\n').filter(Boolean), stderr: r.stderr };
}

/** The repository-relative path of a URL under the checkout, else the URL itself. */
const shortName = (url: string): string => url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/');

/** Modules that only running an agent or the daemon needs. */
const HEAVY = [
  /^dist\/(daemon|server|store|host|client|terminal|recording|harness)\//,
  /^dist\/driver\/(?!find-binary\.js$)/,
  /^node_modules\/(@xterm|@lydell\/node-pty|better-sqlite3|ws|qrcode|ink|react|zod)\//,
];
const heavyIn = (urls: string[]): string[] => [...new Set(urls.map(shortName).filter((u) => HEAVY.some((re) => re.test(u))))];

describe('the quick commands load only what they use', () => {
  it('prints the help and the version without loading any command module', () => {
    for (const args of [['--help'], ['--version']]) {
      const run = resolvedBy(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.urls.map(shortName).filter((u) => /^dist\/(cli\/commands|catalog|core)\//.test(u))).toEqual([]);
    }
  });

  it('lists the built-in specs without the daemon, the driver, the terminal or the database', () => {
    const run = resolvedBy(['list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    // The recording works: list does load the catalog.
    expect(run.urls.map(shortName)).toContain('dist/catalog/builtin.js');
    expect(heavyIn(run.urls)).toEqual([]);
  });

  it('validates a built-in spec without the daemon, the driver, the terminal or the database', () => {
    const run = resolvedBy(['validate', 'claude-code']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.urls.map(shortName)).toContain('dist/cli/commands/validate.js');
    expect(heavyIn(run.urls)).toEqual([]);
  });
});
