/**
 * Option labels exactly as Claude Code shows them (issue 13, item 4), at 60×20, 80×24 and 200×50:
 * - a label that wraps over two or three rows is one label, its rows joined;
 * - the description drawn under an option (same indentation, another colour) is not part of it;
 * - the cursor row's label (drawn in the accent colour) is joined the same way;
 * - all of it also when Claude Code draws no colour at all (run with CI=true or NO_COLOR=1).
 * Real recordings replayed through the real driver, and screens drawn by a real headless terminal
 * in Claude Code's layout read with the built-in spec's picker rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { deriveModal, resolveSections } from '../src/core/eval/index.js';
import type { CliSpecV4 } from '../src/core/spec/types.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';
import { TerminalScreen } from '../src/terminal/terminal-screen.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const recordings = path.join(root, 'specs', 'claude-code', 'recordings');
const scenarios = path.join(root, 'lab', 'claude-code', 'scenarios');

function claudeSpec(): CliSpecV4 {
  const r = loadSpecRef('claude-code');
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}

/** The option labels the scripted server sent in a scenario's AskUserQuestion tool call. */
function askedLabels(scenario: string): string[] {
  const sc = JSON.parse(fs.readFileSync(path.join(scenarios, `${scenario}.json`), 'utf8'));
  const call = sc.turns[0].steps.find((s: { tool_use?: { name: string } }) => s.tool_use?.name === 'AskUserQuestion').tool_use;
  return call.input.questions[0].options.map((o: { label: string }) => o.label);
}

/** The buttons of the first picker modal a recording replays to, with the recording's width. */
function firstPickerLabels(file: string): { cols: number; labels: string[] } {
  const cast = parseAsciicast(fs.readFileSync(path.join(recordings, file), 'utf8'), { source: file });
  const run = replaySession({ cast, spec: claudeSpec() });
  run.driver.shutdown();
  const picker = run.changes.find((c) => c.modal?.kind === 'picker');
  return { cols: cast.header.width, labels: picker?.modal?.buttons.map((b) => b.label) ?? [] };
}

const castsOf = (prefix: string): string[] =>
  fs.readdirSync(recordings).filter((f) => f.endsWith('.cast') && (f === `${prefix}.cast` || f.startsWith(`${prefix}-`))).sort();

describe('claude-code: AskUserQuestion labels from the recordings', () => {
  it('ask-question: every label as the server sent it at every size, the wrapped one joined at 60 columns', () => {
    const names = castsOf('ask-question');
    const widths = names.map((n) => firstPickerLabels(n).cols);
    expect(widths).toEqual(expect.arrayContaining([60, 80, 200]));
    const want = [...askedLabels('ask-question'), 'Type something.', 'Chat about this'];
    // At 60 columns the second label (58 characters after a 5-column indent) cannot fit one row.
    expect(want[1]!.length + 5).toBeGreaterThan(60);
    for (const name of names) expect(firstPickerLabels(name).labels, name).toEqual(want);
  });

  it('ask-multi: each `[ ]` label as sent, none with its description, the long one joined from its rows', () => {
    const names = castsOf('ask-multi');
    expect(names.map((n) => firstPickerLabels(n).cols)).toEqual(expect.arrayContaining([60, 80, 200]));
    const want = [...askedLabels('ask-multi').map((l) => `[ ] ${l}`), '[ ] Type something', 'Chat about this'];
    // Claude Code indents a multi-select label's text to column 9 (after `N. [ ] `): 51 columns a row at 60.
    expect(Math.max(...askedLabels('ask-multi').map((l) => l.length)), 'a label wraps over three rows at 60 columns').toBeGreaterThan(2 * (60 - 9));
    for (const name of names) expect(firstPickerLabels(name).labels, name).toEqual(want);
  });

  it('model-picker: the model names only, not the description column beside them nor its wrapped rest', () => {
    const names = castsOf('model-picker');
    expect(names).toEqual(expect.arrayContaining(['model-picker-80x24-mono-ci.cast', 'model-picker-60x20-mono-nocolor.cast']));
    for (const name of names) expect(firstPickerLabels(name).labels.slice(0, 2), name).toEqual(['Default (recommended) ✔', 'Opus']);
  });
});

// ── Screens drawn by a real terminal in Claude Code's picker layout ───────────────────────────

const GREY = '\u001b[38;2;153;153;153m';
const ACCENT = '\u001b[38;2;177;185;249m';
const DEFAULT_FG = '\u001b[39m';

/** Words laid into rows of at most `width` characters, as Ink wraps a label. */
function wrapWords(text: string, width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    if (row && row.length + 1 + word.length > width) { rows.push(row); row = word; } else row = row ? `${row} ${word}` : word;
  }
  if (row) rows.push(row);
  return rows;
}

