import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

  it('allocates storage as output arrives, never past the capacity', () => {
    const ring = new ByteRing(1024 * 1024);
    expect(ring.allocatedBytes).toBe(16 * 1024);
    ring.append(Buffer.alloc(40_000, 1));
    expect(ring.allocatedBytes).toBe(64 * 1024);
    ring.append(Buffer.alloc(3 * 1024 * 1024, 2));
    expect(ring.allocatedBytes).toBe(1024 * 1024);
    expect(ring.readSince(0).bytes.every((b) => b === 2)).toBe(true);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new ByteRing(0)).toThrow(/positive integer, got 0/);
  });
});
