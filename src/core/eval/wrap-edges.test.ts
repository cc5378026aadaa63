import { describe, expect, it } from 'vitest';
import type { ExtractButtons, ExtractTitle } from '../spec/types.js';
import { extractButtons } from './extract.js';
import { extractTitle } from './extract-title.js';
import type { FrameCells } from './label-continuation.js';
import type { ResolvedSection } from './types.js';

/** Cells of a screen of narrow characters `width` columns wide (text index = column), every character drawn alike. */
function plainCells(lines: readonly string[], width: number): FrameCells {
  const columnAt = (row: number, index: number): number => (lines[row] === undefined || index < 0 || index >= lines[row]!.length ? -1 : index);
  return {
    columnAt,
    endColumn: (row, index) => (columnAt(row, index) < 0 ? -1 : index + 1),
    width: () => width,
    sameStyle: (ra, ia, rb, ib) => (columnAt(ra, ia) < 0 || columnAt(rb, ib) < 0 ? null : true),
  };
}

const NUMBERED = '^[ \\t]*(?:❯[ \\t]*)?(\\d+)\\.[ \\t]+(\\S+(?: \\S+)*)';

// Claude Code 2.1.332 /login at 60×20 (the rows of login-menu-60x20): the dialog is padded two
// columns on each side, so `Team,` (it would end in column 59) did not fit on option 1's row.
const LOGIN = [
  '  ❯ 1. Claude account with subscription · Individual,',
  '       Team, or Enterprise',
  '    2. Anthropic Console account · API usage billing',
  '    3. 3rd-party platform · Bedrock, Microsoft Foundry,',
  '       Google Vertex AI',
];

describe('label_continuation mirror_margin: a wrapper padded alike on both sides', () => {
  const rule = (mirror: boolean): ExtractButtons => ({ pattern: NUMBERED, flags: 'm', label_continuation: { word_wrap: true, match_style: true, ...(mirror ? { mirror_margin: true } : {}) } });

  it('a word that would have ended in the right padding did not fit: the row is joined', () => {
    expect(extractButtons(rule(true), LOGIN.join('\n'), plainCells(LOGIN, 60)).map((b) => b.label)).toEqual([
      'Claude account with subscription · Individual, Team, or Enterprise',
      'Anthropic Console account · API usage billing',
      '3rd-party platform · Bedrock, Microsoft Foundry, Google Vertex AI',
    ]);
  });

  it('without it the full width is measured and the row reads as a description', () => {
    expect(extractButtons(rule(false), LOGIN.join('\n'), plainCells(LOGIN, 60))[0]!.label).toBe('Claude account with subscription · Individual,');
  });

  it('a block starting in column 0 leaves no margin: a word that fits to the last column still means a description', () => {
    const rows = ['❯ 1. Run the formatter over every package of the workspace', '     and the docs', '  2. No'];
    // "and" after "workspace" would end in column 62 of 62: the wrapper would have put it there.
    expect(extractButtons(rule(true), rows.join('\n'), plainCells(rows, 62))[0]!.label).toBe('Run the formatter over every package of the workspace');
  });
});

// Gemini CLI 0.61.0's ask_user dialog at 60×20 (ask-long-60x20): options inside a round box,
// the label drawn after two blanks and wrapped from the second, one column left of the label;
// the description under it starts at the label's column.
const GEMINI_ASK = [
  '│ ● 1.  Vitest with the coverage reporter and the browser  │',
  '│      mode enabled                                        │',
  '│       Fast, Vite-native                                  │',
  '│   2.  Jest                                               │',
  '│       The long-standing default                          │',
  '│   3.  Enter a custom value                               │',
  '│                                                          │',
];
const GEMINI_PATTERN = '^ ?│ +(?:● +)?(\\d+)\\.  +([^\\s│](?:[^\\s│]| (?! ))*)[^\\n]*│$';