interface DrawnOption { label: string; description: string }

/**
 * Claude Code's AskUserQuestion picker as it draws it: the header chip, the question, each option
 * as `N. label` (the label wrapped at the screen width, indented to column 5, in the accent colour
 * on the cursor row and the default colour elsewhere), its description under it at the same
 * column in grey, then `Type something.`, a rule, `Chat about this` and the hints.
 */
function drawPicker(cols: number, options: DrawnOption[], cursor: number): string {
  const out: string[] = ['\u001b[2J\u001b[H', `${GREY}${'─'.repeat(cols)}${DEFAULT_FG}\r\n`, ' ☐ Framework\r\n\r\n', 'Which test framework should the project use?\r\n\r\n'];
  options.forEach((o, i) => {
    const colour = i === cursor ? ACCENT : DEFAULT_FG;
    const mark = i === cursor ? `${ACCENT}❯${DEFAULT_FG}` : ' ';
    wrapWords(o.label, cols - 5).forEach((row, r) => {
      out.push(r === 0 ? `${mark} ${GREY}${i + 1}.${DEFAULT_FG} ${colour}${row}${DEFAULT_FG}\r\n` : `     ${colour}${row}${DEFAULT_FG}\r\n`);
    });
    for (const row of wrapWords(o.description, cols - 5)) out.push(`     ${GREY}${row}${DEFAULT_FG}\r\n`);
  });
  const n = options.length;
  out.push(`  ${GREY}${n + 1}. Type something.${DEFAULT_FG}\r\n`, `${GREY}${'─'.repeat(cols)}${DEFAULT_FG}\r\n`, `  ${n + 2}. Chat about this\r\n\r\n`);
  out.push(`${GREY}Enter to select · ↑/↓ to navigate · Esc to cancel${DEFAULT_FG}`);
  return out.join('');
}

/** The picker state's modal on a drawn screen, read as the driver reads a modal state (guard frame + its cells). */
function pickerModalOn(cols: number, rows: number, bytes: string) {
  const spec = claudeSpec();
  const screen = new TerminalScreen({ cols, rows });
  try {
    screen.write(bytes);
    const frame = screen.guardFrame();
    const sections = resolveSections(spec.sections, frame.lines);
    const picker = spec.states.find((s) => s.id === 'picker')!;
    return deriveModal(picker, sections, frame.lines.join('\n'), screen.frameCells('guard'));
  } finally {
    screen.dispose();
  }
}

const OPTIONS: DrawnOption[] = [
  { label: 'Vitest', description: 'Fast, Vite-native, Jest-compatible API' },
  { label: 'Jest with the ts-jest transformer, the node environment and coverage collected by the v8 provider for every package', description: 'The most widely used runner, with a description long enough to wrap at sixty columns too' },
  { label: 'node:test', description: 'Built into Node, no dependency' },
];

describe('claude-code: wrapped labels on screens drawn by a real terminal', () => {
  for (const [cols, rows] of [[60, 20], [80, 24], [200, 50]] as const) {
    it(`${cols}×${rows}: joins a label's rows, leaves its description out, on and off the cursor row`, () => {
      for (const cursor of [0, 1]) {
        const modal = pickerModalOn(cols, rows, drawPicker(cols, OPTIONS, cursor));
        expect(modal?.buttons.map((b) => b.label), `cursor on ${cursor + 1}`).toEqual([...OPTIONS.map((o) => o.label), 'Type something.', 'Chat about this']);
        expect(modal?.buttons.find((b) => b.current)?.index).toBe(cursor + 1);
      }
    });
  }

  for (const [cols, rows] of [[60, 20], [80, 24], [200, 50]] as const) {
    it(`${cols}×${rows} without colour (CI=true, NO_COLOR): the same labels, by layout alone`, () => {
      for (const cursor of [0, 1]) {
        const mono = drawPicker(cols, OPTIONS, cursor).replace(/\u001b\[[0-9;]*m/g, '');
        expect(mono).not.toContain('\u001b[3');
        const modal = pickerModalOn(cols, rows, mono);
        expect(modal?.buttons.map((b) => b.label), `cursor on ${cursor + 1}`).toEqual([...OPTIONS.map((o) => o.label), 'Type something.', 'Chat about this']);
      }
    });
  }

  it('at 60 columns the long label really is drawn over three rows and its description over two', () => {
    expect(wrapWords(OPTIONS[1]!.label, 55).length).toBe(3);
    expect(wrapWords(OPTIONS[1]!.description, 55).length).toBe(2);
  });
});
