import { describe, expect, it } from 'vitest';
import type { ExtractButtons, FsmState } from '../spec/types.js';
import { splitScreenLines } from '../screen/lines.js';
import { deriveModal, extractButtons } from './extract.js';
import type { FrameCells } from './label-continuation.js';
import { resolveSections } from './sections.js';

const NUMBERED = '^[ \\t]*(?:❯[ \\t]*)?(\\d+)\\.[ \\t]+(\\S+(?: \\S+)*)';

/**
 * Cells of a constructed screen `width` columns wide: `styles[row]` names the style of every
 * character of that row (one letter per text index, e.g. 'ggLLLL'); a missing row is unknown.
 * Columns are text indices except where `wide` lists the rows whose first character takes two cells.
 */
function cellsOf(styles: Record<number, string>, wide: number[] = [], width = 60): FrameCells {
  const columnAt = (row: number, index: number): number =>
    styles[row] === undefined || index < 0 || index >= styles[row]!.length ? -1 : index + (wide.includes(row) && index > 0 ? 1 : 0);
  return {
    columnAt,
    endColumn: (row, index) => (columnAt(row, index) < 0 ? -1 : columnAt(row, index) + (wide.includes(row) && index === 0 ? 2 : 1)),
    width: () => width,
    sameStyle: (ra, ia, rb, ib) => {
      const a = styles[ra]?.[ia];
      const b = styles[rb]?.[ib];
      return a === undefined || b === undefined ? null : a === b;
    },
  };
}

/** Styles for `lines`: every character `L` (label colour) but rows listed in `grey`, drawn `g`. */
function styled(lines: string[], grey: number[]): Record<number, string> {
  return Object.fromEntries(lines.map((l, i) => [i, (grey.includes(i) ? 'g' : 'L').repeat(l.length)]));
}

// Claude Code's AskUserQuestion at 60 columns: label 2 wraps over three rows; descriptions under
// each option start at the same column, in grey.
const PICKER = [
  '❯ 1. Vitest',
  '     Fast, Vite-native, Jest-compatible API',
  '  2. Jest with the ts-jest transformer, the node environment',
  '     and coverage collected by the v8 provider for every',
  '     package',
  '     The most widely used runner',
  '  3. node:test',
  '     Built into Node, no dependency',
];
const GREY_ROWS = [1, 5, 7];
const FULL_2 = 'Jest with the ts-jest transformer, the node environment and coverage collected by the v8 provider for every package';

