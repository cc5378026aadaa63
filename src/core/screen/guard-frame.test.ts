import { describe, expect, it } from 'vitest';
import { buildGuardFrame, GUARD_FRAME_SCROLLBACK_LINES } from './guard-frame.js';

describe('buildGuardFrame', () => {
  it('is the viewport itself when there is no scrollback', () => {
    const f = buildGuardFrame(['a', 'b'], ['a', 'b'], { row: 1, col: 0 });
    expect(f).toEqual({ lines: ['a', 'b'], cursor: { row: 1, col: 0 }, viewportStartRow: 0 });
  });

  it('pads to a constant height and rebases the cursor (the §9.4 example)', () => {
    const viewport = ['v0', 'v1', 'v2', 'v3', 'v4'];
    const all = ['s0', 's1', 's2', ...viewport];
    const f = buildGuardFrame(viewport, all, { row: 4, col: 2 });
    expect(f.lines).toHaveLength(205);
    expect(f.lines.slice(0, 197).every((l) => l === '')).toBe(true);
    expect(f.lines.slice(197)).toEqual(all);
    expect(f.cursor).toEqual({ row: 204, col: 2 });
    expect(f.viewportStartRow).toBe(GUARD_FRAME_SCROLLBACK_LINES);
    expect(f.lines[f.viewportStartRow]).toBe('v0');
  });

  it('keeps only the last 200 scrollback lines above the viewport', () => {
    const viewport = ['v'];
    const all = [...Array.from({ length: 500 }, (_, i) => `s${i}`), 'v'];
    const f = buildGuardFrame(viewport, all, { row: 0, col: 0 });
    expect(f.lines).toHaveLength(201);
    expect(f.lines[0]).toBe('s300');
    expect(f.lines[200]).toBe('v');
  });
});
