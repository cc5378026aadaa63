import { describe, expect, it } from 'vitest';
import { latestRead } from './latest-read.js';

/** A read whose answers the test releases one by one. */
function heldReads() {
  const pending: Array<() => void> = [];
  let started = 0;
  const read = () => new Promise<void>((resolve) => { started += 1; pending.push(resolve); });
  return { read, started: () => started, release: async () => { pending.shift()!(); await new Promise((r) => setTimeout(r, 0)); } };
}

describe('latestRead', () => {
  it('collapses the calls made during a read into one read after it', async () => {
    const reads = heldReads();
    const load = latestRead(reads.read);
    const first = load();
    const during = [load(), load(), load()];
    expect(reads.started()).toBe(1); // one at a time: no second read while one is out
    await reads.release();
    expect(reads.started()).toBe(2); // the three calls: one read, after the first
    let settled = false;
    void Promise.all(during).then(() => { settled = true; });
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toBe(false); // not before a read started after them has ended
    await reads.release();
    await Promise.all([first, ...during]);
    expect(reads.started()).toBe(2);
    // Idle again: the next call reads at once.
    void load();
    expect(reads.started()).toBe(3);
    await reads.release();
  });

  it('goes on after a read that failed', async () => {
    let calls = 0;
    const load = latestRead(async () => { calls += 1; if (calls === 1) throw new Error('offline'); });
    const first = load();
    const second = load();
    await expect(Promise.all([first, second])).resolves.toBeDefined();
    expect(calls).toBe(2);
  });
});
