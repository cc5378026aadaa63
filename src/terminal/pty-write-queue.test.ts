import { describe, expect, it } from 'vitest';
import { TerminalError } from './errors.js';
import { PtyWriteQueue, type TryWrite } from './pty-write-queue.js';

/** A terminal that takes at most `perAttempt` bytes per attempt and nothing on the listed attempts. */
function scriptedKernel(perAttempt: number, refuseAttempts: ReadonlySet<number> = new Set()) {
  const received: Buffer[] = [];
  const pieces: number[] = [];
  let attempts = 0;
  const tryWrite: TryWrite = (bytes) => {
    attempts += 1;
    pieces.push(bytes.length);
    if (refuseAttempts.has(attempts)) return 0;
    const taken = bytes.subarray(0, perAttempt);
    received.push(Buffer.from(taken));
    return taken.length;
  };
  return { tryWrite, received: () => Buffer.concat(received).toString('utf8'), pieces, attempts: () => attempts };
}

async function drained(queue: PtyWriteQueue): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (queue.pendingBytes > 0) {
    if (Date.now() > deadline) throw new Error(`queue still holds ${queue.pendingBytes} bytes`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('PtyWriteQueue', () => {
  it('writes at once when nothing is queued', () => {
    const kernel = scriptedKernel(100);
    const queue = new PtyWriteQueue(kernel.tryWrite);
    queue.enqueue('abc');
    expect(kernel.received()).toBe('abc');
    expect(queue.pendingBytes).toBe(0);
  });

  it('keeps the order of writes across partial writes and full kernel buffers', async () => {
    const kernel = scriptedKernel(7, new Set([2, 3, 9]));
    const queue = new PtyWriteQueue(kernel.tryWrite, { chunkBytes: 16, retryMs: 1 });
    const writes = ['first 😀 write; ', 'ä', 'second write that is longer than one chunk, ', '漢字', '\r'];
    for (const w of writes) queue.enqueue(w);
    await drained(queue);
    expect(kernel.received()).toBe(writes.join(''));
  });

  it('offers at most chunkBytes per attempt and joins small writes into one piece', async () => {
    const kernel = scriptedKernel(1_000);
    const queue = new PtyWriteQueue(kernel.tryWrite, { chunkBytes: 8 });
    queue.enqueue('0123456789abcdefghij');
    queue.enqueue('k');
    queue.enqueue('lm');
    await drained(queue);
    expect(kernel.pieces).toEqual([8, 8, 7]);
    expect(kernel.received()).toBe('0123456789abcdefghijklm');
  });

  it('gives the event loop a turn between pieces', async () => {
    const kernel = scriptedKernel(4);
    const queue = new PtyWriteQueue(kernel.tryWrite, { chunkBytes: 4 });
    queue.enqueue('x'.repeat(40));
    // Only the first piece is written synchronously; the rest waits for later turns.
    expect(kernel.attempts()).toBe(1);
    expect(queue.pendingBytes).toBe(36);
    await drained(queue);
    expect(kernel.attempts()).toBe(10);
  });

  it('drops what is queued on close and ignores later writes', async () => {
    const kernel = scriptedKernel(2);
    const queue = new PtyWriteQueue(kernel.tryWrite, { chunkBytes: 2 });
    queue.enqueue('abcdef');
    queue.close();
    queue.enqueue('gh');
    expect(queue.pendingBytes).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(kernel.received()).toBe('ab');
  });

  it('closes itself and reports why when an attempt throws (the PTY is gone)', () => {
    const errors: unknown[] = [];
    const gone = new Error('EIO');
    const queue = new PtyWriteQueue(() => { throw gone; }, { onClosedByError: (e) => errors.push(e) });
    queue.enqueue('abc');
    expect(queue.isClosed).toBe(true);
    expect(queue.pendingBytes).toBe(0);
    expect(errors).toEqual([gone]);
  });

  it('refuses a write that would queue more than maxPendingBytes, keeping what is queued', () => {
    const stuck = scriptedKernel(0);
    const queue = new PtyWriteQueue(stuck.tryWrite, { maxPendingBytes: 16, retryMs: 1_000 });
    queue.enqueue('0123456789');
    let error: unknown;
    try {
      queue.enqueue('abcdefghij');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TerminalError);
    expect(error).toMatchObject({ code: 'PTY_WRITE_QUEUE_FULL' });
    expect((error as Error).message).toMatch(/^cannot queue 10 more bytes for the child: 10 bytes are still waiting and at most 16 may be queued; the child is not reading its input/);
    expect(queue.pendingBytes).toBe(10);
    expect(queue.isClosed).toBe(false);
    queue.close();
  });
});
