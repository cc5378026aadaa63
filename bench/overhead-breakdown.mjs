#!/usr/bin/env node
/**
 * Where the driver's overhead over bare @xterm/headless goes, on the same large recording as
 * driver-overhead.mjs, in one process with interleaved runs (the fastest of BENCH_RUNS each, default
 * 7: differences of medians on this noisy machine came out negative; the fastest run of a
 * deterministic replay is the one least disturbed):
 *
 *   bare      every output chunk (and resize) written into a bare headless terminal (xterm-bare.mjs);
 *   fed       the recording played by a ReplayTransport on a VirtualScheduler (what the driver
 *             gets) into a TerminalScreen that is never read — the cost of being fed in virtual time;
 *   reads     the same, with the screen read (viewport, then guard frame) after exactly the chunks
 *             the driver read it after on this recording (captured from one driver run) — every
 *             driver pays at least this much, whatever it decides: the floor;
 *   empty     the whole driver with the spec's sections, transitions and rules removed — the
 *             evaluation machinery with nothing to decide;
 *   full      the whole driver with the Claude-like spec.
 *
 * Prints the differences (breakdown_feed_ms = fed − bare, breakdown_screen_reads_ms = reads −
 * fed, breakdown_machinery_ms = empty − reads, breakdown_spec_ms = full − empty), the floor as a
 * ratio (`floor_ratio` = reads / bare), and what the 1.25 target leaves per evaluation once the
 * floor is paid (`target_budget_us_per_evaluation`; negative: the floor alone is over it).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { largeSession } from './large-session.mjs';
import { bareReplayMs } from './xterm-bare.mjs';

const TARGET_RATIO = 1.25;
const here = dirname(fileURLToPath(import.meta.url));
const { TerminalScreen } = await import(resolve(here, '../dist/terminal/index.js'));
const { ReplayTransport } = await import(resolve(here, '../dist/recording/index.js'));
const { VirtualScheduler } = await import(resolve(here, '../dist/driver/schedulers.js'));
const { cast, spec: full, driverReplay } = await largeSession();
const empty = { ...full, sections: {}, transitions: [], signal_rules: [], notifications: [], control_bar: [] };
const { width: cols, height: rows } = cast.header;

/**
 * The driver's screen reads on this recording, as the number of chunks written before each
 * (one capture run with the screen's public reads counted; reads on an unchanged screen are
 * cached by the screen and count once), and its evaluation count.
 */
function driverReadPoints() {
  const proto = TerminalScreen.prototype;
  const { write, viewportLines } = proto;
  let chunks = 0;
  const points = new Set();
  proto.write = function (data) { chunks += 1; return write.call(this, data); };
  proto.viewportLines = function () { points.add(chunks); return viewportLines.call(this); };
  try {
    return { points, evaluations: driverReplay(full).evals };
  } finally {
    proto.write = write;
    proto.viewportLines = viewportLines;
  }
}

/** The recording fed as the driver is fed; `readAfter` (a set of chunk counts) says when to read the screen. */
function feed(readAfter) {
  const scheduler = new VirtualScheduler(0);
  const transport = new ReplayTransport(cast, scheduler);
  const screen = new TerminalScreen({ cols, rows, scrollback: 2000 });
  let chunks = 0;
  transport.onData((chunk) => {
    screen.write(chunk);
    chunks += 1;
    if (readAfter?.has(chunks)) {
      screen.viewportLines();
      screen.guardFrame();
    }
  });
  transport.onResize((size) => screen.resize(size.cols, size.rows));
  const t0 = process.hrtime.bigint();
  transport.spawn({ file: 'replay', args: [], cwd: '.', env: {}, cols, rows });
  scheduler.advanceTo(transport.endTimeMs);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  screen.dispose();
  return ms;
}

const { points, evaluations } = driverReadPoints();

const variants = {
  bare: () => bareReplayMs(cast).ms,
  fed: () => feed(null),
  reads: () => feed(points),
  empty: () => driverReplay(empty).ms,
  full: () => driverReplay(full).ms,
};

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (const run of Object.values(variants)) run(); // warm-up
for (let i = 0; i < RUNS; i++) for (const [name, run] of Object.entries(variants)) times[name].push(run());
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.min(...v)]));
console.log(`breakdown_bare_ms=${m.bare.toFixed(0)}`);
console.log(`breakdown_feed_ms=${(m.fed - m.bare).toFixed(0)}`);
console.log(`breakdown_screen_reads=${points.size}`);
console.log(`breakdown_screen_reads_ms=${(m.reads - m.fed).toFixed(0)}`);
console.log(`breakdown_machinery_ms=${(m.empty - m.reads).toFixed(0)}`);
console.log(`breakdown_spec_ms=${(m.full - m.empty).toFixed(0)}`);
console.log(`floor_ratio=${(m.reads / m.bare).toFixed(3)}`);
console.log(`target_budget_us_per_evaluation=${(((TARGET_RATIO * m.bare - m.reads) / evaluations) * 1000).toFixed(1)}`);
console.log(`driver_us_per_evaluation=${(((m.full - m.reads) / evaluations) * 1000).toFixed(1)}`);
