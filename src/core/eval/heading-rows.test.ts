import { describe, expect, it } from 'vitest';
import type { ExtractButtons } from '../spec/types.js';
import { extractButtons } from './extract.js';
import { headingReference, isHeadingRow } from './heading-rows.js';
import type { FrameCells } from './label-continuation.js';

/**
 * OpenCode's /sessions dialog as text: the title, the search row, then one group — its heading
 * "Today" at the options' own column, the current option marked "●", a plain option.
 */
const DIALOG = [
  '      Sessions                         esc',
  '',
  '      Search',
  '',
  '      Today',
  '    ● Lab session',
  '      Older session',
].join('\n');

const RULE: ExtractButtons = {
  pattern: '^ {4}(?:● |  )(?![^\\n]*esc *$)(?!Search$)(\\S[^\\n]*?) *$',
  flags: 'gm',
  label_group: 1,
  cursor_marker: '●',
  key_for_index: 'k{index}',
  min_count: 1,
  skip_headings: true,
};

interface Drawn {
  bold: boolean;
  bg: string;
}

/** Cells where every character of frame row `r` is drawn as `rows[r]` says (rows not listed: plain, default background). */
function cellsOf(rows: Record<number, Drawn>): FrameCells {
  const at = (r: number): Drawn => rows[r] ?? { bold: false, bg: 'default' };
  return {
    columnAt: (_r, i) => i,
    endColumn: (_r, i) => i + 1,
    width: () => 80,
    sameStyle: (ra, _ia, rb) => at(ra).bold === at(rb).bold && at(ra).bg === at(rb).bg,
    boldAlike: (ra, _ia, rb) => at(ra).bold && at(rb).bold && at(ra).bg === at(rb).bg,
  };
}

/** The title and the heading bold on the panel, the current option bold on the highlight, the rest plain. */
const OPENCODE_DRAWING = { 0: { bold: true, bg: 'panel' }, 4: { bold: true, bg: 'panel' }, 5: { bold: true, bg: 'highlight' }, 6: { bold: false, bg: 'panel' } };

describe('skip_headings: group headings are not options', () => {
  it('leaves out the row drawn bold on the title\'s background and numbers the rest again', () => {
    const buttons = extractButtons(RULE, DIALOG, cellsOf(OPENCODE_DRAWING));
    expect(buttons).toEqual([
      { index: 1, label: 'Lab session', key: 'k1', current: true },
      { index: 2, label: 'Older session', key: 'k2', current: false },
    ]);
  });

  it('reads the cells at the haystack\'s own rows (a section lower on the screen)', () => {
    const shifted = Object.fromEntries(Object.entries(OPENCODE_DRAWING).map(([r, d]) => [Number(r) + 3, d]));
    expect(extractButtons(RULE, DIALOG, cellsOf(shifted), 3).map((b) => b.label)).toEqual(['Lab session', 'Older session']);
  });

  it('keeps every row when the cells cannot tell: text alone, or cells without the comparison', () => {
    expect(extractButtons(RULE, DIALOG).map((b) => b.label)).toEqual(['Today', 'Lab session', 'Older session']);
    const { boldAlike: _unused, ...withoutComparison } = cellsOf(OPENCODE_DRAWING);
    expect(extractButtons(RULE, DIALOG, withoutComparison).map((b) => b.label)).toEqual(['Today', 'Lab session', 'Older session']);
  });

  it('keeps every row when the title is drawn plain (a torn frame: the title row shows something else)', () => {
    const plainTitle = { ...OPENCODE_DRAWING, 0: { bold: false, bg: 'panel' } };
    expect(extractButtons(RULE, DIALOG, cellsOf(plainTitle)).map((b) => b.label)).toEqual(['Today', 'Lab session', 'Older session']);
  });

  it('is off unless asked for', () => {
    const { skip_headings: _off, ...plain } = RULE;
    expect(extractButtons(plain, DIALOG, cellsOf(OPENCODE_DRAWING)).map((b) => b.label)).toEqual(['Today', 'Lab session', 'Older session']);
  });

  it('takes the title\'s first character past borders and blocks, and never calls the title row a heading', () => {
    expect(headingReference('\n  ┃ ▀▀ Commands   esc\n  x')).toEqual({ line: 1, index: 7 });
    expect(headingReference('\n\n')).toBeNull();
    const cells = cellsOf({ 0: { bold: true, bg: 'panel' } });
    expect(isHeadingRow(cells, 0, { line: 0, index: 6 }, { line: 0, index: 10 })).toBe(false);
  });
});
