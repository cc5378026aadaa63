import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SectionDef } from '../spec/types.js';
import { RowCache } from './row-tester.js';
import { resolveSections, sectionText } from './sections.js';

const D = '─'.repeat(40);

/** §2.3 Example A: Claude-style sections. */
const CLAUDE_SECTIONS: Record<string, SectionDef> = {
  footer: { anchor: '^[❯›>]', anchor_last: true },
  modal: {
    anchor: ['^[─╌]+$', '\\S'],
    anchor_last: true,
    anchor_context: [{ next: '^(?![─╌]+$)' }, { next: '^\\s*[❯›>➜]?\\s*1\\.\\s' }],
    until: '^\\s*[❯›>➜](?!\\s*\\d+\\.)',
  },
  body: { from_top: 0, until: 'modal' },
};

function ranges(defs: Record<string, SectionDef>, lines: string[]): Record<string, [number, number]> {
  return Object.fromEntries(resolveSections(defs, lines).map((s) => [s.id, [s.fromLine, s.toLine]]));
}

describe('resolveSections — §2.3 worked examples', () => {
  it('Example A: footer misses (whole screen), modal is the topmost candidate [5,10), body stops at modal', () => {
    const screen = ['⏺ Bash(ls)', '', D, ' Bash command', '', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', D, ' Esc to cancel'];
    expect(ranges(CLAUDE_SECTIONS, screen)).toEqual({ footer: [0, 10], modal: [5, 10], body: [0, 5] });
  });

  it('Example B: idle screen gives footer [2,5), modal [3,5), body [0,3)', () => {
    const screen = ['Welcome', D, '❯ ', D, '  ? for shortcuts'];
    const out = resolveSections(CLAUDE_SECTIONS, screen);
    expect(ranges(CLAUDE_SECTIONS, screen)).toEqual({ footer: [2, 5], modal: [3, 5], body: [0, 3] });
    expect(out.find((s) => s.id === 'modal')!.text).toBe(`${D}\n  ? for shortcuts`);
  });

  it('Example C: anchors miss → whole screen, and body starved by until:modal is empty (§13.9)', () => {
    expect(ranges(CLAUDE_SECTIONS, ['hello', 'world'])).toEqual({ footer: [0, 2], modal: [0, 2], body: [0, 0] });
  });

  describe('Example D table over lines A..F', () => {
    const lines = ['A', 'B', 'C', 'D', 'E', 'F'];
    const cases: Array<[string, SectionDef, [number, number]]> = [
      ['from_top skips the first N lines', { from_top: 2 }, [2, 6]],
      ['from_bottom takes the last N lines', { from_bottom: 2 }, [4, 6]],
      ['a percentage from_bottom rounds total×pct', { from_bottom: '50%' }, [3, 6]],
      ['from_top wins over from_bottom', { from_top: 1, from_bottom: 1 }, [1, 6]],
      ['anchor + lines', { anchor: '^B', lines: 2 }, [1, 3]],
      ['anchor + until_regex (exclusive)', { anchor: '^B', until_regex: '^E' }, [1, 4]],
      ['anchor_miss empty', { anchor: '^ZZZ', anchor_miss: 'empty' }, [0, 0]],
      ['anchor miss → whole screen', { anchor: '^ZZZ' }, [0, 6]],
      ['above starts K lines over the anchor', { anchor: '^D', above: 2 }, [1, 6]],
      ['until regex searches after `from`, not after the anchor', { anchor: '^C', until: '^[A-C]' }, [2, 6]],
    ];
    for (const [title, def, expected] of cases) {
      it(title, () => {
        expect(ranges({ s: def }, lines).s).toEqual(expected);
      });
    }

    it('until:<id> ends at the target PASS-1 start (above applied)', () => {
      expect(ranges({ up: { anchor: '^D', above: 2 }, top: { from_top: 0, until: 'up' } }, lines).top).toEqual([0, 1]);
    });
  });
});

describe('resolveSections — rules', () => {
  it('returns sections in declaration order with their text', () => {
    const out = resolveSections({ b: { from_top: 1 }, a: { from_bottom: 1 } }, ['x', 'y', 'z']);
    expect(out).toEqual([
      { id: 'b', fromLine: 1, toLine: 3, text: 'y\nz' },
      { id: 'a', fromLine: 2, toLine: 3, text: 'z' },
    ]);
  });

  it('resolves each anchor candidate to its first match without anchor_last', () => {
    expect(ranges({ s: { anchor: '^x' } }, ['a', 'x1', 'x2']).s).toEqual([1, 3]);
    expect(ranges({ s: { anchor: '^x', anchor_last: true } }, ['a', 'x1', 'x2']).s).toEqual([2, 3]);
  });

  it('applies anchor_flags to anchor regexes (case-sensitive by default)', () => {
    expect(ranges({ s: { anchor: '^b' } }, ['a', 'B']).s).toEqual([0, 2]);
    expect(ranges({ s: { anchor: '^b', anchor_flags: 'i' } }, ['a', 'B']).s).toEqual([1, 2]);
  });

  it('fails a context regex on a neighbour line that does not exist', () => {
    expect(ranges({ s: { anchor: '^a', anchor_context: { prev: '.*' }, anchor_miss: 'empty' } }, ['a', 'b']).s).toEqual([0, 0]);
    expect(ranges({ s: { anchor: '^b', anchor_context: { next: '.*' }, anchor_miss: 'empty' } }, ['a', 'b']).s).toEqual([0, 0]);
    expect(ranges({ s: { anchor: '^b', anchor_context: { prev: '^a$' } } }, ['a', 'b']).s).toEqual([1, 2]);
  });

  it('applies a single context object to every anchor candidate', () => {
    const def: SectionDef = { anchor: ['^x', '^y'], anchor_context: { prev: '^ok$' }, anchor_miss: 'empty' };
    expect(ranges({ s: def }, ['x', 'ok', 'y']).s).toEqual([2, 3]);
  });

  it('abandons the anchor block on an invalid anchor regex, even with anchor_miss (whole screen)', () => {
    expect(ranges({ s: { anchor: ['^a', '('], anchor_miss: 'empty' } }, ['a', 'b']).s).toEqual([0, 2]);
    expect(ranges({ s: { anchor: '^b', anchor_context: { next: '[' }, anchor_miss: 'empty' } }, ['a', 'b']).s).toEqual([0, 2]);
  });

  it('ignores an invalid until_regex and an invalid until regex', () => {
    expect(ranges({ s: { anchor: '^b', until_regex: '(' } }, ['a', 'b', 'c']).s).toEqual([1, 3]);
    expect(ranges({ s: { from_top: 0, until: '^(' } }, ['a', 'b']).s).toEqual([0, 2]);
  });

  it('compiles an until regex without flags (case-sensitive)', () => {
    expect(ranges({ s: { from_top: 0, until: '^b' } }, ['a', 'B', 'b']).s).toEqual([0, 2]);
  });

  it('searches until_regex from below the anchor line even when above moves the start', () => {
    expect(ranges({ s: { anchor: '^C', above: 2, until_regex: '^[A-Z]' } }, ['A', 'B', 'C', 'D']).s).toEqual([0, 3]);
  });

  it('ignores an unknown until id and never chains until references', () => {
    const lines = ['a', 'b', 'c', 'd'];
    expect(ranges({ s: { from_top: 1, until: 'nope' } }, lines).s).toEqual([1, 4]);
    // x ends at y's pass-1 start (2) even though y's own until would move y's end.
    const out = ranges({ x: { from_top: 0, until: 'y' }, y: { from_top: 2, until: 'z' }, z: { from_top: 3 } }, lines);
    expect(out).toEqual({ x: [0, 2], y: [2, 3], z: [3, 4] });
  });

  it('clamps an until target above the start to an empty section', () => {
    expect(ranges({ t: { from_top: 1 }, s: { from_top: 3, until: 't' } }, ['a', 'b', 'c', 'd']).s).toEqual([3, 3]);
  });

  it('resolves sizes: clamped numbers, decimal percentages, junk → 0', () => {
    const lines = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    expect(ranges({ s: { from_bottom: 99 } }, lines).s).toEqual([0, 8]);
    expect(ranges({ s: { from_bottom: '12.5%' } }, lines).s).toEqual([7, 8]);
    expect(ranges({ s: { from_bottom: 'half' } }, lines).s).toEqual([8, 8]);
    expect(ranges({ s: { from_top: -3 } }, lines).s).toEqual([0, 8]);
  });

  it('degrades malformed definitions to the whole screen instead of throwing', () => {
    const defs = { a: null, b: 7, c: { anchor: 5 }, d: { anchor: '^x', lines: 'two' } } as unknown as Record<string, SectionDef>;
    expect(ranges(defs, ['x', 'y'])).toEqual({ a: [0, 2], b: [0, 2], c: [0, 2], d: [0, 2] });
    expect(resolveSections(undefined, ['x'])).toEqual([]);
    expect(resolveSections('nope' as unknown as Record<string, SectionDef>, ['x'])).toEqual([]);
  });

  it('matches a g-flagged anchor on every line (no lastIndex carry-over, §13.27)', () => {
    expect(ranges({ s: { anchor: 'x', anchor_flags: 'g', anchor_last: true } }, ['x', 'x', 'x']).s).toEqual([2, 3]);
    expect(ranges({ s: { anchor: ['zz', 'x'], anchor_flags: 'g' } }, ['ax', 'x']).s).toEqual([0, 2]);
  });
});

describe('sectionText', () => {
  const sections = resolveSections({ top: { lines: 1, anchor: '^a' } }, ['a', 'b']);
  it('returns the whole screen without an id, the section text for a known id, and "" otherwise', () => {
    expect(sectionText(sections, undefined, 'a\nb')).toBe('a\nb');
    expect(sectionText(sections, 'top', 'a\nb')).toBe('a');
    expect(sectionText(sections, 'missing', 'a\nb')).toBe('');
  });
});

describe('resolveSections — anchor search', () => {
  const ROWS = ['', D, '❯ ', '❯ 1. Yes', '  2. No', 'text', '✻ Thinking…', ' Do you want to proceed?'];
  const PATTERNS = ['^[─╌]+$', '\\S', '^❯', '1\\.', '^(?![─╌]+$)', '^$', 'No'];
  const candidate = fc.record({
    anchor: fc.constantFrom(...PATTERNS),
    prev: fc.option(fc.constantFrom(...PATTERNS), { nil: undefined }),
    next: fc.option(fc.constantFrom(...PATTERNS), { nil: undefined }),
  });

  /** The anchor row by definition: per candidate the first (or last) row whose context rows exist and match; the topmost wins. */
  function plainAnchor(cands: Array<{ anchor: string; prev?: string; next?: string }>, last: boolean, lines: string[]): number {
    let best = -1;
    for (const c of cands) {
      const at = (i: number) => new RegExp(c.anchor, 'u').test(lines[i]!)
        && (c.prev === undefined || (i > 0 && new RegExp(c.prev, 'u').test(lines[i - 1]!)))
        && (c.next === undefined || (i < lines.length - 1 && new RegExp(c.next, 'u').test(lines[i + 1]!)));
      const rows = lines.map((_, i) => i).filter(at);
      const found = rows.length === 0 ? -1 : last ? rows.at(-1)! : rows[0]!;
      if (found !== -1 && (best === -1 || found < best)) best = found;
    }
    return best;
  }

  it('finds the same anchor row as a row-by-row scan, frame after frame on one row cache', () => {
    fc.assert(
      fc.property(
        fc.array(candidate, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.array(fc.array(fc.constantFrom(...ROWS), { minLength: 0, maxLength: 30 }), { minLength: 1, maxLength: 5 }),
        (cands, last, frames) => {
          const def: SectionDef = {
            anchor: cands.map((c) => c.anchor),
            anchor_context: cands.map((c) => ({ ...(c.prev !== undefined && { prev: c.prev }), ...(c.next !== undefined && { next: c.next }) })),
            anchor_last: last,
            anchor_miss: 'empty',
          };
          const cache = new RowCache();
          for (const lines of frames) {
            const want = plainAnchor(cands, last, lines);
            const [s] = resolveSections({ s: def }, lines, undefined, cache);
            expect(s!.fromLine).toBe(want === -1 ? 0 : want);
            expect(s!.toLine).toBe(want === -1 ? 0 : lines.length);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
