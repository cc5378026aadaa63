#!/usr/bin/env node
/**
 * The whole pipeline vs bare @xterm/headless on the same large recording, in one process.
 *
 * bare:   every output chunk written into a headless terminal (no snapshots, no spec).
 * driver: the same recording through replaySession — ReplayTransport + VirtualScheduler +
 *         FsmDriver with a Claude-like spec: screen, guard frames, region tracking, FSM
 *         evaluation, modal extraction, timers — in virtual time. `driver_reused_evaluations`
 *         counts the evaluations re-decided from the last full one's reads (FrameReads).
 * Prints bare/driver throughputs and overhead_ratio = driver time / bare time (target ≤ 1.25).
 * Runs are interleaved and the median of each is reported.
 */
import { largeSession } from './large-session.mjs';
import { bareReplayMs } from './xterm-bare.mjs';

const { cast, spec, driverReplay } = await largeSession();
const bytes = cast.events.reduce((s, e) => (e.type === 'o' ? s + Buffer.byteLength(e.data) : s), 0);

const runDriver = () => driverReplay(spec);

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const bare = [];
const driver = [];
let last;
bareReplayMs(cast); // warm-up (JIT)
runDriver();
for (let i = 0; i < RUNS; i++) {
  bare.push(bareReplayMs(cast).ms);
  last = runDriver();
  driver.push(last.ms);
}
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const bareMs = median(bare);
const driverMs = median(driver);
const mb = bytes / 1e6;
console.log(`recording_mb=${mb.toFixed(2)}`);
console.log(`recording_seconds=${(cast.events.at(-1).t).toFixed(1)}`);
console.log(`bare_xterm_ms=${bareMs.toFixed(0)}`);
console.log(`bare_xterm_mb_per_s=${(mb / (bareMs / 1000)).toFixed(2)}`);
console.log(`driver_replay_ms=${driverMs.toFixed(0)}`);
console.log(`driver_replay_mb_per_s=${(mb / (driverMs / 1000)).toFixed(2)}`);
console.log(`driver_evaluations=${last.evals}`);
console.log(`driver_reused_evaluations=${last.reused}`);
console.log(`driver_state_changes=${last.changes}`);
console.log(`overhead_ratio=${(driverMs / bareMs).toFixed(3)}`);
