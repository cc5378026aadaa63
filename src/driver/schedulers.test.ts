import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RealScheduler, VirtualScheduler } from './schedulers.js';

describe('VirtualScheduler', () => {
  it('starts at the given time and only moves when advanced', () => {
    const clock = new VirtualScheduler(500);
    expect(clock.now()).toBe(500);
    clock.advanceBy(25);
    expect(clock.now()).toBe(525);
  });

  it('fires due timers in time order, each seeing its own due time', () => {
    const clock = new VirtualScheduler();
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 30);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`c@${clock.now()}`), 60);
    expect(clock.advanceTo(40)).toBe(2);
    expect(seen).toEqual(['a@10', 'b@30']);
    expect(clock.now()).toBe(40);
    expect(clock.pendingCount()).toBe(1);
    expect(clock.nextDueAt()).toBe(60);
  });

  it('fires timers with equal due times in creation order', () => {
    const clock = new VirtualScheduler();
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) clock.setTimeout(() => seen.push(i), 10);
    clock.advanceTo(10);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('fires timers scheduled by timers when they fall due within the same advance', () => {
    const clock = new VirtualScheduler();
    const seen: string[] = [];
    clock.setTimeout(() => {
      seen.push(`outer@${clock.now()}`);
      clock.setTimeout(() => seen.push(`inner@${clock.now()}`), 5);
      clock.setTimeout(() => seen.push(`late@${clock.now()}`), 500);
    }, 10);
    clock.advanceTo(100);
    expect(seen).toEqual(['outer@10', 'inner@15']);
    expect(clock.pendingCount()).toBe(1);
  });

  it('does not fire cancelled timers', () => {
    const clock = new VirtualScheduler();
    let fired = false;
    const handle = clock.setTimeout(() => (fired = true), 10);
    clock.clearTimeout(handle);
    clock.clearTimeout(handle);
    clock.clearTimeout(null);
    clock.clearTimeout(undefined);
    clock.advanceTo(20);
    expect(fired).toBe(false);
    expect(clock.pendingCount()).toBe(0);
    expect(clock.nextDueAt()).toBeUndefined();
  });

  it('never moves time backwards when asked to advance to the past', () => {
    const clock = new VirtualScheduler(100);
    clock.advanceTo(50);
    expect(clock.now()).toBe(100);
  });

  it('treats negative and non-finite delays as zero', () => {
    const clock = new VirtualScheduler(7);
    const seen: number[] = [];
    clock.setTimeout(() => seen.push(clock.now()), -5);
    clock.setTimeout(() => seen.push(clock.now()), Number.NaN);
    clock.advanceBy(0);
    expect(seen).toEqual([7, 7]);
  });

  it('runs until idle within the limit and stops at the limit when timers remain', () => {
    const clock = new VirtualScheduler();
    let ticks = 0;
    const tick = (): void => {
      ticks++;
      clock.setTimeout(tick, 100);
    };
    clock.setTimeout(tick, 100);
    expect(clock.runUntilIdle(1000)).toBe(10);
    expect(clock.now()).toBe(1000);
    expect(ticks).toBe(10);

    const idle = new VirtualScheduler();
    idle.setTimeout(() => undefined, 40);
    idle.setTimeout(() => undefined, 70);
    expect(idle.runUntilIdle()).toBe(2);
    expect(idle.now()).toBe(70);
    expect(idle.pendingCount()).toBe(0);
  });

  it('propagates a timer exception after removing the timer', () => {
    const clock = new VirtualScheduler();
    clock.setTimeout(() => {
      throw new Error('boom');
    }, 5);
    expect(() => clock.advanceTo(10)).toThrow('boom');
    expect(clock.now()).toBe(5);
    expect(clock.pendingCount()).toBe(0);
  });

  it('stops a timer that re-arms itself with zero delay instead of hanging', () => {
    const clock = new VirtualScheduler();
    const spin = (): void => void clock.setTimeout(spin, 0);
    clock.setTimeout(spin, 0);
    expect(() => clock.advanceTo(1)).toThrow(/re-arms itself with a zero delay/);
  });

  it('clears everything on clearAll', () => {
    const clock = new VirtualScheduler();
    for (let i = 0; i < 3; i++) clock.setTimeout(() => undefined, i);
    clock.clearAll();
    expect(clock.pendingCount()).toBe(0);
    expect(clock.advanceTo(10)).toBe(0);
  });

  it('matches a reference model for random schedules and cancellations', () => {
    type Op = { kind: 'set'; delay: number } | { kind: 'clear'; index: number } | { kind: 'advance'; by: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), delay: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant('clear' as const), index: fc.nat(40) }),
      fc.record({ kind: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops: Op[]) => {
        const clock = new VirtualScheduler();
        const fired: Array<[number, number]> = [];
        const handles: unknown[] = [];
        const model: Array<{ id: number; due: number; live: boolean }> = [];
        const expected: Array<[number, number]> = [];
        let now = 0;
        for (const o of ops) {
          if (o.kind === 'set') {
            const id = handles.length;
            handles.push(clock.setTimeout(() => fired.push([id, clock.now()]), o.delay));
            model.push({ id, due: now + o.delay, live: true });
          } else if (o.kind === 'clear') {
            const entry = model[o.index];
            clock.clearTimeout(handles[o.index] as never);
            if (entry) entry.live = false;
          } else {
            now += o.by;
            const due = model.filter((t) => t.live && t.due <= now).sort((a, b) => a.due - b.due || a.id - b.id);
            for (const t of due) {
              t.live = false;
              expected.push([t.id, t.due]);
            }
            clock.advanceBy(o.by);
          }
        }
        expect(fired).toEqual(expected);
        expect(clock.pendingCount()).toBe(model.filter((t) => t.live).length);
      }),
      { numRuns: 300 },
    );
  });

  it('ignores handles of another scheduler, fired timers and second cancels', () => {
    const a = new VirtualScheduler();
    const b = new VirtualScheduler();
    const fired: string[] = [];
    const ha = a.setTimeout(() => fired.push('a'), 10);
    b.setTimeout(() => fired.push('b'), 10);
    b.clearTimeout(ha); // not b's: a's timer still fires
    const hb2 = b.setTimeout(() => fired.push('b2'), 5);
    b.clearTimeout(hb2);
    b.clearTimeout(hb2); // cancelled twice: counted once
    expect(b.pendingCount()).toBe(1);
    a.advanceBy(10);
    b.advanceBy(10);
    expect(fired).toEqual(['a', 'b']);
    a.clearTimeout(ha); // already fired
    expect(a.pendingCount()).toBe(0);
    expect(b.pendingCount()).toBe(0);
  });

  it('keeps working after many cancellations compact its queue', () => {
    const clock = new VirtualScheduler();
    let fired = 0;
    for (let i = 0; i < 5000; i++) clock.clearTimeout(clock.setTimeout(() => undefined, 1000 + i));
    clock.setTimeout(() => fired++, 10);
    expect(clock.pendingCount()).toBe(1);
    clock.runUntilIdle();
    expect(fired).toBe(1);
  });
});

