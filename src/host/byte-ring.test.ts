import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ByteRing } from './byte-ring.js';

describe('ByteRing', () => {
  it('returns exactly the bytes after since that a plain append-only log holds, within the capacity', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 1, max: 64 }),
      fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 30 }),
      fc.nat({ max: 3000 }),
      (capacity, initial, chunks, since) => {
        const ring = new ByteRing(capacity, initial);
        const log: number[] = [];
        for (const chunk of chunks) {
          ring.append(chunk);
          log.push(...chunk);
        }
        expect(ring.seq).toBe(log.length);
        expect(ring.start).toBe(Math.max(0, log.length - capacity));
        const read = ring.readSince(since);
        const wanted = Math.min(since, log.length);
        const from = Math.max(wanted, log.length - capacity, 0);
        expect(read.from).toBe(from);
        expect(read.missedBytes).toBe(from - wanted);
        expect([...read.bytes]).toEqual(log.slice(from));
        expect(ring.allocatedBytes).toBeLessThanOrEqual(capacity);
      },
    ));
  });

  it('reports the bytes that fell out of the ring when since is older than its start', () => {
    const ring = new ByteRing(4);
    ring.append(Buffer.from('abcdefgh'));
    const read = ring.readSince(1);
    expect(read).toEqual({ from: 4, bytes: Buffer.from('efgh'), missedBytes: 3 });
  });

  it('allocates storage as output arrives, 16 KiB at a time, never past the capacity', () => {
    const ring = new ByteRing(1024 * 1024);
    expect(ring.allocatedBytes).toBe(0);
    ring.append(Buffer.alloc(40_000, 1));
    expect(ring.allocatedBytes).toBe(48 * 1024);
    ring.append(Buffer.alloc(3 * 1024 * 1024, 2));
    expect(ring.allocatedBytes).toBe(1024 * 1024);
    expect(ring.readSince(0).bytes.every((b) => b === 2)).toBe(true);
  });

  it('allocates its capacity once over its life: growing never copies what it holds into a larger buffer', () => {
    // Pass-through spies: every buffer the ring allocates, by size (its reads allocate too, none here).
    const sizes: number[] = [];
    const spies = (['alloc', 'allocUnsafe', 'allocUnsafeSlow'] as const).map((name) => {
      const original = Buffer[name].bind(Buffer);
      return vi.spyOn(Buffer, name).mockImplementation(((size: number, ...rest: never[]) => {
        sizes.push(size);
        return original(size, ...rest);
      }) as never);
    });
    try {
      const ring = new ByteRing(512 * 1024);
      const chunk = Buffer.alloc(8000, 7);
      sizes.length = 0;
      // A session streaming 8 KB chunks until its ring has wrapped twice.
      for (let i = 0; i < 140; i++) ring.append(chunk);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(512 * 1024);
      expect(Math.max(...sizes)).toBe(16 * 1024);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new ByteRing(0)).toThrow(/positive integer, got 0/);
  });
});
