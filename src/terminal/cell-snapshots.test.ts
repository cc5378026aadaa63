import { describe, expect, it } from 'vitest';
import { CellSnapshots } from './cell-snapshots.js';

const ROWS = 40;
const SLOTS = ROWS + 256;
const WORDS = 3 * 120;

describe('CellSnapshots', () => {
  it('keeps byte views only for the slots it may compare again (the viewport), not for every window slot', () => {
    const cells = new CellSnapshots(() => ROWS);
    cells.reset(SLOTS);
    // A full window translated once: every slot read through a view, the viewport's cells kept.
    const rows = Array.from({ length: SLOTS }, () => new Uint32Array(WORDS));
    for (let k = 0; k < SLOTS; k++) {
      const bytes = cells.bytesOf(k, rows[k]!, WORDS);
      if (k >= SLOTS - ROWS) cells.remember(k, bytes);
      else cells.release(k);
    }
    // A view holds its row's array (and costs two objects): 256 scrollback slots kept 256 of them.
    expect(cells.heldViews()).toBe(ROWS);
    // A kept slot still answers from its view and its cells.
    const k = SLOTS - 1;
    expect(cells.isSame(k, cells.bytesOf(k, rows[k]!, WORDS))).toBe(true);
    rows[k]![0] = 0x41;
    expect(cells.isSame(k, cells.bytesOf(k, rows[k]!, WORDS))).toBe(false);
  });
});
