#!/usr/bin/env node
/**
 * Runs every benchmark in its own process (so one's heap cannot skew another's) and prints
 * their `name=value` lines. Usage: npm run bench [-- only-these.mjs …]
 */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
// daemon-model.mjs runs N = 10/50/100 sessions with 10 WebSocket clients (about 2 minutes).
const ALL = ['eval.mjs', 'spec-load.mjs', 'screen-serializer.mjs', 'driver-overhead.mjs', 'overhead-breakdown.mjs', 'latency.mjs', 'rss.mjs', 'daemon-model.mjs'];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : ALL;

console.log(`machine_cpus=${os.cpus().length}`);
console.log(`machine_cpu_model=${JSON.stringify(os.cpus()[0]?.model ?? 'unknown')}`);
console.log(`machine_node=${process.version}`);
let failed = false;
for (const name of chosen) {
  const r = spawnSync(process.execPath, ['--expose-gc', resolve(here, name)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  process.stdout.write(r.stdout);
  if (r.status !== 0) {
    failed = true;
    process.stderr.write(`bench ${name} failed (exit ${r.status}):\n${r.stderr}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
