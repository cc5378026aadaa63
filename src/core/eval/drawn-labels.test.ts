import { describe, expect, it } from 'vitest';
import type { ExtractButtons } from '../spec/types.js';
import { extractButtons } from './extract.js';
import type { FrameCells } from './label-continuation.js';

/**
 * An OpenCode list dialog as text: the title, then options whose muted description follows the
 * name after one blank; the current option marked "●". Style per cell comes from `styles`: one
 * letter per character (`t` title, `n` name, `m` muted, `h` highlighted, `g` a gutter glyph);
 * a missing letter is the panel's plain background.
 */
function dialog(rows: Array<[text: string, styles: string]>): { text: string; cells: FrameCells } {
  const text = rows.map((r) => r[0]).join('\n');
  const styleAt = (row: number, index: number): string => rows[row]?.[1][index] ?? ' ';
  const cells: FrameCells = {
    columnAt: (r, i) => (rows[r] && i < rows[r]![0].length ? i : -1),
    endColumn: (r, i) => (rows[r] && i < rows[r]![0].length ? i + 1 : -1),
    width: () => 80,
    sameStyle: (ra, ia, rb, ib) => styleAt(ra, ia) === styleAt(rb, ib),
  };
  return { text, cells };
}

const RULE: ExtractButtons = {
  pattern: '^ *(?:● |  )(?![^\\n]*esc *$)(\\S(?:[^\\n]*?\\S)??)(?: {2,}\\S[^\\n]*)? *$',
  flags: 'gm',
  label_group: 1,
  cursor_marker: '●',
  min_count: 1,
  label_style: true,
};

describe('label_style: a description drawn beside the name is not part of the label', () => {
  it('cuts each plain row before its first word drawn otherwise than the name', () => {
    const { text, cells } = dialog([
      ['  Connect a provider      esc', '  tttttttttttttttttt'],
      ['● OpenCode Zen', '  hhhhhhhhhhhh'],
      ['  OpenCode Go Low cost subscription', '  nnnnnnnnnnnmmmmmmmmmmmmmmmmmmmmmmm'],
      ['  OpenAI (ChatGPT Plus/Pro or API key)', '  nnnnnnmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm'],
      ['  GitHub Copilot', '  nnnnnnnnnnnnnn'],
    ]);
    expect(extractButtons(RULE, text, cells).map((b) => b.label)).toEqual(['OpenCode Zen', 'OpenCode Go', 'OpenAI', 'GitHub Copilot']);
  });

  it('reads the name\'s style at its first letter, past a gutter glyph drawn in its own colour', () => {
    const { text, cells } = dialog([
      ['  Providers      esc', '  ttttttttt'],
      ['  ✓ OpenAI (API key)', '  g nnnnnnmmmmmmmmmm'],
    ]);
    expect(extractButtons(RULE, text, cells).map((b) => b.label)).toEqual(['✓ OpenAI']);
  });

  it('cuts the highlighted row (one style throughout) at the description column other rows agree on', () => {
    const { text, cells } = dialog([
      ['  Skills      esc', '  tttttt'],
      ['● customize-opencode Use ONLY when editing', '  hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh'],
      ['  release-check      Check a release', '  nnnnnnnnnnnnnmmmmmmmmmmmmmmmmmmmmmm'],
      ['  lab-notes          Keep lab notes', '  nnnnnnnnnmmmmmmmmmmmmmmmmmmmmmmmmm'],
    ]);
    // The plain rows' descriptions are past a two-blank gap, outside their labels: they still show the column.
    expect(extractButtons(RULE, text, cells).map((b) => b.label)).toEqual(['customize-opencode', 'release-check', 'lab-notes']);
  });

  it('leaves the highlighted row whole when the other rows\' descriptions start in different columns (names not padded)', () => {
    const { text, cells } = dialog([
      ['  Connect      esc', '  ttttttt'],
      ['● GitHub Copilot (Recommended)', '  hhhhhhhhhhhhhhhhhhhhhhhhhhhh'],
      ['  OpenAI (API key)', '  nnnnnnmmmmmmmmmm'],
      ['  OpenCode Go Low cost', '  nnnnnnnnnnnmmmmmmmmm'],
    ]);
    expect(extractButtons(RULE, text, cells).map((b) => b.label)).toEqual(['GitHub Copilot (Recommended)', 'OpenAI', 'OpenCode Go']);
  });

  it('keeps labels as the text reads when the cells are unknown, or when off', () => {
    const { text, cells } = dialog([
      ['  Providers      esc', '  ttttttttt'],
      ['  OpenAI (API key)', '  nnnnnnmmmmmmmmmm'],
    ]);
    expect(extractButtons(RULE, text).map((b) => b.label)).toEqual(['OpenAI (API key)']);
    const { label_style: _off, ...plain } = RULE;
    expect(extractButtons(plain, text, cells).map((b) => b.label)).toEqual(['OpenAI (API key)']);
  });
});

describe('label_column: options start in the title\'s column', () => {
  const rule: ExtractButtons = { ...RULE, label_style: undefined, pattern: '^ *(?:● )?(?![^\\n]*esc *$)(\\S(?:[^\\n]*?\\S)??)(?: {2,}\\S[^\\n]*)? *$', label_column: 'title', key_for_index: 'k{index}' };

  it('leaves out text elsewhere on the list\'s rows (the screen behind showing through) and numbers the rest again', () => {
    const { text, cells } = dialog([
      ['    MCPs                esc', ''],
      ['  ● lab-tools', ''],
      ['                          commands', ''],
      ['    toggle', ''],
    ]);
    expect(extractButtons(rule, text, cells)).toEqual([
      { index: 1, label: 'lab-tools', key: 'k1', current: true },
      { index: 2, label: 'toggle', key: 'k2', current: false },
    ]);
  });

  it('keeps every row when the cells are unknown', () => {
    const { text } = dialog([
      ['    MCPs                esc', ''],
      ['  ● lab-tools', ''],
      ['                          commands', ''],
    ]);
    expect(extractButtons(rule, text).map((b) => b.label)).toEqual(['lab-tools', 'commands']);
  });
});
