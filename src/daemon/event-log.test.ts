import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/index.js';
import { EventLog } from './event-log.js';

const removed = (session_id: string, at: number) => ({ type: 'session.removed' as const, session_id, at });

const opened: Store[] = [];
const dirs: string[] = [];
function tempStore(dir?: string): { store: Store; dir: string } {
  const d = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'evlog-'));
  if (!dir) dirs.push(d);
  const store = openStore(path.join(d, 'specterm.db'));
  opened.push(store);
  return { store, dir: d };
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('EventLog', () => {
  it('numbers events from 1, replays after a seq, per session, and bounds the ring', () => {
    const log = new EventLog({ maxEvents: 3 });
    const seqs = ['a', 'b', 'a', 'b'].map((id, i) => log.append(removed(id, i)).seq);
    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(log.since(0).map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(log.since(2, 'b').map((e) => e.seq)).toEqual([4]);
    expect(log.lastSeq).toBe(4);
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

  it('an event appended by a subscriber reaches every subscriber after the one being told, in seq order', () => {
    // The daemon's transcripts append `transcript.turn` while `turn.finished` is being told; a
    // stream that sends in seq order (and skips what it already passed) lost `turn.finished`.
    const log = new EventLog();
    log.subscribe((e) => { if (e.seq === 1) log.append(removed('a', 2)); });
    const told: number[] = [];
    log.subscribe((e) => told.push(e.seq));
    const first = log.append(removed('a', 1));
    expect(first.seq).toBe(1);
    expect(told).toEqual([1, 2]);
  });

  it('over the store: a reopened store replays what the previous run appended and numbers on above it', () => {
    const { store, dir } = tempStore();
    const log = new EventLog({ journal: store.events });
    // Recent times: opening a store prunes by age.
    const before = ['a', 'b', 'a'].map((id, i) => log.append(removed(id, Date.now() + i)));
    store.close();

    const again = new EventLog({ journal: tempStore(dir).store.events });
    expect(again.lastSeq).toBe(before.at(-1)!.seq);
    expect(again.since(before[0]!.seq)).toEqual(before.slice(1));
    expect(again.since(0, 'a')).toEqual([before[0], before[2]]);
    expect(again.append(removed('c', Date.now())).seq).toBe(before.at(-1)!.seq + 1);
  });

  it('over the store: seqs stay above every seq ever handed out after retention deleted the newest rows', () => {
    const { store } = tempStore();
    const log = new EventLog({ journal: store.events });
    const last = [1, 2, 3].map((i) => log.append(removed('a', i))).at(-1)!;
    store.prune(10 * 24 * 60 * 60 * 1000);
    expect(log.since(0)).toEqual([]);
    expect(log.lastSeq).toBe(last.seq);
    expect(log.append(removed('a', 4)).seq).toBe(last.seq + 1);
  });

  it('numbers on after a seq given by continueAfter (a journal made anew), in the store and the ring, and never back', () => {
    for (const log of [new EventLog({ journal: tempStore().store.events }), new EventLog()]) {
      log.continueAfter(41);
      expect(log.append(removed('a', 1)).seq).toBe(42);
      log.continueAfter(10); // behind what it handed out: no effect
      expect(log.append(removed('a', 2)).seq).toBe(43);
      log.continueAfter(99);
      expect(log.append(removed('a', 3)).seq).toBe(100);
      expect(log.since(0).map((e) => e.seq)).toEqual([42, 43, 100]);
    }
    // The store keeps it across a reopen.
    const { store, dir } = tempStore();
    new EventLog({ journal: store.events }).continueAfter(7);
    store.close();
    expect(new EventLog({ journal: tempStore(dir).store.events }).append(removed('b', 4)).seq).toBe(8);
  });

  it('renumbers the events after a seq to seqs after another, in order, in the store and the ring', () => {
    for (const log of [new EventLog({ journal: tempStore().store.events }), new EventLog()]) {
      for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) log.append(removed(id, i));
      expect(log.renumberAfter(2, 500)).toBe(2);
      expect(log.since(0).map((e) => [e.seq, e.session_id])).toEqual([[1, 'a'], [2, 'b'], [501, 'c'], [502, 'd']]);
      expect(log.append(removed('e', 9)).seq).toBe(503);
      expect(log.page(2, 10).map((e) => e.session_id)).toEqual(['c', 'd', 'e']);
      expect(log.renumberAfter(503, 600)).toBe(0);
      expect(log.append(removed('f', 10)).seq).toBe(601);
    }
  });

  it('a resume point above every seq it handed out (another numbering) replays from the start', () => {
    const log = new EventLog();
    log.append(removed('a', 1));
    log.append(removed('a', 2));
    expect(log.resumePoint(1)).toBe(1);
    expect(log.resumePoint(2)).toBe(2);
    expect(log.resumePoint(1_796_170_156_485_003)).toBe(0);
  });
});
