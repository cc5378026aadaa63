/**
 * How much garbage the daemon's V8 heap may hold. After a full GC, V8 lets the old generation
 * grow to a multiple of what stayed live before the next one — by default 1.1× to 4× chosen
 * from how fast it collects, about 2× in a daemon streaming 100 agents: ~50 MB of garbage,
 * half a MB a session (docs/performance.md, "Round four"). At 35 % the heap holds a third of
 * that; the cost is more frequent major GCs, mostly on V8's helper thread.
 * @module
 */
import v8 from 'node:v8';

export const DAEMON_HEAP_GROWING_PERCENT = 35;

/**
 * Sets the growing factor for this process (V8 reads the flag at each GC, so setting it at
 * run time works, unlike the young generation's size), unless Node was started with one
 * (`node --heap-growing-percent=N`: a measurement of another value).
 */
export function tuneDaemonHeap(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`);
  return true;
}
