#!/usr/bin/env node
/**
 * The conformance lab: `npm run lab -- <cli> [options]` runs lab/<cli>/lab.mjs, which installs a
 * pinned version of the real agent CLI into a cache outside the repo, starts a scripted model
 * server on loopback, drives the CLI under specterm and checks the live states against what the
 * server knows to be true.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const labs = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, 'lab.mjs')))
  .map((d) => d.name)
  .sort();
const [cli, ...args] = process.argv.slice(2);
if (!cli || cli === '--help' || !labs.includes(cli)) {
  process.stderr.write(`usage: npm run lab -- <cli> [options]\navailable: ${labs.join(', ') || 'none'}\n`);
  process.exit(cli && cli !== '--help' ? 2 : 0);
}
const mod = await import(pathToFileURL(join(here, cli, 'lab.mjs')).href);
process.exitCode = await mod.main(args);
