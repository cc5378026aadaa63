/**
 * The growing factor's effect is on the daemon's RSS under load, which a benchmark measures
 * (`bench/daemon-model.mjs --serve --overview`: docs/performance.md, "Round four"); here, only
 * that a value Node was started with is kept, so the benchmark can measure another one.
 */
import { describe, expect, it } from 'vitest';
import { tuneDaemonHeap } from './daemon-heap.js';

describe('the daemon\'s heap growing factor', () => {
  it('is left alone when Node was started with one, in either spelling', () => {
    expect(tuneDaemonHeap(['--heap-growing-percent=0'])).toBe(false);
    expect(tuneDaemonHeap(['--inspect', '--heap_growing_percent=50'])).toBe(false);
  });
});