describe('label_continuation inside a box border', () => {
  const rule: ExtractButtons = { pattern: GEMINI_PATTERN, flags: 'gm', label_continuation: { word_wrap: true, mirror_margin: true } };

  it('joins the wrapped row between the borders and leaves the descriptions out', () => {
    expect(extractButtons(rule, GEMINI_ASK.join('\n'), plainCells(GEMINI_ASK, 60)).map((b) => b.label)).toEqual([
      'Vitest with the coverage reporter and the browser mode enabled',
      'Jest',
      'Enter a custom value',
    ]);
  });

  it('a row two columns left of the label is not its wrap', () => {
    const rows = [...GEMINI_ASK];
    rows[1] = '│     mode enabled                                         │';
    expect(extractButtons(rule, rows.join('\n'), plainCells(rows, 60))[0]!.label).toBe('Vitest with the coverage reporter and the browser');
  });
});

// Gemini CLI's MCP confirmation at 60×20 (mcp-approve-60x20): the question wraps over two rows;
// the row above it is a line of its own ("Allow" would have fitted after it).
const MCP = [
  '│ MCP Tool Details:                                        │',
  '│ (press Ctrl+O to expand MCP tool details)                │',
  '│ Allow execution of MCP tool "deploy_preview" from server │',
  '│ "lab-tools"?                                             │',
  '│                                                          │',
  '│ ● 1. Allow once                                          │',
  '│   2. Allow tool for this session                         │',
];
const MCP_TITLE = '(?:^|\\n) ?│ ([^\\n│]*[^\\s│]\\?) *│\\n(?: ?│ *│\\n)* ?│ +(?:● +)?1\\. ';

describe('title join_wrapped', () => {
  const sections: ResolvedSection[] = [];
  const hay = MCP.join('\n');

  it('joins the rows a word-wrapper broke off above the matched row, and stops at a line of its own', () => {
    const rule: ExtractTitle = { regex: MCP_TITLE, join_wrapped: true };
    expect(extractTitle(rule, sections, hay, plainCells(MCP, 60))).toBe('Allow execution of MCP tool "deploy_preview" from server "lab-tools"?');
  });

  it('without join_wrapped, or without cells, the title is the matched row', () => {
    expect(extractTitle({ regex: MCP_TITLE }, sections, hay, plainCells(MCP, 60))).toBe('"lab-tools"?');
    expect(extractTitle({ regex: MCP_TITLE, join_wrapped: true }, sections, hay)).toBe('"lab-tools"?');
  });

  it('a box nested above the question (its edge reaches the border) is not part of the title', () => {
    // Gemini CLI's shell confirmation at 80×24 (approve-yes): the command's box sits right above the question.
    const rows = [
      '│ ? Shell  mkdir -p build && touch build/out.txt                               │',
      '│ ╭──────────────────────────────────────────────────────────────────────────╮ │',
      '│ │ mkdir -p build && touch build/out.txt                                    │ │',
      '│ ╰──────────────────────────────────────────────────────────────────────────╯ │',
      '│ Allow execution of [Shell]?                                                  │',
      '│                                                                              │',
      '│ ● 1. Allow once                                                              │',
    ];
    expect(extractTitle({ regex: MCP_TITLE, join_wrapped: true }, sections, rows.join('\n'), plainCells(rows, 80))).toBe('Allow execution of [Shell]?');
  });

  it('outside a box the screen width less the indent is the limit', () => {
    const rows = ['  Do you want to let the agent run this command in the', '  sandbox?', '', '  1. Yes'];
    const rule: ExtractTitle = { regex: '(?:^|\\n) *([^\\n]*\\?)\\n', join_wrapped: true };
    // "sandbox?" (8) after column 54 would end in column 63: past 60 − 2 = 58, so the row was wrapped.
    expect(extractTitle(rule, sections, rows.join('\n'), plainCells(rows, 60))).toBe('Do you want to let the agent run this command in the sandbox?');
    // At 70 columns it would have fitted: the row above is its own line.
    expect(extractTitle(rule, sections, rows.join('\n'), plainCells(rows, 70))).toBe('sandbox?');
  });
});
