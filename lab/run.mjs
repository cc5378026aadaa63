#!/usr/bin/env node
/**
 * The conformance lab: `npm run lab -- <cli> [options]` runs lab/<cli>/lab.mjs, which installs a
 * pinned version of the real agent CLI into a cache outside the repo, starts a scripted model
 * server on loopback, drives the CLI under specterm and checks the live states against what the
 * server knows to be true.
 *
 * `npm run lab -- <cli> --latest [options]` is the canary: the lab runs on the proven (pinned)
 * version, then again on the newest version from the registry (installed into the lab cache
 * under its own version dir), and a table of the verdicts that changed is printed
 * (docs/writing-specs.md, "A new CLI version"). Exit code: 0 when no verdict changed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installed, verdicts } from './lib/install-cli.mjs';
import { diffVerdicts, formatVerdictTable } from './lib/canary.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const labs = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, 'lab.mjs')))
  .map((d) => d.name)
  .sort();
const [cli, ...rest] = process.argv.slice(2);
if (!cli || cli === '--help' || !labs.includes(cli)) {
  process.stderr.write(`usage: npm run lab -- <cli> [--latest] [options]\navailable: ${labs.join(', ') || 'none'}\n`);
  process.exit(cli && cli !== '--help' ? 2 : 0);
}
const mod = await import(pathToFileURL(join(here, cli, 'lab.mjs')).href);
const latest = rest.includes('--latest');
const args = rest.filter((a) => a !== '--latest');

if (!latest) {
  process.exitCode = await mod.main(args);
} else {
  if (args.includes('--version') || args.includes('--record-to') || args.includes('--accuracy')) {
    process.stderr.write('lab canary: --latest picks the versions itself and records nothing; drop --version / --record-to / --accuracy\n');
    process.exit(2);
  }
  /** One whole lab run: its verdicts (a lab that reports none counts as one "(whole lab)" verdict) and the version it ran. */
  const runOnce = async (label) => {
    const from = verdicts.length;
    const installedFrom = installed.length;
    process.stderr.write(`lab canary: ${cli}, ${label} version\n`);
    const code = await mod.main(args);
    const own = verdicts.slice(from);
    const version = installed.slice(installedFrom).at(-1)?.version ?? '?';
    return { version, code, verdicts: own.length ? own : [{ scenario: '(whole lab)', verdict: code === 0 ? 'pass' : 'fail' }] };
  };
  const proven = await runOnce('proven');
  process.env.SPECTERM_LAB_LATEST = '1';
  const newest = proven.version !== '?' ? (await import('./lib/install-cli.mjs')).latestVersion(installed.at(-1).pkg) : null;
  if (newest === proven.version) {
    process.stdout.write(`canary ${cli}: the newest version on the registry (${newest}) is the proven one; nothing to compare\n`);
    process.exitCode = proven.code;
  } else {
    const next = await runOnce('latest');
    delete process.env.SPECTERM_LAB_LATEST;
    const rows = diffVerdicts(proven.verdicts, next.verdicts);
    process.stdout.write(formatVerdictTable(rows, { cli, proven: proven.version, latest: next.version }));
    process.exitCode = rows.some((r) => r.changed) ? 1 : 0;
  }
}
