#!/usr/bin/env node
/**
 * Where the driver's overhead over bare @xterm/headless goes, on the same large recording as
 * driver-overhead.mjs, in one process with interleaved runs (medians of BENCH_RUNS, default 5):
 *
 *   bare      every output chunk (and resize) written into a bare headless terminal (xterm-bare.mjs);
 *   screen    the same through TerminalScreen, with a guard frame read after every third chunk
 *             (about the driver's evaluation cadence on this recording: 3357 evaluations for
 *             9788 chunks) — the cost of keeping the screen readable;
 *   empty     the whole driver with the spec's sections, transitions and rules removed — the
 *             evaluation machinery with nothing to decide;
 *   full      the whole driver with the Claude-like spec.
 *
 * Prints the three differences: breakdown_screen_reads_ms (screen − bare),
 * breakdown_machinery_ms (empty − screen) and breakdown_spec_ms (full − empty).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { largeSession } from './large-session.mjs';
import { bareReplayMs } from './xterm-bare.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { TerminalScreen } = await import(resolve(here, '../dist/terminal/index.js'));
const { cast, spec: full, replaySession } = await largeSession();
const empty = { ...full, sections: {}, transitions: [], signal_rules: [], notifications: [], control_bar: [] };
const { width: cols, height: rows } = cast.header;

function timed(run) {
  const t0 = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const variants = {
  bare: () => bareReplayMs(cast).ms,
  screen: () => {
    const screen = new TerminalScreen({ cols, rows, scrollback: 2000 });
    const ms = timed(() => {
      let i = 0;
      for (const event of cast.events) {
        if (event.type === 'r') {
          const [c, r] = event.data.split('x').map(Number);
          screen.resize(c, r);
        } else if (event.type === 'o') {
          screen.write(event.data);
          if (++i % 3 === 0) screen.guardFrame();
        }
      }
    });
    screen.dispose();
    return ms;
  },
  empty: () => {
    let r;
    const ms = timed(() => { r = replaySession({ cast, spec: empty, tailMs: 0 }); });
    r.driver.shutdown();
    return ms;
  },
  full: () => {
    let r;
    const ms = timed(() => { r = replaySession({ cast, spec: full, tailMs: 0 }); });
    r.driver.shutdown();
    return ms;
  },
};

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (const run of Object.values(variants)) run(); // warm-up
for (let i = 0; i < RUNS; i++) for (const [name, run] of Object.entries(variants)) times[name].push(run());
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
console.log(`breakdown_bare_ms=${m.bare.toFixed(0)}`);
console.log(`breakdown_screen_reads_ms=${(m.screen - m.bare).toFixed(0)}`);
console.log(`breakdown_machinery_ms=${(m.empty - m.screen).toFixed(0)}`);
console.log(`breakdown_spec_ms=${(m.full - m.empty).toFixed(0)}`);
