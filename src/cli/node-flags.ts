/**
 * The V8 flags every `specterm` process runs with. `bin/specterm.js` is a shell-and-JavaScript
 * launcher whose shell line `exec`s Node with them (a `#!/usr/bin/env -S node …` line would need
 * an `env` that knows `-S`, which busybox's does not); whatever starts `specterm serve` with Node
 * directly (npm start, the tests, the benchmarks) passes them from here. A test keeps the two equal.
 *
 * `--max-semi-space-size=1` (MiB): V8 lets each of the young generation's two halves grow to
 * 16 MiB once a process allocates fast. The daemon allocates ~14 MB/s at 100 streaming sessions,
 * so it reached the maximum and kept 32 MiB of young generation plus what that promotes — 0.3 to
 * 0.6 MB of RSS per session (docs/performance.md, "The daemon's memory per session"). The flag
 * is read only when Node starts (`v8.setFlagsFromString` later does not resize the heap), hence
 * the launcher.
 * @module
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
