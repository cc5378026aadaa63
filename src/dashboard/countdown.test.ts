import { describe, expect, it } from 'vitest';
import { ClockOffset, formatDuration, fractionLeft, remainingMs } from './countdown.js';

describe('countdowns on the page clock', () => {
  it('takes the offset from the answer with the shortest round trip (its midpoint)', () => {
    const clock = new ClockOffset();
    expect(clock.serverNow(1000)).toBe(1000);
    clock.sample(1000, 1400, 5300); // slow answer: midpoint 1200 → offset 4100
    expect(clock.offsetMs).toBe(4100);
    clock.sample(2000, 2020, 6010); // fast answer: midpoint 2010 → offset 4000
    expect(clock.offsetMs).toBe(4000);
    clock.sample(3000, 3500, 9999); // a later slow answer does not override the fast one
    expect(clock.serverNow(3000)).toBe(7000);
  });

  it('forgets old samples, so a changed server clock is followed', () => {
    const clock = new ClockOffset();
    clock.sample(0, 0, 100);
    for (let i = 1; i <= 8; i += 1) clock.sample(i * 10, i * 10 + 5, i * 10 + 2.5 + 900);
    expect(clock.offsetMs).toBe(900);
  });

  it('counts down to zero and never below; the bar empties with the window', () => {
    expect(remainingMs(1500, 1000)).toBe(500);
    expect(remainingMs(1500, 2000)).toBe(0);
    expect(fractionLeft(1500, 750, 1500)).toBe(0.5);
    expect(fractionLeft(1500, 1600, 1500)).toBe(0);
    expect(fractionLeft(1500, 0, null)).toBe(1);
    expect(fractionLeft(1500, 1500, null)).toBe(0);
    expect(formatDuration(340)).toBe('340 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(61_000)).toBe('1 min 1 s');
  });
});