describe('label_continuation', () => {
  const rule: ExtractButtons = { pattern: NUMBERED, flags: 'm', label_continuation: { match_style: true } };

  it('match_style: joins the rows drawn like the label and leaves the descriptions out', () => {
    const buttons = extractButtons(rule, PICKER.join('\n'), cellsOf(styled(PICKER, GREY_ROWS)));
    expect(buttons.map((b) => b.label)).toEqual(['Vitest', FULL_2, 'node:test']);
    expect(buttons.map((b) => b.current)).toEqual([true, false, false]);
  });

  it('match_style: without cells (a screen as text alone) joins nothing', () => {
    expect(extractButtons(rule, PICKER.join('\n')).map((b) => b.label)).toEqual(['Vitest', 'Jest with the ts-jest transformer, the node environment', 'node:test']);
  });

  it('match_style: a row whose cells are unknown ends the label there', () => {
    const styles = styled(PICKER, GREY_ROWS);
    delete styles[4];
    expect(extractButtons(rule, PICKER.join('\n'), cellsOf(styles))[1]!.label).toBe('Jest with the ts-jest transformer, the node environment and coverage collected by the v8 provider for every');
  });

  it('reads the cells afresh on every call: the same text drawn otherwise gives other labels', () => {
    const hay = PICKER.join('\n');
    expect(extractButtons(rule, hay, cellsOf(styled(PICKER, GREY_ROWS)))[1]!.label).toBe(FULL_2);
    // Now the wrapped rows are drawn grey too (as a description would be): same text, not joined.
    expect(extractButtons(rule, hay, cellsOf(styled(PICKER, [1, 3, 4, 5, 7])))[1]!.label).toBe('Jest with the ts-jest transformer, the node environment');
  });

  it('without match_style: joins every row starting at or right of the label column, stops at one left of it', () => {
    const plain: ExtractButtons = { pattern: NUMBERED, label_continuation: {} };
    const hay = ['  1. Allow once', '     for this', '       command', '   not under the label', '  2. No'].join('\n');
    expect(extractButtons(plain, hay).map((b) => b.label)).toEqual(['Allow once for this command', 'No']);
  });

  it('an option row is never a continuation, and a blank row ends the label', () => {
    const plain: ExtractButtons = { pattern: NUMBERED, label_continuation: {} };
    const hay = ['  1. First', '     2. Looks nested', '  3. Third', '', '     after a blank'].join('\n');
    // "2." is an option row of its own (so the block is 2, 3 — the contiguous run ending at the bottom).
    expect(extractButtons(plain, hay).map((b) => b.label)).toEqual(['First', 'Looks nested', 'Third']);
  });

  it('measures the label column in cells: a wide glyph before the label shifts it', () => {
    // Row 0's cursor glyph takes two cells: its label starts at column 6, so a row at column 5 is left of it.
    const lines = ['❯ 1. Wide cursor', '     five', '  2. Other'];
    const cells = cellsOf(styled(lines, []), [0]);
    expect(extractButtons({ pattern: NUMBERED, label_continuation: {} }, lines.join('\n'), cells)[0]!.label).toBe('Wide cursor');
  });

  it('ordinal mode: unnumbered options get display indices in order, their wrapped rows joined', () => {
    // Option rows start with the cursor or exactly two spaces; the wrapped rest of option 1 is indented further.
    const gate: ExtractButtons = { pattern: '^(?:❯ |  (?! ))(\\S(?:.*\\S)?)', label_group: 1, key_for_index: '\r', label_continuation: { match_style: true } };
    const rows = ['❯ Yes, I trust this folder and every', '   file in it', '  No, exit'];
    expect(extractButtons(gate, rows.join('\n'), cellsOf(styled(rows, []))).map((b) => [b.index, b.label, b.current])).toEqual([
      [1, 'Yes, I trust this folder and every file in it', true],
      [2, 'No, exit', false],
    ]);
  });

  it('deriveModal: a section\'s rows are read at their frame rows', () => {
    const screen = ['conversation', 'more conversation', ...PICKER];
    const lines = splitScreenLines(screen.join('\n'));
    const sections = resolveSections({ bottom: { from_bottom: PICKER.length } }, lines);
    const state: FsmState = { id: 'picker', label: 'Question', modal: true, modal_kind: 'picker', extract: { buttons: { ...rule, section: 'bottom' } } };
    const cells = cellsOf(styled(screen, GREY_ROWS.map((r) => r + 2)));
    expect(deriveModal(state, sections, lines.join('\n'), cells)?.buttons.map((b) => b.label)).toEqual(['Vitest', FULL_2, 'node:test']);
    // Cells read two rows off (as if the section started at the top) see the grey rows in the wrong place.
    expect(deriveModal(state, sections, lines.join('\n'), cellsOf(styled(PICKER, GREY_ROWS)))?.buttons[1]!.label).not.toBe(FULL_2);
  });
});

