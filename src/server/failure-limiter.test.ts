import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './failure-limiter.js';
import { RateLimiter } from '../ops/rate-limiter.js';

describe('FailureLimiter', () => {
  const make = () => {
    const clock = { now: 0 };
    return { clock, limiter: new FailureLimiter({ now: () => clock.now }) };
  };

  it('allows five failures, then locks for 1 s doubling per failure up to 15 min', () => {
    const { limiter } = make();
    for (let i = 0; i < 5; i++) limiter.recordFailure('a');
    expect(limiter.lockedForMs('a')).toBe(0);
    const locks: number[] = [];
    for (let i = 0; i < 14; i++) {
      limiter.recordFailure('a');
      locks.push(limiter.lockedForMs('a'));
    }
    expect(locks.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(locks.at(-1)).toBe(15 * 60_000);
  });

  it('keeps addresses apart and clears one on success', () => {
    const { limiter } = make();
    for (let i = 0; i < 6; i++) limiter.recordFailure('a');
    expect(limiter.lockedForMs('b')).toBe(0);
    limiter.recordSuccess('a');
    expect(limiter.lockedForMs('a')).toBe(0);
  });

  it('forgets failures after 15 quiet minutes', () => {
    const { clock, limiter } = make();
    for (let i = 0; i < 5; i++) limiter.recordFailure('a');
    clock.now += 15 * 60_000 + 1;
    limiter.recordFailure('a');
    expect(limiter.lockedForMs('a')).toBe(0);
  });

  it('remembers a bounded number of addresses', () => {
    const clock = { now: 0 };
    const limiter = new FailureLimiter({ now: () => clock.now, maxAddresses: 2, freeFailures: 0 });
    for (const address of ['a', 'b', 'c']) limiter.recordFailure(address);
    expect(['a', 'b', 'c'].map((a) => limiter.lockedForMs(a) > 0)).toEqual([false, true, true]);
  });
});

describe('FailureLimiter: the global budget', () => {
  it('is spent by failures from any address and refills one failure per 2 s', () => {
    const clock = { now: 0 };
    const limiter = new FailureLimiter({ now: () => clock.now });
    for (let i = 0; i < 29; i++) limiter.recordFailure(`127.0.0.${i + 2}`);
    expect(limiter.throttledForMs()).toBe(0);
    limiter.recordFailure('127.0.1.2');
    expect(limiter.throttledForMs()).toBe(2_000);
    expect(limiter.lockedForMs('127.0.1.2'), 'no single address is locked').toBe(0);
    clock.now += 1_000;
    expect(limiter.throttledForMs()).toBe(1_000);
    clock.now += 1_000;
    expect(limiter.throttledForMs()).toBe(0);
    limiter.recordFailure('127.0.1.3');
    expect(limiter.throttledForMs()).toBe(2_000);
    clock.now += 60 * 60_000;
    for (let i = 0; i < 29; i++) limiter.recordFailure(`10.0.0.${i}`);
    expect(limiter.throttledForMs(), 'refilled to the burst, not beyond').toBe(0);
  });
});

describe('RateLimiter', () => {
  it('allows a burst, then refills at the steady rate, per key', () => {
    const clock = { now: 0 };
    const limiter = new RateLimiter({ burst: 2, perSecond: 4, now: () => clock.now });
    expect([limiter.take('t'), limiter.take('t'), limiter.take('t')]).toEqual([0, 0, 250]);
    expect(limiter.take('other')).toBe(0);
    clock.now += 250;
    expect(limiter.take('t')).toBe(0);
  });
});
