#!/usr/bin/env node
/**
 * Live detection latency on a real PTY: a child flips its screen between working and idle at
 * known instants (stamped with its monotonic clock); we measure flip → state_changed in the
 * driver. The spec declares no holds, so this is the engine's own latency.
 *  - quiet:  the screen is still between flips (300 ms apart) — an agent starting or finishing
 *            a turn, a modal popping up (target p99 ≤ 25 ms);
 *  - stream: a line repaints every 80 ms throughout, so every flip lands mid-stream; detection
 *            is bounded by the driver's in-stream evaluation interval (250 ms).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { FsmDriver } = await import(resolve(here, '../dist/driver/fsm-driver.js'));
const { createPtyTransport } = await import(resolve(here, '../dist/terminal/index.js'));

function specFor(mode) {
  return {
    $schema: 'adhdev:cli/spec@4', id: 'probe', binary: process.execPath,
    spawn_args: [resolve(here, 'fixtures/toggler.mjs'), mode, mode === 'stream' ? '40' : '60', mode === 'stream' ? '700' : '300'],
    send_message: { submit_key: '\r' },
    sections: {},
    states: [{ id: 'starting', label: 'Starting', initial: true }, { id: 'idle', label: 'Idle' }, { id: 'busy', label: 'Busy', status: 'generating' }],
    transitions: [
      { from: 'starting', to: 'idle', when: { matches: '❯' } },
      { from: 'idle', to: 'busy', when: { matches: 'esc to interrupt' } },
      { from: 'busy', to: 'idle', when: { not: { matches: 'esc to interrupt' } } },
    ],
  };
}

async function measure(mode) {
  const driver = new FsmDriver({ spec: specFor(mode), workingDir: here, transport: createPtyTransport(), cols: 80, rows: 24, applyTrust: false });
  const samples = [];
  let pendingStamp = null;
  const done = new Promise((resolveDone) => {
    driver.subscribe((ev) => {
      if (ev.kind === 'pty_data') {
        const m = /\x1b\]777;t=(\d+)\x07/.exec(ev.chunk);
        if (m) pendingStamp = BigInt(m[1]);
      } else if (ev.kind === 'state_changed' && pendingStamp !== null && ev.state.id !== 'starting') {
        samples.push(Number(process.hrtime.bigint() - pendingStamp) / 1e6);
        pendingStamp = null;
      } else if (ev.kind === 'exit' || ev.kind === 'spawn_error') {
        resolveDone();
      }
    });
  });
  driver.start();
  await done;
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  const name = mode === 'quiet' ? 'latency' : 'latency_stream';
  console.log(`${name}_samples=${samples.length}`);
  console.log(`${name}_p50_ms=${q(0.5).toFixed(2)}`);
  console.log(`${name}_p99_ms=${q(0.99).toFixed(2)}`);
  console.log(`${name}_max_ms=${samples.at(-1).toFixed(2)}`);
}

await measure('quiet');
await measure('stream');
