/**
 * Preloaded into the real daemon and host by `bench/daemon-model.mjs --serve`
 * (`node --expose-gc --import <this>`), so the benchmark can look inside processes whose code it
 * does not own. On SIGUSR2 it runs the command in `$SPECTERM_BENCH_PROBE_DIR/command`:
 *  - `memory` (or no file): a full GC, then `process.memoryUsage()` to `probe-<pid>.json`;
 *  - `snapshot <dir>`: the same, after writing a heap snapshot into <dir> (`--heap-snapshot`);
 *  - `profile-start` / `profile-stop <dir>`: a CPU profile of the measured window only
 *    (`--window-prof`), written into <dir> as `specterm-<pid>.cpuprofile`; answered like `memory`;
 *  - `alloc-start` / `alloc-stop <dir>`: the same for a sampling heap profile of every allocation
 *    in the window, garbage included (`--window-alloc`), as `specterm-<pid>.heapprofile`.
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

/** Starts a profiler of the inspector domain `domain` (`Profiler`, `HeapProfiler`), then answers. */
function startProfile(domain, method, options = {}) {
  profiler = new Session();
  profiler.connect();
  profiler.post(`${domain}.enable`, () => profiler.post(`${domain}.${method}`, options, () => answer()));
}

/** Stops the running profiler with `method`, writes its profile into `dir` as specterm-<pid>.<ext>, then answers. */
function stopProfile(method, dir, ext) {
  const session = profiler;
  profiler = null;
  session.post(method, (error, result) => {
    if (!error) fs.writeFileSync(path.join(dir, `specterm-${process.pid}.${ext}`), JSON.stringify(result.profile));
    session.disconnect();
    answer();
  });
}

function run(command) {
  const [verb, arg] = command.trim().split(' ');
  if (verb === 'snapshot') {
    if (global.gc) global.gc();
    v8.writeHeapSnapshot(path.join(arg, `specterm-${process.pid}.heapsnapshot`));
  } else if (verb === 'profile-start') {
    return startProfile('Profiler', 'start');
  } else if (verb === 'alloc-start') {
    // Garbage included: what the window allocates, not only what it keeps (the GC's work).
    return startProfile('HeapProfiler', 'startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  } else if (verb === 'profile-stop' && profiler) {
    return stopProfile('Profiler.stop', arg, 'cpuprofile');
  } else if (verb === 'alloc-stop' && profiler) {
    return stopProfile('HeapProfiler.stopSampling', arg, 'heapprofile');
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