describe('RealScheduler', () => {
  it('reads the wall clock', () => {
    const before = Date.now();
    const now = new RealScheduler().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('fires a timer and forgets it', async () => {
    const scheduler = new RealScheduler();
    const fired = new Promise<void>((resolve) => scheduler.setTimeout(resolve, 5));
    expect(scheduler.pendingCount()).toBe(1);
    await fired;
    expect(scheduler.pendingCount()).toBe(0);
  });

  it('cancels timers individually and all at once', async () => {
    const scheduler = new RealScheduler();
    let fired = 0;
    const handle = scheduler.setTimeout(() => fired++, 5);
    scheduler.setTimeout(() => fired++, 5);
    scheduler.setTimeout(() => fired++, 5);
    scheduler.clearTimeout(handle);
    expect(scheduler.pendingCount()).toBe(2);
    scheduler.clearAll();
    expect(scheduler.pendingCount()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(0);
  });

  it('ignores handles it does not own', () => {
    const scheduler = new RealScheduler();
    const foreign = setTimeout(() => undefined, 1);
    expect(() => scheduler.clearTimeout(foreign)).not.toThrow();
    expect(() => scheduler.clearTimeout(null)).not.toThrow();
    clearTimeout(foreign);
  });

  it('unrefs timers when asked so they do not keep the process alive', () => {
    const scheduler = new RealScheduler({ unref: true });
    const handle = scheduler.setTimeout(() => undefined, 1000) as ReturnType<typeof setTimeout>;
    expect(handle.hasRef()).toBe(false);
    scheduler.clearAll();
    const refScheduler = new RealScheduler();
    const refHandle = refScheduler.setTimeout(() => undefined, 1000) as ReturnType<typeof setTimeout>;
    expect(refHandle.hasRef()).toBe(true);
    refScheduler.clearAll();
  });
});
