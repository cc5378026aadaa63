import { describe, expect, it } from 'vitest';
import type { CliSpecV4, SectionDef, StableCondition } from '../spec/types.js';
import { resolveSections } from './sections.js';
import { collectStableRegions, regionChanged, stableRegionKey, type StableRegion } from './stable-regions.js';

function frame(lines: string[], defs?: Record<string, SectionDef>) {
  return { lines, sections: resolveSections(defs, lines) };
}

describe('stableRegionKey', () => {
  it('is -1 for the whole screen, N for cursor_above N, section:<id> for a section', () => {
    expect(stableRegionKey({ stable_ms: 1 })).toBe(-1);
    expect(stableRegionKey({ stable_ms: 1, cursor_above: 0 })).toBe(-1);
    expect(stableRegionKey({ stable_ms: 1, cursor_above: 4 })).toBe(4);
    expect(stableRegionKey({ stable_ms: 1, section: 'tail', cursor_above: 4 })).toBe('section:tail');
  });

  it('appends #ignore:<pattern> when ignore_lines is set', () => {
    expect(stableRegionKey({ stable_ms: 1, ignore_lines: '^\\s*\\d+ tokens$' })).toBe('-1#ignore:^\\s*\\d+ tokens$');
    expect(stableRegionKey({ stable_ms: 1, cursor_above: 3, ignore_lines: 'x' })).toBe('3#ignore:x');
    expect(stableRegionKey({ stable_ms: 1, section: 's', ignore_lines: 'x' })).toBe('section:s#ignore:x');
  });

  it('tolerates a malformed condition', () => {
    expect(stableRegionKey(null as unknown as StableCondition)).toBe(-1);
  });
});

describe('collectStableRegions', () => {
  const spec = {
    transitions: [
      { from: 'busy', to: 'idle', when: { all: [{ stable_ms: 1, cursor_above: 4 }, { not: { stable_ms: 2, section: 'tail' } }] } },
      { from: ['busy', 'approval'], to: 'idle', when: { any: [{ stable_ms: 3, cursor_above: 4 }, { stable_ms: 8, ignore_lines: 'tok' }] } },
      { from: 'idle', to: 'busy', when: { stable_ms: 9, cursor_above: 7 } },
      { from: '*', to: 'x', when: { all: 'oops' } },
      // Evaluator order: an `all` that also carries stable_ms is a conjunction, not a stable leaf.
      { from: 'busy', to: 'y', when: { all: [], stable_ms: 5, cursor_above: 11 } },
    ],
  } as unknown as CliSpecV4;

  it('lists distinct regions from the state’s outgoing guards, whole screen first', () => {
    expect(collectStableRegions(spec, 'busy')).toEqual([
      { key: -1 },
      { key: 4, cursorAbove: 4 },
      { key: 'section:tail', section: 'tail' },
      { key: '-1#ignore:tok', ignoreLines: 'tok' },
    ]);
  });

  it('always includes the whole-screen region, even with no stable leaves', () => {
    expect(collectStableRegions(spec, 'nowhere')).toEqual([{ key: -1 }]);
    expect(collectStableRegions({} as CliSpecV4, 'busy')).toEqual([{ key: -1 }]);
  });
});

describe('regionChanged', () => {
  const whole: StableRegion = { key: -1 };

  it('compares whole frames', () => {
    expect(regionChanged(whole, frame(['a', 'b']), frame(['a', 'b']), 0)).toBe(false);
    expect(regionChanged(whole, frame(['a', 'c']), frame(['a', 'b']), 0)).toBe(true);
  });

  it('compares the cursor_above window [end-N, end) with end = clamp(cursorRow)', () => {
    const region: StableRegion = { key: 2, cursorAbove: 2 };
    const prev = frame(['a', 'b', 'c', 'd']);
    expect(regionChanged(region, frame(['X', 'b', 'c', 'd']), prev, 3)).toBe(false);
    expect(regionChanged(region, frame(['a', 'b', 'X', 'd']), prev, 3)).toBe(true);
    // cursor beyond the content clamps to the line count
    expect(regionChanged(region, frame(['a', 'b', 'c', 'X']), prev, 99)).toBe(true);
  });

  it('counts an unmeasurable window (cursor at row 0 or not a number) as changed (§13.7)', () => {
    const region: StableRegion = { key: 4, cursorAbove: 4 };
    const same = frame(['a', 'b']);
    expect(regionChanged(region, same, same, 0)).toBe(true);
    expect(regionChanged(region, same, same, -5)).toBe(true);
    expect(regionChanged(region, same, same, Number.NaN)).toBe(true);
    expect(regionChanged(region, frame([]), frame([]), 3)).toBe(true);
    expect(regionChanged(region, same, same, 2)).toBe(false);
  });

  it('compares a section sliced from each frame’s own resolution', () => {
    const defs = { tail: { anchor: '^status', anchor_miss: 'empty' as const } };
    const region: StableRegion = { key: 'section:tail', section: 'tail' };
    expect(regionChanged(region, frame(['x', 'status ok'], defs), frame(['status ok'], defs), 0)).toBe(false);
    expect(regionChanged(region, frame(['status busy'], defs), frame(['status ok'], defs), 0)).toBe(true);
  });

  it('drops ignore_lines matches from both frames before comparing (§13.5)', () => {
    const region: StableRegion = { key: '-1#ignore:^\\s*↓ \\d+ tokens$', ignoreLines: '^\\s*↓ \\d+ tokens$' };
    expect(regionChanged(region, frame(['⏺ Done.', '  ↓ 120 tokens', '❯ ']), frame(['⏺ Done.', '  ↓ 80 tokens', '❯ ']), 0)).toBe(false);
    // An active spinner line does not match the benign pattern, so its tick still counts.
    const cur = frame(['✻ Thinking… (4s · ↓ 120 tokens)', '❯ ']);
    const prev = frame(['✻ Thinking… (3s · ↓ 80 tokens)', '❯ ']);
    expect(regionChanged(region, cur, prev, 0)).toBe(true);
  });

  it('sees a ticking spinner as a whole-screen change even when it sits below the prompt (§13.4)', () => {
    const cur = frame(['⏺ Done.', '❯ ', '✽ Ebbing (3m 2s)']);
    const prev = frame(['⏺ Done.', '❯ ', '✽ Ebbing (3m 1s)']);
    expect(regionChanged(whole, cur, prev, 1)).toBe(true);
    expect(regionChanged({ key: 1, cursorAbove: 1 }, cur, prev, 1)).toBe(false);
  });

  it('treats [] and [""] as equal, like the joined-text comparison', () => {
    expect(regionChanged(whole, frame([]), frame(['']), 0)).toBe(false);
  });
});
