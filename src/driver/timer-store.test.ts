import { describe, expect, it } from 'vitest';
import { TimerStore } from './timer-store.js';
import { VirtualScheduler } from './schedulers.js';

describe('TimerStore', () => {
  it('re-arms a slot in place: one pending timer, fired once at the latest due time', () => {
    const sched = new VirtualScheduler(0);
    const store = new TimerStore(sched);
    const fired: number[] = [];
    const slot = store.slot(() => fired.push(sched.now()));
    slot.arm(100);
    slot.arm(50);
    expect(sched.pendingCount()).toBe(1);
    expect(slot.dueAt()).toBe(50);
    sched.advanceTo(200);
    expect(fired).toEqual([50]);
    expect(slot.isArmed()).toBe(false);
  });

  it('runs one-shot timers once and forgets them; a cancelled one never runs', () => {
    const sched = new VirtualScheduler(0);
    const store = new TimerStore(sched);
    let runs = 0;
    store.later(10, () => { runs += 1; });
    store.later(10, () => { runs += 10; }).cancel();
    sched.advanceTo(20);
    expect(runs).toBe(1);
    expect(sched.pendingCount()).toBe(0);
  });

  it('cancels every slot and one-shot on dispose, and arms nothing afterwards', () => {
    const sched = new VirtualScheduler(0);
    const store = new TimerStore(sched);
    let runs = 0;
    const a = store.slot(() => { runs += 1; });
    a.arm(10);
    store.later(10, () => { runs += 1; });
    store.dispose();
    expect(sched.pendingCount()).toBe(0);
    a.arm(10);
    store.later(10, () => { runs += 1; });
    store.slot(() => { runs += 1; }).arm(10);
    expect(sched.pendingCount()).toBe(0);
    sched.advanceTo(100);
    expect(runs).toBe(0);
    store.dispose();
  });
});
