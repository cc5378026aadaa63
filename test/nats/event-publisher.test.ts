import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/daemon/event-log.js';
import { EventPublisher, type PublishFn } from '../../src/nats/event-publisher.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

/** A journal of `n` events (seqs 1..n) and a publisher over it that has published up to `cursor`. */
function journal(n: number, cursor = 0): { log: EventLog; publisher: EventPublisher; lines: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-publisher-'));
  dirs.push(dir);
  const cursorFile = path.join(dir, 'nats-published.json');
  if (cursor > 0) fs.writeFileSync(cursorFile, JSON.stringify({ seq: cursor }));
  const log = new EventLog();
  for (let i = 0; i < n; i++) log.append({ type: 'session.created', session_id: `s_${i}`, at: 1_000 + i } as never);
  const lines: string[] = [];
  const publish: PublishFn = () => Promise.reject(new Error('not reached'));
  return { log, publisher: new EventPublisher({ node: 'n1', events: log, publish, cursorFile, log: (m) => lines.push(m) }), lines };
}

describe('EventPublisher.reconcile: the journal against the last event the stream has of its node', () => {
  it('leaves the journal that published that event as it is, its cursor saved late or not', () => {
    const { log, publisher, lines } = journal(5, 2);
    const theirs = log.page(3, 1)[0]!;
    publisher.reconcile({ seq: 4, type: theirs.type, at: theirs.at, session_id: theirs.session_id });
    expect(log.page(0, 10).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(publisher.cursor).toBe(2);
    expect(lines).toEqual([]);
  });

  it('renumbers a journal that is shorter than the stream after the stream\'s last', () => {
    const { log, publisher, lines } = journal(3);
    publisher.reconcile({ seq: 9, type: 'session.created', at: 5, session_id: 's_x' });
    expect(log.page(0, 10).map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(publisher.cursor).toBe(9);
    expect(lines.join('\n')).toMatch(/journal reaches 3: its state dir is new under an old name/);
  });

  it('renumbers a journal that reaches past the stream\'s last but holds another event at that seq', () => {
    const { log, publisher, lines } = journal(6);
    publisher.reconcile({ seq: 4, type: 'session.created', at: 99, session_id: 's_elsewhere' });
    const seqs = log.page(0, 10).map((e) => e.seq);
    expect(seqs).toHaveLength(6);
    expect(seqs.every((s) => s > 4)).toBe(true);
    expect(log.page(0, 10).map((e) => e.session_id)).toEqual(['s_0', 's_1', 's_2', 's_3', 's_4', 's_5']);
    expect(publisher.cursor).toBe(4);
    expect(lines.join('\n')).toMatch(/its event 4 is not the one the stream has/);
  });

  it('does nothing when the stream has none of the node\'s events, or cannot say, or the cursor is past them', () => {
    for (const [last, cursor] of [['none', 0], [null, 0], [{ seq: 2, type: 'other', at: 1, session_id: 's_z' }, 3]] as const) {
      const { log, publisher, lines } = journal(4, cursor);
      publisher.reconcile(last);
      expect(log.page(0, 10).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(lines).toEqual([]);
    }
  });
});
