import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers/temp-store.js';
import { openStore } from './open-store.js';
import { decodeCursor, encodeCursor, MAX_PAGE_LIMIT, type PageRequest } from './paging.js';
import type { Store } from './store.js';
import type { StateChangeRecord } from './state-changes-table.js';

const T0 = Date.UTC(2026, 11, 1);

let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
let all: StateChangeRecord[];
beforeAll(() => {
  tmp = makeTempDir();
  store = openStore(tmp.dbPath, { now: () => T0 });
  store.sessions.insert({ id: 'a', cwd: '/', createdAt: T0 });
  store.sessions.insert({ id: 'b', cwd: '/', createdAt: T0 });
  all = [];
  store.transaction(() => {
    // Many rows share a timestamp, and times are inserted out of order, so (t, id) order differs from id order.
    for (let i = 0; i < 250; i += 1) {
      all.push(store.stateChanges.insert({ sessionId: i % 3 === 0 ? 'b' : 'a', t: T0 + ((i * 37) % 40), state: `s${i}`, status: 'idle' }));
    }
  });
});
afterAll(() => {
  store.close();
  tmp.cleanup();
});

function byTimeThenId(x: StateChangeRecord, y: StateChangeRecord): number {
  return x.t - y.t || x.id - y.id;
}

function readAllPages(request: PageRequest): { rows: StateChangeRecord[]; pages: number } {
  const rows: StateChangeRecord[] = [];
  let pages = 0;
  let after = request.after;
  for (;;) {
    const page = store.stateChanges.page({ ...request, after });
    pages += 1;
    rows.push(...page.items);
    if (!page.next) return { rows, pages };
    after = page.next;
  }
}

describe('keyset paging', () => {
  it('returns every row exactly once in (t, id) order, oldest first', () => {
    const { rows, pages } = readAllPages({ limit: 100 });
    expect(pages).toBe(3);
    expect(rows).toEqual([...all].sort(byTimeThenId));
  });

  it('returns every row exactly once newest first', () => {
    expect(readAllPages({ limit: 7, order: 'desc' }).rows).toEqual([...all].sort(byTimeThenId).reverse());
  });

  it('filters by session and by time range for any page size', () => {
    fc.assert(fc.property(
      fc.constantFrom('a', 'b', undefined), fc.integer({ min: 0, max: 45 }), fc.integer({ min: 0, max: 45 }), fc.integer({ min: 1, max: 60 }),
      fc.constantFrom('asc' as const, 'desc' as const),
      (sessionId, from, to, limit, order) => {
        const request = { sessionId, sinceMs: T0 + from, untilMs: T0 + to, limit, order };
        const expected = all.filter((c) => (sessionId === undefined || c.sessionId === sessionId) && c.t >= T0 + from && c.t < T0 + to).sort(byTimeThenId);
        expect(readAllPages(request).rows).toEqual(order === 'asc' ? expected : expected.reverse());
      }), { numRuns: 60 });
  });

  it('neither repeats nor skips a row when rows are added between pages', () => {
    store.sessions.insert({ id: 'live', cwd: '/', createdAt: T0 });
    store.stateChanges.insert({ sessionId: 'live', t: T0 + 1, state: 'x0', status: 'idle' });
    const first = store.stateChanges.page({ sessionId: 'live', limit: 1 });
    expect(first.next).toBeNull();
    const second = store.stateChanges.insert({ sessionId: 'live', t: T0 + 2, state: 'x1', status: 'idle' });
    // A client at the end resumes from the last row it saw, not from the null of an exhausted page.
    const resumed = store.stateChanges.page({ sessionId: 'live', after: { t: first.items[0]!.t, id: first.items[0]!.id } });
    expect(resumed.items).toEqual([second]);
  });

  it('refuses a limit outside 1..MAX_PAGE_LIMIT naming the value', () => {
    for (const limit of [0, -1, 1.5, MAX_PAGE_LIMIT + 1]) {
      expect(() => store.stateChanges.page({ limit })).toThrow(expect.objectContaining({ code: 'STORE_INVALID_INPUT', message: expect.stringContaining(`limit ${limit}`) }));
    }
  });
});

describe('paging by id', () => {
  it('follows insertion order even when the clock went back, resuming after an id', () => {
    store.sessions.insert({ id: 'clock', cwd: '/', createdAt: T0 });
    const times = [T0 + 500, T0 + 100, T0 + 300, T0 + 200];
    const inserted = times.map((t, i) => store.stateChanges.insert({ sessionId: 'clock', t, state: `c${i}`, status: 'idle' }));
    const first = store.stateChanges.page({ sessionId: 'clock', by: 'id', limit: 2 });
    expect(first.items.map((c) => c.state)).toEqual(['c0', 'c1']);
    const rest = store.stateChanges.page({ sessionId: 'clock', by: 'id', after: { t: 0, id: first.items[1]!.id } });
    expect(rest.items).toEqual(inserted.slice(2));
    expect(store.stateChanges.page({ sessionId: 'clock', by: 'id', order: 'desc' }).items.map((c) => c.state)).toEqual(['c3', 'c2', 'c1', 'c0']);
    expect(store.stateChanges.page({ sessionId: 'clock' }).items.map((c) => c.state)).toEqual(['c1', 'c3', 'c2', 'c0']);
  });
});

describe('cursor text', () => {
  it('round-trips and refuses anything else', () => {
    expect(decodeCursor(encodeCursor({ t: T0, id: 42 }))).toEqual({ t: T0, id: 42 });
    for (const bad of ['', '1', '1.x', 'a.b', '1.2.3', ' 1.2', '1e3.4']) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'STORE_INVALID_INPUT' }));
    }
  });
});
