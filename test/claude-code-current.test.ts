/**
 * The cursor row of Claude Code's unnumbered menus is the current button, as for numbered menus
 * (issue 13 item 4): the folder-trust gate, /theme and the session list are pressed with the
 * arrow keys from the current row, so a wrong or missing mark would press blind (MODAL_STALE).
 * Rows as the recordings folder-trust, menu-theme and resume-picker draw them, read with the
 * built-in spec's rules.
 */
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { extractButtons } from '../src/core/eval/index.js';
import type { CliSpecV4, ExtractButtons } from '../src/core/spec/types.js';

let spec: CliSpecV4 | undefined;
function claudeSpec(): CliSpecV4 {
  if (spec) return spec;
  const r = loadSpecRef('claude-code');
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return (spec = r.spec);
}

function buttonsRule(state: string): ExtractButtons {
  const rule = claudeSpec().states.find((s) => s.id === state)?.extract?.buttons;
  if (!rule) throw new Error(`claude-code spec: state ${state} has no buttons rule`);
  return rule;
}

const marked = (rule: ExtractButtons, rows: string[]): Array<[string, boolean]> => extractButtons(rule, rows.join('\n')).map((b) => [b.label, b.current]);

describe('claude-code: the cursor row of an unnumbered menu is current', () => {
  it('folder trust (gate): the cursor on "No, exit", the first option', () => {
    expect(marked(buttonsRule('gate'), [' ❯ No, exit', '   Yes, I trust this folder'])).toEqual([['No, exit', true], ['Yes, I trust this folder', false]]);
  });

  it('/theme (menu): the cursor on the current theme in the middle of the list, its ✔ not in the label', () => {
    const rows = ['      Auto (match terminal)', '  ❯ ✔ Dark mode', '      Light mode'];
    expect(marked(buttonsRule('menu'), rows)).toEqual([['Auto (match terminal)', false], ['Dark mode', true], ['Light mode', false]]);
  });

  it('moving the cursor moves the mark: exactly one row is current', () => {
    const rows = ['      Auto (match terminal)', '    ✔ Dark mode', '  ❯   Light mode'];
    const cur = extractButtons(buttonsRule('menu'), rows.join('\n')).filter((b) => b.current).map((b) => b.label);
    expect(cur).toEqual(['Light mode']);
  });
});

describe('claude-code: a panel with two cursor marks names no current row', () => {
  // /memory draws two lists, each with a ❯: the Auto-memory toggle keeps its (grey) ❯ while the
  // focus is on the list below (coloured ❯), so the text cannot tell which row has the focus. A
  // press from the wrong row would open the wrong file (Enter on "User instructions" when
  // "Auto-memory" was asked for): with no current row the press is refused (MODAL_STALE).
  const memory = ['  ❯ Auto-memory  on', '', '  ❯ User instructions      Saved in ~/.claude/CLAUDE.md', '    Project instructions   Saved in ./CLAUDE.md', '    Open auto-memory folder'];

  it('/memory (grouped_menu): the four options, none current', () => {
    expect(marked(buttonsRule('grouped_menu'), memory)).toEqual([
      ['Auto-memory', false], ['User instructions', false], ['Project instructions', false], ['Open auto-memory folder', false],
    ]);
  });

  it('/auto-mode-setup (grouped_menu): one cursor mark is the current row', () => {
    const rows = ['    How you use Claude here     Mixed', '  ❯ Also scan shell history     on', '    Also scan your other repos  off', '', '    Continue'];
    expect(marked(buttonsRule('grouped_menu'), rows).filter(([, cur]) => cur)).toEqual([['Also scan shell history', true]]);
  });

  it('/rewind (entry_list): the cursor entry is current, the detail rows are no buttons', () => {
    const rows = ['  Rewind', '', '    /recap', '    No code changes', '', '  ❯ (current)'];
    expect(marked(buttonsRule('entry_list'), rows)).toEqual([['/recap', false], ['(current)', true]]);
  });
});
