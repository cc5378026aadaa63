import { describe, expect, it } from 'vitest';
import { chooseTerminalSize, FALLBACK_COLS, FALLBACK_ROWS } from './terminal-size.js';

describe('chooseTerminalSize', () => {
  it('uses the size a terminal reports', () => {
    expect(chooseTerminalSize({ isTTY: true, columns: 120, rows: 40 }, {})).toEqual({ cols: 120, rows: 40, note: null });
  });

  it('falls back to 80×24 and says why when a terminal reports 0×0 (script without a size)', () => {
    const r = chooseTerminalSize({ isTTY: true, columns: 0, rows: 0 }, {});
    expect(r).toMatchObject({ cols: FALLBACK_COLS, rows: FALLBACK_ROWS });
    expect(r.note).toMatch(/reports its size as 0×0; using 80×24/);
    expect(r.note).toMatch(/stty cols/);
  });

  it('replaces only the unusable dimension, and a height too small for the status bar', () => {
    expect(chooseTerminalSize({ isTTY: true, columns: 100, rows: 0 }, {})).toMatchObject({ cols: 100, rows: 24 });
    expect(chooseTerminalSize({ isTTY: true, columns: 0, rows: 30 }, {})).toMatchObject({ cols: 80, rows: 30 });
    expect(chooseTerminalSize({ isTTY: true, columns: 100, rows: 1 }, {})).toMatchObject({ cols: 100, rows: 24 });
    expect(chooseTerminalSize({ isTTY: true, columns: undefined, rows: undefined }, {}).note).toMatch(/unknown/);
  });

  it('reads COLUMNS and LINES when not on a terminal, ignoring values that are not positive whole numbers', () => {
    expect(chooseTerminalSize({ isTTY: false }, { COLUMNS: '132', LINES: '50' })).toEqual({ cols: 132, rows: 50, note: null });
    expect(chooseTerminalSize({ isTTY: false }, {})).toEqual({ cols: 80, rows: 24, note: null });
    for (const bad of ['0', '-5', '1.5', 'wide', '']) {
      expect(chooseTerminalSize({ isTTY: false }, { COLUMNS: bad, LINES: bad })).toMatchObject({ cols: 80, rows: 24 });
    }
  });
});
