/**
 * Large writes to a real PTY (issue 12, item 1): a write must never block the event loop, even
 * when the child echoes everything back and only reads its input once its echo was read. Each
 * scenario runs in its own process (test/helpers/pty-write-probe.mjs) so a blocked event loop is
 * seen as a hang from here instead of freezing the test worker.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from './helpers/run-probe.js';

const PROBE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'helpers/pty-write-probe.mjs');
/** A loaded 2-core machine: generous, but far below "forever". */
const PROBE_LIMIT_MS = 60_000;
/** The event loop may stall this long at most while a write is under way (a GC, a loaded CPU). */
const MAX_EVENT_LOOP_GAP_MS = 1_000;

interface EchoResult {
  writeReturnedMs: number;
  deliveredMs: number;
  maxGapMs: number;
  ticks: number;
  intact: boolean;
  error?: string;
}

interface ShutdownResult {
  pendingBeforeKill: number;
  pendingAfterExit: number;
  exitMs: number;
  error?: string;
}

describe('PtyTransport.write with an echoing child', () => {
  for (const [label, bytes] of [['64 KB', 64 * 1024], ['1 MB', 1024 * 1024], ['10 MB', 10 * 1024 * 1024]] as const) {
    it(`delivers ${label} intact and in order while the event loop keeps running`, async () => {
      const r = await runProbe<EchoResult>(PROBE, { scenario: 'echo', bytes }, PROBE_LIMIT_MS);
      expect(r.error).toBeUndefined();
      expect(r.intact).toBe(true);
      // write() only queues (and encodes the text): it returns at once, whatever the size.
      expect(r.writeReturnedMs).toBeLessThan(MAX_EVENT_LOOP_GAP_MS);
      expect(r.maxGapMs).toBeLessThan(MAX_EVENT_LOOP_GAP_MS);
    }, PROBE_LIMIT_MS + 5_000);
  }
});

describe('PtyTransport.kill with a large write queued', () => {
  it('drops the queue, ends the child and leaves nothing running', async () => {
    // The child never reads, so nearly all of the 4 MB is still queued when kill() runs; the
    // probe process must then end by itself (a leftover retry timer would keep it alive).
    const r = await runProbe<ShutdownResult>(PROBE, { scenario: 'shutdown', bytes: 4 * 1024 * 1024 }, PROBE_LIMIT_MS);
    expect(r.error).toBeUndefined();
    expect(r.pendingBeforeKill).toBeGreaterThan(1024 * 1024);
    expect(r.pendingAfterExit).toBe(0);
    expect(r.exitMs).toBeLessThan(5_000);
  }, PROBE_LIMIT_MS + 5_000);
});
