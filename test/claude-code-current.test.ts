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
