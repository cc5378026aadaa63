/**
 * Preloaded into the real daemon and host by `bench/daemon-model.mjs --serve`
 * (`node --expose-gc --import <this>`), so the benchmark can look inside processes whose code it
 * does not own. On SIGUSR2 it runs the command in `$SPECTERM_BENCH_PROBE_DIR/command`:
 *  - `memory` (or no file): a full GC, then `process.memoryUsage()` to `probe-<pid>.json`;
 *  - `snapshot <dir>`: the same, after writing a heap snapshot into <dir> (`--heap-snapshot`);
 *  - `profile-start` / `profile-stop <dir>`: a CPU profile of the measured window only
 *    (`--window-prof`), written into <dir> as `specterm-<pid>.cpuprofile`; answered like `memory`.
 * Benchmark-only: nothing in specterm loads it.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';

const dir = process.env.SPECTERM_BENCH_PROBE_DIR;
let profiler = null;

function answer() {
  if (global.gc) { global.gc(); global.gc(); }
  const file = path.join(dir, `probe-${process.pid}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
  fs.renameSync(`${file}.tmp`, file);
}

function run(command) {
  const [verb, arg] = command.trim().split(' ');
  if (verb === 'snapshot') {
    if (global.gc) global.gc();
    v8.writeHeapSnapshot(path.join(arg, `specterm-${process.pid}.heapsnapshot`));
  } else if (verb === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    profiler.post('Profiler.enable', () => profiler.post('Profiler.start', () => answer()));
    return;
  } else if (verb === 'profile-stop' && profiler) {
    const session = profiler;
    profiler = null;
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(path.join(arg, `specterm-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      session.disconnect();
      answer();
    });
    return;
  }
  answer();
}

if (dir) {
  process.on('SIGUSR2', () => {
    let command = 'memory';
    try { command = fs.readFileSync(path.join(dir, 'command'), 'utf8'); } catch {}
    run(command);
  });
}
