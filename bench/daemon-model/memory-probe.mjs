/**
 * Preloaded into the real daemon and host by `bench/daemon-model.mjs --serve`
 * (`node --expose-gc --import <this>`): on SIGUSR2 it runs a full GC and writes
 * `process.memoryUsage()` to `$SPECTERM_BENCH_PROBE_DIR/probe-<pid>.json`, so the benchmark
 * can report heap and array buffers per session of processes it does not own the code of.
 * When `$SPECTERM_BENCH_HEAP_SNAPSHOT_DIR` is set and the file `snapshot` exists in the probe
 * dir, it also writes a heap snapshot there (`--heap-snapshot DIR`: where the memory goes).
 * Benchmark-only: nothing in specterm loads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

const dir = process.env.SPECTERM_BENCH_PROBE_DIR;
if (dir) {
  process.on('SIGUSR2', () => {
    if (global.gc) { global.gc(); global.gc(); }
    const snapshots = process.env.SPECTERM_BENCH_HEAP_SNAPSHOT_DIR;
    if (snapshots && fs.existsSync(path.join(dir, 'snapshot'))) v8.writeHeapSnapshot(path.join(snapshots, `specterm-${process.pid}.heapsnapshot`));
    const file = path.join(dir, `probe-${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    fs.renameSync(`${file}.tmp`, file);
  });
}
