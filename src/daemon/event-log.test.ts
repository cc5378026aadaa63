import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log.js';

const removed = (session_id: string, at: number) => ({ type: 'session.removed' as const, session_id, at });

describe('EventLog', () => {
  it('numbers events above the start time × 1000, replays after a seq, per session, and bounds the ring', () => {
    const log = new EventLog({ now: () => 5, maxEvents: 3 });
    const seqs = ['a', 'b', 'a', 'b'].map((id, i) => log.append(removed(id, i)).seq);
    expect(seqs).toEqual([5001, 5002, 5003, 5004]);
    expect(log.since(0).map((e) => e.seq)).toEqual([5002, 5003, 5004]);
    expect(log.since(5002, 'b').map((e) => e.seq)).toEqual([5004]);
    expect(log.lastSeq).toBe(5004);
    // A later daemon run starts above every seq of this one.
    expect(new EventLog({ now: () => 6 }).append(removed('a', 0)).seq).toBeGreaterThan(5004);
  });

  it('a subscriber that throws does not keep the event from the others; unsubscribe stops delivery', () => {
    const log = new EventLog();
    const got: number[] = [];
    log.subscribe(() => { throw new Error('closed socket'); });
    const stop = log.subscribe((e) => got.push(e.seq));
    const first = log.append(removed('a', 1));
    stop();
    log.append(removed('a', 2));
    expect(got).toEqual([first.seq]);
  });
});
