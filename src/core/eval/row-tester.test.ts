import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowCache, ROW_MATCH, ROW_NO_MATCH } from './row-tester.js';
import { testRegex } from './regex-cache.js';

const ROWS = ['', '❯ ', '❯ 1. Yes', '✻ Thinking… (3s)', '─'.repeat(10), 'hello', 'hello world', '  2. No', 'esc to interrupt'];

/** A frame sequence: each step scrolls, rewrites rows, grows or shrinks the previous frame. */
const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('scroll' as const), by: fc.integer({ min: 1, max: 40 }), fill: fc.constantFrom(...ROWS) }),
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), row: fc.constantFrom(...ROWS) }),
    fc.record({ kind: fc.constant('resize' as const), height: fc.integer({ min: 0, max: 60 }), fill: fc.constantFrom(...ROWS) }),
  ),
  { minLength: 1, maxLength: 25 },
);

describe('RowCache testers', () => {
  it('answer exactly the predicate on every row of every frame, whatever moved', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ROWS), { minLength: 0, maxLength: 50 }), steps, fc.boolean(), (first, moves, lazy) => {
        const cache = new RowCache();
        const re = /^❯\s*\d+\.\s/u;
        let frame = first.slice();
        const check = (lines: string[]) => {
          const t = cache.regex(re, lines);
          const lit = cache.literal('hello', lines);
          // Lazily (only some rows asked) or every row, in either order: answers never go stale.
          const order = lazy ? lines.map((_, i) => lines.length - 1 - i).filter((i) => i % 2 === 0) : lines.map((_, i) => i);
          for (const i of order) {
            expect(t.test(i)).toBe(testRegex(re, lines[i]!));
            expect((lit.results[i] || lit.code(i)) === ROW_MATCH).toBe(lines[i]!.includes('hello'));
          }
          expect(t.test(lines.length)).toBe(false);
          expect(t.code(-1)).toBe(ROW_NO_MATCH);
        };
        check(frame);
        for (const m of moves) {
          const next = frame.slice();
          if (m.kind === 'scroll') {
            next.splice(0, Math.min(m.by, next.length));
            next.push(...Array<string>(m.by).fill(m.fill));
          } else if (m.kind === 'set' && next.length > 0) {
            next[m.at % next.length] = m.row;
          } else if (m.kind === 'resize') {
            next.length = m.height;
            next.fill(m.fill, frame.length);
          }
          frame = Array.from(next, (r) => r ?? '');
          check(frame);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('find the first and last matching row of any range exactly as a plain scan, across frames and partly tested rows', () => {
    // Matches are rare and many rows are tested beforehand, so scans cross long runs of rows
    // known not to match (where they search natively) as well as untested rows.
    const sparse = ['', '', 'x', 'y y', '─'.repeat(4), '  2. No', 'hello'];
    // Which rows are tested before the queries: a random half, or all but a few.
    const pretested = fc.oneof(
      fc.array(fc.boolean(), { maxLength: 60 }).map((mask) => (i: number) => mask[i] === true),
      fc.array(fc.nat(999), { maxLength: 4 }).map((left) => (i: number, n: number) => !left.some((k) => Math.floor((k * n) / 1000) === i)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fc.constantFrom(...sparse), { minLength: 0, maxLength: 60 }), pretested), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.integer({ min: -3, max: 65 }), fc.integer({ min: -3, max: 65 }), fc.boolean()), { minLength: 1, maxLength: 12 }),
        (frames, queries) => {
          const cache = new RowCache();
          const re = /hello/u;
          for (const [lines, pretest] of frames) {
            const t = cache.regex(re, lines);
            lines.forEach((_, i) => { if (pretest(i, lines.length)) t.code(i); });
            for (const [from, to, last] of queries) {
              const inRange = lines.map((l, i) => (i >= from && i < to && testRegex(re, l) ? i : -1)).filter((i) => i !== -1);
              const want = inRange.length === 0 ? -1 : last ? inRange.at(-1)! : inRange[0]!;
              expect(last ? t.lastMatch(from, to) : t.firstMatch(from, to)).toBe(want);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('past a long run of rows known not to match, still test the untested row and stop at the range end', () => {
    const lines = [...Array<string>(12).fill('x'), 'hello', 'x', 'hello'];
    const t = new RowCache().regex(/hello/u, lines);
    for (let i = 0; i < 12; i += 1) t.code(i); // rows 0–11 known, 12 (a match) untested
    expect(t.firstMatch(0, 15)).toBe(12);
    expect(t.firstMatch(0, 12)).toBe(-1); // the match at the range end is outside it
    // And upwards: rows 1–12 known, the match at row 0 (the range start) untested.
    const up = ['hello', ...Array<string>(12).fill('x')];
    const u = new RowCache().regex(/hello/u, up);
    for (let i = 1; i < 13; i += 1) u.code(i);
    expect(u.lastMatch(1, 13)).toBe(-1);
    expect(u.lastMatch(0, 13)).toBe(0);
    expect(u.lastMatch(0, 13)).toBe(0); // now known: found by the native search itself
  });

  it('finds the scroll between two frames, so rows that moved keep their answers', () => {
    const cache = new RowCache();
    const a = Array.from({ length: 100 }, (_, i) => `row ${i}`);
    const b = a.slice(30).concat(Array.from({ length: 30 }, (_, i) => `new ${i}`));
    const d = cache.diff(a, b);
    expect(d.shift).toBe(30);
    expect(d.aligned).toBe(70);
    expect(d.changed).toEqual([]);
  });
});
