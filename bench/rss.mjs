#!/usr/bin/env node
/**
 * Memory per idle session: RSS of this process (drivers, screens, scrollback, timers) with 20
 * concurrent sessions sitting idle, minus the RSS before they started, divided by 20. The
 * children (a shell holding an idle prompt) are separate processes and are not counted.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { FsmDriver } = await import(resolve(here, '../dist/driver/fsm-driver.js'));
const { createPtyTransport } = await import(resolve(here, '../dist/terminal/index.js'));
const SESSIONS = 20;
// An idle screen with some history (a transcript of 300 lines), then the child waits.
const script = 'i=0; while [ $i -lt 300 ]; do echo "transcript line $i: the quick brown fox jumps over the lazy dog"; i=$((i+1)); done; printf "──────\\r\\n❯ \\r\\n──────"; exec cat >/dev/null';
const spec = {
  $schema: 'adhdev:cli/spec@4', id: 'idle-probe', binary: '/bin/sh', spawn_args: ['-c', script],
  send_message: { submit_key: '\r' }, sections: {},
  states: [{ id: 'starting', label: 'Starting', initial: true }, { id: 'idle', label: 'Idle' }],
  transitions: [{ from: 'starting', to: 'idle', when: { all: [{ matches: '❯' }, { stable_ms: 300 }] } }],
};
const gc = () => { if (global.gc) { global.gc(); global.gc(); } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function startOne() {
  const d = new FsmDriver({ spec, workingDir: here, transport: createPtyTransport(), cols: 120, rows: 40, applyTrust: false });
  const idle = new Promise((r) => d.subscribe((ev) => { if (ev.kind === 'state_changed' && ev.state.id === 'idle') r(); }));
  d.start();
  return { d, idle };
}
// Warm up: load every module and JIT the hot paths once.
const warm = startOne();
await warm.idle;
warm.d.shutdown();
await sleep(500);
gc();
const before = process.memoryUsage().rss;
const sessions = Array.from({ length: SESSIONS }, startOne);
await Promise.all(sessions.map((s) => s.idle));
await sleep(2000);
gc();
const after = process.memoryUsage().rss;
for (const s of sessions) s.d.shutdown();
console.log(`rss_sessions=${SESSIONS}`);
console.log(`rss_per_idle_session_mb=${((after - before) / SESSIONS / 1048576).toFixed(2)}`);
console.log(`rss_total_mb=${(after / 1048576).toFixed(1)}`);
setTimeout(() => process.exit(0), 300);
