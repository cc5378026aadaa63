/**
 * The OpenCode and Kilo Code specs read the model dialog's buttons by its layout (specs/opencode
 * README, "What the spec reads"): the option rows of the list, not the title, the search row, the
 * group headers, the key hints or the screen behind the dialog. Constructed dialogs in the shape
 * OpenCode 1.18.33 / Kilo 7.7.7 draw, at other widths and list positions than the lab recorded
 * (the recordings at 80×24 are replayed by `specterm test`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ExtractButtons } from '../src/core/spec/types.js';
import { extractButtons } from '../src/core/eval/extract.js';

const specsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'specs');

function pickerRule(id: string): ExtractButtons {
  const spec = JSON.parse(fs.readFileSync(path.join(specsDir, id, 'spec.json'), 'utf8')) as { states: Array<{ id: string; extract?: { buttons?: ExtractButtons } }> };
  return spec.states.find((s) => s.id === 'picker')!.extract!.buttons!;
}

/** A dialog `left` columns in: title row, blank, search, blank, the list rows, blank, hints. `behind` = text shown through at the left, per list row. */
function dialog(left: number, list: string[], behind: string[] = []): string {
  const pad = ' '.repeat(left);
  const row = (text: string, i = -1): string => {
    const bg = (behind[i] ?? '').padEnd(left, ' ').slice(0, left);
    if (!text) return bg.trimEnd();
    return text.startsWith('● ') ? `${bg}  ${text}` : `${bg}    ${text}`;
  };
  return [
    `${pad}    Select model${' '.repeat(40)}esc`,
    '',
    `${pad}    Search`,
    '',
    ...list.map((t, i) => row(t, i)),
    '',
    `${pad}    Connect provider ctrl+a  Favorite ctrl+f`,
    '',
  ].join('\n');
}

const shown = (id: string, screen: string) => extractButtons(pickerRule(id), screen).map((b) => `${b.index}${b.current ? '*' : ''} ${b.label}`);

describe.each(['opencode', 'kilocode'])('%s model dialog buttons', (id) => {
  it('are the option rows in order with display indices: headers after a blank list row, the search row and the hints are not options', () => {
    const screen = dialog(50, ['Claude Sonnet 5', 'GPT-6                                          Free', '', 'Lab', '● Lab Model', 'Other Model']);
    expect(shown(id, screen)).toEqual(['1 Claude Sonnet 5', '2 GPT-6', '3* Lab Model', '4 Other Model']);
  });

  it('leave out the screen behind the dialog where it shows through at the left edge', () => {
    const behind = ['   ┃', '   ┃  Ask', '   ┃', '   ┃  Buil', '   ╹▀▀▀▀▀▀'];
    const screen = dialog(10, ['Nemotron 3.5 Lightning Free', 'Nemotron 3 Ultra Free', 'Big Pickle', '', 'Lab', '● Lab Model'], behind);
    expect(shown(id, screen)).toEqual(['1 Nemotron 3.5 Lightning Free', '2 Nemotron 3 Ultra Free', '3 Big Pickle', '4* Lab Model']);
  });

  it('keep the current row when the dialog sits at the left edge (a 60-column terminal)', () => {
    expect(shown(id, dialog(0, ['Auto Free', '', 'Lab', '● Lab Model']))).toEqual(['1 Auto Free', '2* Lab Model']);
  });

  it('ignore rows below the key hints (the home screen\'s tip under the dialog)', () => {
    const screen = `${dialog(1, ['Auto Free', '● Lab Model'])}\n\n     ● Tip Configure per-agent permissions\n`;
    expect(shown(id, screen)).toEqual(['1 Auto Free', '2* Lab Model']);
  });
});