// Claude Code run with CI=true or NO_COLOR: labels and descriptions are drawn alike, so only the
// layout tells them apart (the rows of the recordings ask-question-80x24-mono, model-picker-80x24-mono
// and ask-multi-60x20).
describe('label_continuation word_wrap: labels without colour', () => {
  const both: ExtractButtons = { pattern: NUMBERED, flags: 'm', label_continuation: { word_wrap: true, match_style: true } };
  const mono = (lines: string[], width: number): FrameCells => cellsOf(styled(lines, []), [], width);

  it('a row whose first word would have fitted on the row above is a description (80 columns)', () => {
    const rows = [
      '❯ 1. Vitest',
      '     Fast, Vite-native, Jest-compatible API',
      '  2. Jest with the ts-jest transformer and the node environment',
      '     The most widely used runner',
      '  3. node:test',
      '     Built into Node, no dependency',
    ];
    expect(extractButtons(both, rows.join('\n'), mono(rows, 80)).map((b) => b.label)).toEqual(['Vitest', 'Jest with the ts-jest transformer and the node environment', 'node:test']);
    // match_style alone cannot tell them apart: every row is drawn alike.
    const styleOnly: ExtractButtons = { ...both, label_continuation: { match_style: true } };
    expect(extractButtons(styleOnly, rows.join('\n'), mono(rows, 80))[0]!.label).toBe('Vitest Fast, Vite-native, Jest-compatible API');
  });

  it('a label wrapped over three rows at 60 columns is joined, the description after it is not', () => {
    expect(extractButtons(both, PICKER.join('\n'), mono(PICKER, 60)).map((b) => b.label)).toEqual(['Vitest', FULL_2, 'node:test']);
  });

  it('the same rows on a wider screen are descriptions: the word would have fitted there', () => {
    expect(extractButtons(both, PICKER.join('\n'), mono(PICKER, 80))[1]!.label).toBe('Jest with the ts-jest transformer, the node environment');
  });

  it('a row starting in the description column beside the labels is not the label', () => {
    const rows = [
      '  ❯ 1. Default (recommended) ✔  Use the default model (currently Opus 5.5) ·',
      '                                $4/$20 per Mtok',
      '    2. Opus                     Opus 5.5 · Best for everyday, complex tasks ·',
      '                                $4/$20 per Mtok',
    ];
    const pickerRule: ExtractButtons = { pattern: '^[ \\t]*(?:❯[ \\t]*)?(\\d+)\\.[ \\t]+(\\S+(?: \\S+)*)', flags: 'm', label_continuation: { word_wrap: true, match_style: true } };
    expect(extractButtons(pickerRule, rows.join('\n'), mono(rows, 80)).map((b) => b.label)).toEqual(['Default (recommended) ✔', 'Opus']);
  });

  it('a wrapped row may hang under a word of the label (after a [ ] box); every later row keeps that column', () => {
    const rows = [
      '❯ 1. [ ] Recommended',
      '         The core recommended rules',
      '  2. [ ] Strict types: the type-aware rules of',
      '         typescript-eslint, checked against the',
      '         tsconfig.json of every package',
      '         Type-aware strict rules',
      '  3. [ ] Style',
    ];
    expect(extractButtons(both, rows.join('\n'), mono(rows, 60)).map((b) => b.label)).toEqual([
      '[ ] Recommended',
      '[ ] Strict types: the type-aware rules of typescript-eslint, checked against the tsconfig.json of every package',
      '[ ] Style',
    ]);
    // A row under the label's word column, then one back at the label's own column: not the same wrap.
    const shifted = ['  1. [ ] Strict types: the type-aware rules of', '         typescript-eslint, checked against the', '     tsconfig.json of every package', '  2. Other'];
    expect(extractButtons(both, shifted.join('\n'), mono(shifted, 60))[0]!.label).toBe('[ ] Strict types: the type-aware rules of typescript-eslint, checked against the');
  });

  it('with colour the style still rules: a wrapped-looking row drawn grey is a description', () => {
    expect(extractButtons(both, PICKER.join('\n'), cellsOf(styled(PICKER, [1, 3, 4, 5, 7])))[1]!.label).toBe('Jest with the ts-jest transformer, the node environment');
  });

  it('without cells, or with the width unknown, nothing is joined', () => {
    const wrapOnly: ExtractButtons = { ...both, label_continuation: { word_wrap: true } };
    expect(extractButtons(wrapOnly, PICKER.join('\n'))[1]!.label).toBe('Jest with the ts-jest transformer, the node environment');
    expect(extractButtons(wrapOnly, PICKER.join('\n'), mono(PICKER, -1))[1]!.label).toBe('Jest with the ts-jest transformer, the node environment');
    expect(extractButtons(wrapOnly, PICKER.join('\n'), mono(PICKER, 60))[1]!.label).toBe(FULL_2);
  });
});
