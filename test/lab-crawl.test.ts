/** The crawler's reading of screens (lab/lib/crawl*.mjs), offline, on rows the real CLIs drew. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain .mjs modules of the lab, without types
import { commandOfMenuRow, slugOf } from '../lab/lib/crawl.mjs';
// @ts-expect-error -- see above
import { flagsOf, menuRowsOf, observe } from '../lab/lib/crawl-oracle.mjs';
// @ts-expect-error -- see above
import { writeCrawlReport } from '../lab/lib/crawl-report.mjs';

type Obs = { status: string | null; shape: string | null; modal: unknown; buttons: number; menuRows: number; changed: boolean; state: string | null };
const parse = commandOfMenuRow as (row: string) => string | null;
const rowsOf = menuRowsOf as (rows: string[]) => number;
const look = observe as (rows: string[], view: unknown, baseline: string[]) => Obs;
const flags = flagsOf as (o: Obs, x: { flapped: boolean }) => string[];

const idle = { state: { id: 'idle', status: 'idle' }, modal: null };
// Qwen Code 0.15.10 at 80×24: the idle bottom, and its /help dialog (which the spec reads as idle).
const QWEN_IDLE = [
  '  Tips: Type / to open the command popup; Tab autocompletes slash commands and',
  '',
  '────────────────────────────────────────────────────────────────────────────────',
  '> ',
  '────────────────────────────────────────────────────────────────────────────────',
  '  ? for shortcuts                                          YOLO mode (ctrl+y) 12%',
];
const QWEN_HELP = [
  '  > /help',
  '  ┌──────────────────────────────────────────────────────────────────────────┐',
  '  │  Qwen Code   general   commands   custom-commands                        │',
  '  │  Shortcuts                                                               │',
  '  │  @                   Add files or…   Ctrl+L              Clear the sc…   │',
  '  │  Tab/Shift+Tab to switch tabs  ·  Esc to cancel                          │',
  '  └──────────────────────────────────────────────────────────────────────────┘',
];
const QWEN_MODEL = [
  '  │ Select Model                                                             │',
  '  │                                                                          │',
  '  │ › 1. [openai] lab-model (Runtime)                                        │',
  '  │      Runtime model                                                       │',
  '  │   2. [qwen-oauth] coder-model (Discontinued)                             │',
  '  │      Discontinued — switch to Coding Plan or API Key                     │',
  '  │                                                                          │',
  '  │ Enter to select, ↑↓ to navigate, Esc to close                            │',
];

describe('the command menu', () => {
  it('reads the command of each CLI\'s menu row, and nothing from prose, counters or arrows', () => {
    expect(parse('  model [--fast] [<model-id>]               Switch the model for this session…')).toBe('model');
    expect(parse('  auth (login)                              Configure authentication informat…')).toBe('auth');
    expect(parse('→ settings       Open settings menu')).toBe('settings');
    expect(parse('   ┃ /agents     Switch agent                                                ┃')).toBe('agents');
    expect(parse('  /add-dir                 Add a new working directory')).toBe('add-dir');
    for (const row of ['  (1/52)', '  ▼', '  Tips: Type / to open the command popup; Tab autocompletes', 'ripgrep not found. Offline mode enabled, skipping download.', '']) expect(parse(row)).toBeNull();
  });
});

describe('the recordings of flagged targets', () => {
  it('are named after the command or the keys, never with an empty name', () => {
    const slug = slugOf as (label: string) => string;
    expect(['/add-dir', '?', '@', 'Ctrl+R', 'Esc Esc', 'Shift+Tab', 'Ctrl+_', 'Alt+,', '/bug-memory'].map(slug))
      .toEqual(['add-dir', 'question-mark', 'at', 'ctrl-r', 'esc-esc', 'shift-tab', 'ctrl-underscore', 'alt-comma', 'bug-memory']);
  });
});

describe('the oracle', () => {
  it('counts the option rows around the cursor, passing over their descriptions', () => {
    expect(rowsOf(QWEN_MODEL)).toBe(2);
    expect(rowsOf(['❯ Yes', '  No, exit', '', 'later text'])).toBe(2);
    expect(rowsOf(['  1. one', '  2. two'])).toBe(0);
    expect(rowsOf(['❯ only row'])).toBe(0);
  });

  it('counts a numbered list by its numbers, past a title\'s focus marker and right-aligned numbers', () => {
    // Qwen Code's /editor: '> ' marks the focused title; the numbers are right-aligned.
    expect(rowsOf([
      '  │ > Select Editor                   Editor Preference                      │',
      '  │                                                                          │',
      '  │ ›  1. None                        These editors are currently supported. │',
      '  │    2. Cursor (Not installed)       Please note that some editors cannot  │',
      '  │    3. Emacs (Not installed)       be used in sandbox mode.               │',
      '  │    9. Windsurf (Not installed)                                           │',
      '  │   10. Zed (Not installed)                                                │',
    ])).toBe(3);
  });

  it('counts an unboxed list\'s rows down to its blank, not the counter or the help under it', () => {
    // pi's /settings: the list, its '(1/21)' counter, then the current item's description and hints.
    expect(rowsOf([
      '→ Auto-compact            true', '  Auto-resize images      true', '  Block images            false',
      '  (1/21)', '', '  Automatically compact context when it gets too large', '',
      '  Type to search · Enter/Space to change · Esc to cancel',
    ])).toBe(3);
  });

  it('counts one option per group when blank rows part options with their descriptions', () => {
    // Qwen Code's /auth: each option's description is drawn under it, at the same indent.
    expect(rowsOf([
      '  │   Alibaba ModelStudio                                                    │',
      '  │   Official recommended setup: Coding Plan, Token Plan, or Standard API   │',
      '  │   Key                                                                    │',
      '  │                                                                          │',
      '  │ › Third-party Providers                                                  │',
      '  │   Choose a built-in provider and connect with an API key                 │',
      '  │                                                                          │',
      '  │   OAuth                                                                  │',
      '  │   Open a browser, sign in, and let the CLI finish provider setup         │',
      '  │                                                                          │',
      '  │ ──────────────────────────────────────────────────────────────────────── │',
    ])).toBe(3);
  });

  it('flags a dialog only Esc leaves that the spec calls idle', () => {
    const o = look([...QWEN_IDLE.slice(0, 1), ...QWEN_HELP], idle, QWEN_IDLE);
    expect(o.changed).toBe(true);
    expect(o.shape).toBe('esc_hint');
    expect(flags(o, { flapped: false })).toEqual(['unrecognised']);
  });

  it('raises nothing on the idle screen itself, even when its footer\'s numbers move', () => {
    const moved = QWEN_IDLE.map((r) => r.replace('12%', '13%'));
    const o = look(moved, idle, QWEN_IDLE);
    expect(o.changed).toBe(false);
    expect(flags(o, { flapped: false })).toEqual([]);
  });

  it('passes a picker the spec recognised with its buttons, and flags a count unlike the rows', () => {
    const picker = { state: { id: 'picker', status: 'approval' }, modal: { title: 'Select Model', kind: 'picker', buttons: [{ label: '[openai] lab-model (Runtime)' }, { label: '[qwen-oauth] coder-model (Discontinued)' }] } };
    const o = look(QWEN_MODEL, picker, QWEN_IDLE);
    expect(o.shape).toBe('option_block');
    expect(flags(o, { flapped: false })).toEqual([]);
    const short = look(QWEN_MODEL, { ...picker, modal: { ...picker.modal, buttons: picker.modal.buttons.slice(0, 1) } }, QWEN_IDLE);
    expect(flags(short, { flapped: false })).toEqual(['button_count']);
    const empty = look(QWEN_MODEL, { ...picker, modal: { ...picker.modal, buttons: [] } }, QWEN_IDLE);
    expect(flags(empty, { flapped: true })).toEqual(['no_buttons', 'flap']);
  });

  it('takes a view with nothing to choose and no buttons as it is (a page only Esc leaves)', () => {
    const view = { state: { id: 'view', status: 'approval' }, modal: { title: 'Qwen Code   general   commands   custom-commands', kind: 'picker', buttons: [] } };
    expect(flags(look([...QWEN_IDLE.slice(0, 1), ...QWEN_HELP], view, QWEN_IDLE), { flapped: false })).toEqual([]);
  });
});

describe('the coverage report', () => {
  it('writes the CLI\'s report, its figures per size and the index', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-report-'));
    try {
      const obs = (target: string, size: string, f: string[]) => ({ target, path: [], size, state: 'idle', status: 'idle', modal: null, shape: f.length ? 'esc_hint' : null, changed: true, menuRows: 0, flags: f });
      const files = (writeCrawlReport as (r: string, s: unknown) => string[])(repo, {
        cli: 'qwen-code', cliName: 'Qwen Code', version: '0.15.10', commands: ['help', 'model', 'quit'],
        targets: [{ label: '/help' }, { label: '/model' }, { label: '/quit', skip: 'ends the CLI' }],
        observations: [obs('/help', '80×24', ['unrecognised']), obs('/help', '60×20', ['unrecognised']), obs('/model', '80×24', []), obs('/model', '60×20', [])],
        recorded: [{ target: '/help', name: 'crawl-help' }], restarts: 0,
      });
      expect(files.map((f) => path.relative(repo, f))).toEqual(['docs/accuracy/crawl/qwen-code.md', 'docs/accuracy/crawl/qwen-code.json', 'docs/accuracy/crawl.md']);
      const index = fs.readFileSync(files[2]!, 'utf8');
      expect(index).toContain('| [Qwen Code](crawl/qwen-code.md) | 0.15.10 | 80×24 | 3 | 2 | 2 | 1 | unrecognised 1 | 1 |');
      expect(index).toContain('| [Qwen Code](crawl/qwen-code.md) | 0.15.10 | 200×50 | 3 | 2 | 0 | 0 | — | 1 |');
      expect(fs.readFileSync(files[0]!, 'utf8')).toContain('Not opened: /quit (ends the CLI).');
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
