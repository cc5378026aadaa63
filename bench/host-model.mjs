#!/usr/bin/env node
/**
 * One PTY host per user or one per session? Measures both with N sessions (default 10):
 * host RSS and CPU (fraction of one core) with idle children and with children streaming like
 * an agent (~50 short coloured lines/s each, one attached client per session), plus connection
 * set-up (connect + handshake) and host start-up times. Prints `name=value` lines.
 * Usage: npm run build && node bench/host-model.mjs [N] [windowMs]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostClient, startHostProcess } from '../dist/host/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const EMITTER = path.resolve(here, '../test/host/fixtures/emitter.mjs');
const N = Number(process.argv[2] ?? 10);
const WINDOW_MS = Number(process.argv[3] ?? 8000);
const TICKS_PER_S = 100; // Linux USER_HZ
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const cpuTicks = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

function privateDir() {
  const dir = fs.mkdtempSync('/tmp/shb-');
  fs.chmodSync(dir, 0o700);
  return dir;
}

async function startHosts(count) {
  const hosts = [];
  for (let i = 0; i < count; i++) {
    const dir = privateDir();
    const t0 = performance.now();
    const h = await startHostProcess({ runtimeDir: dir });
    hosts.push({ ...h, dir, startMs: performance.now() - t0, client: await HostClient.connect({ socketPath: h.socketPath }) });
  }
  return hosts;
}

/** Spawns `perHost` sessions in each host (attached), waits, then measures over the window. */
async function measure(hosts, perHost, streaming) {
  let k = 0;
  for (const h of hosts) {
    for (let i = 0; i < perHost; i++) {
      const id = `${streaming ? 'stream' : 'idle'}-${k++}`;
      const args = streaming ? [EMITTER, '--lines', '1000000', '--interval-ms', '20'] : ['600'];
      await h.client.spawn({ id, file: streaming ? process.execPath : 'sleep', args, cwd: h.dir, env: ENV, cols: 120, rows: 40 });
      await h.client.attach(id, 0);
    }
  }
  await sleep(1500); // start-up output and GC settle
  const before = hosts.map((h) => cpuTicks(h.pid));
  await sleep(WINDOW_MS);
  const cpu = hosts.reduce((sum, h, i) => sum + (cpuTicks(h.pid) - before[i]), 0) / TICKS_PER_S / (WINDOW_MS / 1000);
  const rss = hosts.reduce((sum, h) => sum + rssBytes(h.pid), 0);
  for (const h of hosts) for (const s of await h.client.list()) await h.client.remove(s.id, true);
  return { cpu, rss };
}

async function stopHosts(hosts) {
  for (const h of hosts) {
    await h.client.shutdown().catch(() => {});
    h.client.close();
  }
  await sleep(500);
  for (const h of hosts) fs.rmSync(h.dir, { recursive: true, force: true });
}

const out = (name, value) => console.log(`${name}=${typeof value === 'number' ? Number(value.toFixed(4)) : value}`);
out('host_model_sessions', N);
out('host_model_window_ms', WINDOW_MS);

// One host for all sessions.
const single = await startHosts(1);
out('host_one_empty_rss_mb', rssBytes(single[0].pid) / 2 ** 20);
for (const streaming of [false, true]) {
  const { cpu, rss } = await measure(single, N, streaming);
  out(`host_one_${streaming ? 'streaming' : 'idle'}_cpu_core`, cpu);
  out(`host_one_${streaming ? 'streaming' : 'idle'}_rss_mb`, rss / 2 ** 20);
}
// Connection set-up to a live host: connect + hello.
const connects = [];
for (let i = 0; i < 50; i++) {
  const t0 = performance.now();
  const c = await HostClient.connect({ socketPath: single[0].socketPath });
  connects.push(performance.now() - t0);
  c.close();
}
out('host_connect_ms_p50', median(connects));
out('host_connect_ms_p95', p95(connects));
out('host_start_ms', single[0].startMs);
await stopHosts(single);

// One host per session.
const many = await startHosts(N);
out('host_per_session_start_ms_p50', median(many.map((h) => h.startMs)));
for (const streaming of [false, true]) {
  const { cpu, rss } = await measure(many, 1, streaming);
  out(`host_per_session_${streaming ? 'streaming' : 'idle'}_cpu_core_total`, cpu);
  out(`host_per_session_${streaming ? 'streaming' : 'idle'}_rss_mb_total`, rss / 2 ** 20);
}
await stopHosts(many);
out('machine_cpus', os.cpus().length);
