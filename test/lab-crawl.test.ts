/** The crawler's reading of screens (lab/lib/crawl*.mjs), offline, on rows the real CLIs drew. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain .mjs modules of the lab, without types
import { commandOfMenuRow, laterCrawl, parseCrawlArgs, slugOf } from '../lab/lib/crawl.mjs';
// @ts-expect-error -- see above
import { crawlLabels } from '../lab/lib/crawl-labels.mjs';
// @ts-expect-error -- see above
import { flagsOf, menuCountsOf, menuRowsOf, observe, rejudge, targetKeys } from '../lab/lib/crawl-oracle.mjs';
// @ts-expect-error -- see above
import { recordingsOfTargets, writeCrawlReport } from '../lab/lib/crawl-report.mjs';

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

  it('passes over key hints, a search field and the highlighted item\'s detail in the options\' column', () => {
    // pi 0.73.1's /scoped-models at 80×24: two options, then the detail of the highlighted one and the hints.
    expect(rowsOf([
      '>', '→ lab-model [lab]', '  lab-model-large [lab]', '  Model Name: Lab Model',
      '  enter toggle · ctrl+a all · ctrl+x clear · ctrl+p provider · alt+up/alt+down', 'reorder · ctrl+s save · all enabled',
    ])).toBe(2);
    // … and as it is drawn when the screen has room: the detail and the hints each after a blank row.
    expect(rowsOf(['>', '', '→ lab-model [lab]', '  lab-model-large [lab]', '', '  Model Name: Lab Model', '', '  enter toggle · ctrl+a all · ctrl+x clear'])).toBe(2);
    // OpenCode 1.18.33's /agents at 200×50: its search field over the list.
    expect(rowsOf([
      '',
      '                                                                          Select agent                                     esc',
      '',
      '                                                                          Search',
      '',
      '                                                                        ● build native',
      '                                                                          plan native',
      '',
      '',
    ])).toBe(2);
    // OpenCode's /models at 80×24: the key hints under the highlighted model are no second option.
    expect(rowsOf(['   ╹▀▀▀▀▀▀    Lab                                                     ▀▀▀▀▀▀▀▀', '            ● Lab Model                                               commands', '              Connect provider ctrl+a  Favorite ctrl+f'])).toBe(0);
    // Toggles: the mark after the cursor does not move the label's column.
    expect(rowsOf(['› ◉ Fast mode', '  ◯ Auto-compact', '  ◯ Vim keys', '', '  ↓ 4 more'])).toBe(3);
    // Qwen Code 0.15.10's /settings at 60×20: 'Language: UI' inside the list is an option, not a detail.
    expect(rowsOf([
      '  │ > Settings                                           │', '  │                                                      │', '  │ ▲                                                    │',
      '  │ ● Tool Approval Mode                         Default │', '  │   Language: UI             Auto (detect from system) │', '  │   Language: Model                               auto │',
      '  │   Theme                                  Qwen Dark ▸ │', '  │   Vim Mode                                     false │', '  │   Interactive Shell (PTY)                       true │',
      '  │ ▼                                                    │', '  │                                                      │', '  │ Approval mode for tool usage. Controls how tools ar… │',
    ])).toBe(6);
    // A label that names a key is still an option.
    expect(rowsOf(['❯ 1. Yes', '  2. Yes, and don\'t ask again (shift+tab)', '  3. No, and tell Claude what to do differently (esc)'])).toBe(3);
    expect(rowsOf(['❯ Yes', '  Yes, allow all edits (shift+tab)', '  No'])).toBe(3);
  });

  it('takes a focused title for no option, and passes a dialog whose buttons are one of its two lists', () => {
    // Gemini CLI 0.61.0's rewind list (/rewind, Esc Esc) at 80×24: '> Rewind' is the focused title, '●' the cursor.
    expect(rowsOf([
      '│ > Rewind                                                                     │',
      '│                                                                              │',
      '│   <session_context>                                                          │',
      '│   This is the Gemini CLI. We are setting up the context for our chat....     │',
      '│   No files have been changed                                                 │',
      '│                                                                              │',
      '│ ● Stay at current position                                                   │',
      '│   Cancel rewind and stay here                                                │',
      '│                                                                              │',
      '│                                                                              │',
      '│ (Use Enter to select a message, Esc to close, Right/Left to expand/collapse) │',
    ])).toBe(2);
    // Its /settings at 80×24: the settings list scrolled to one row, and the scope list under it.
    const settings = [
      '│  > Settings                                                                  │',
      '│                                                                              │',
      '│  ▲                                                                           │',
      '│  ● Vim Mode                                                           false  │',
      '│    Enable Vim keybindings                                                    │',
      '│                                                                              │',
      '│  ▼                                                                           │',
      '│                                                                              │',
      '│    Apply To                                                                  │',
      '│  ● User Settings                                                             │',
      '│    Workspace Settings                                                        │',
      '│                                                                              │',
      '│  (Use Enter to select, Ctrl+L to reset, Tab to change focus, Esc to close)   │',
    ];
    expect((menuCountsOf as (r: string[]) => number[])(settings)).toContain(1);
    const view = { state: { id: 'settings', status: 'approval' }, modal: { title: 'Settings', kind: 'picker', buttons: [{ label: 'Vim Mode' }] } };
    expect(flags(look(settings, view, QWEN_IDLE), { flapped: false })).toEqual([]);
    const wrong = { ...view, modal: { ...view.modal, buttons: [{ label: 'Vim Mode' }, { label: 'Apply To' }, { label: 'User Settings' }, { label: 'Workspace Settings' }] } };
    expect(flags(look(settings, wrong, QWEN_IDLE), { flapped: false })).toEqual(['button_count']);
  });

  it('counts a list whose cursor row looks like an input row on the whole screen, from its first option', () => {
    // Claude Code 2.1.332's /theme at 80×24: the live bottom starts at '❯ ✔ Dark mode' (an input
    // row's shape), the list's first option is above it; '↓ 2 more' ends it.
    const theme = ['  Theme', '', '  Choose the text style that looks best with your terminal', '', '      Auto (match terminal)', '  ❯ ✔ Dark mode', '      Light mode',
      '      Dark mode (colorblind-friendly)', '      Light mode (colorblind-friendly)', '      Dark mode (ANSI colors only)', '    ↓ 2 more', ''];
    const labels = ['Auto (match terminal)', 'Dark mode', 'Light mode', 'Dark mode (colorblind-friendly)', 'Light mode (colorblind-friendly)', 'Dark mode (ANSI colors only)'];
    const view = { state: { id: 'menu', status: 'approval' }, modal: { title: 'Theme', kind: 'picker', buttons: labels.map((label) => ({ label })) } };
    expect(look(theme, view, []).menuRows).toBe(6);
    expect(flags(look(theme, view, []), { flapped: false })).toEqual([]);
  });

  it('takes the row holding what the crawler typed for the input, not a list\'s cursor', () => {
    // Qwen Code 0.15.10's '@' mention list: the input '> @' over one item.
    const rows = ['', '> @', '────────────────────────────────────────────────────────────────────────────────', '  README.md', ''];
    const view = { state: { id: 'mention', status: 'approval' }, modal: { title: '@', kind: 'picker', buttons: [{ label: 'README.md' }] } };
    const typedLook = observe as (r: string[], v: unknown, b: string[], t: string) => Obs;
    // The rule under the input stands on the idle screen too, so it is not the command's.
    const idleRows = ['>   Type your message or @path/to/file', rows[2]!];
    expect(flags(typedLook(rows, view, idleRows, '@'), { flapped: false })).toEqual([]);
    expect((typedLook(rows, view, idleRows, '@') as Obs & { menuCounts: number[] }).menuCounts).toEqual([]);
    // Not told what was typed, it takes '> @' for a list's cursor row.
    expect((typedLook(rows, view, idleRows, '') as Obs & { menuCounts: number[] }).menuCounts).toEqual([1]);
  });

  it('takes a lone row over a blank for a heading, not an option of the list under it', () => {
    // Codex 0.171.0's /rename: the view's heading, its text field (a cursor row) and the hints.
    expect(rowsOf(['', '', '  Name thread', '', '› Type a name and press Enter', '', '  enter submit · esc back'])).toBe(0);
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
      expect(index).toContain('| [Qwen Code](crawl/qwen-code.md) | 0.15.10 | 200×50 | 3 | 2 | 0 | 0 | — | 0 |');
      expect(fs.readFileSync(files[0]!, 'utf8')).toContain('Not opened: /quit (ends the CLI).');
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('the recordings of flagged targets, found and labelled', () => {
  const cast = (typed: string[]) => [JSON.stringify({ version: 2, width: 80, height: 24 }), '[0.1,"o","x"]', ...typed.map((k, i) => JSON.stringify([1 + i * 0.1, 'i', k])), '[9,"o","y"]'].join('\n') + '\n';

  it('finds the recordings that open the target, and only those with expectations', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-recorded-'));
    try {
      const dir = path.join(repo, 'specs', 'qwen-code', 'recordings');
      fs.mkdirSync(dir, { recursive: true });
      const put = (name: string, typed: string[], expect = true) => {
        fs.writeFileSync(path.join(dir, `${name}.cast`), cast(typed));
        if (expect) fs.writeFileSync(path.join(dir, `${name}.expect.json`), '{"final":{"status":"idle"}}');
      };
      // The terminal's answer to a query the CLI made at start-up is in the input events too.
      put('crawl-help', ['\u001b[?1;2c', ...'/help', '\r', '\u001b']);
      put('help-no-expectations', [...'/help', '\r'], false);
      put('crawl-model-wide', [...'/model', '\r']);
      put('typed-a-prompt-first', [...'hi /model', '\r']);
      put('two-turns-then-resume', [...'say hello', '\r', ...'/resume', '\r', '\u001b']);
      put('answered-with-esc-esc', [...'hello', '\r', '\u001b', '\u001b']);
      put('crawl-esc-esc', ['\u001b', '\u001b', '\u001b']);
      const found = (recordingsOfTargets as (r: string, c: string, t: unknown[]) => Map<string, string[]>)(repo, 'qwen-code', [
        { label: '/help', command: 'help' }, { label: '/model', command: 'model' }, { label: '/mode', command: 'mode' }, { label: 'Esc Esc', keys: ['\u001b', '\u001b'] },
        { label: '/resume', command: 'resume' },
      ]);
      expect(Object.fromEntries(found)).toEqual({ '/help': ['crawl-help'], '/model': ['crawl-model-wide'], 'Esc Esc': ['crawl-esc-esc'], '/resume': ['two-turns-then-resume'] });
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('labels a crawler recording from its own keystrokes, as the labels of pi\'s /scoped-models were made', () => {
    const base = path.join('specs', 'pi', 'recordings', 'scoped-models-resized');
    const labels = (crawlLabels as (c: string, s: string, k: string) => { intervals: unknown[] } | null)(fs.readFileSync(`${base}.cast`, 'utf8'), 'lab/pi', '/scoped-models\r');
    expect(labels?.intervals).toEqual(JSON.parse(fs.readFileSync(`${base}.labels.json`, 'utf8')).intervals);
  });

  it('passes over keys typed before the target, and gives no labels when the target was never closed', () => {
    const label = crawlLabels as (c: string, s: string, k: string) => { intervals: Array<{ from_ms: number; to_ms: number; status: string }> } | null;
    // A start-up gate answered with Enter at 1.0 s, then '?' at 1.1 s, closed by Esc at 1.2 s; the cast ends at 9 s.
    const l = label(cast(['\r', '?', '\u001b']), 'lab/x', '?');
    expect(l?.intervals).toEqual([{ from_ms: 0, to_ms: 1100, status: 'idle' }, { from_ms: 2700, to_ms: 9000, status: 'idle' }]);
    expect(label(cast(['?']), 'lab/x', '?')).toBeNull();
    // A chord whose one key is several bytes (Left: ESC [ D) is one input event, as the recorder passes it.
    const chord = crawlLabels as (c: string, s: string, k: string[]) => { intervals: Array<{ status: string }> } | null;
    const keysOf = targetKeys as (t: unknown) => string[];
    expect(keysOf({ label: 'Left', keys: ['\u001b[D'] })).toEqual(['\u001b[D']);
    expect(chord(cast(['\u001b[D', '\u001b']), 'lab/x', keysOf({ label: 'Left', keys: ['\u001b[D'] }))?.intervals.map((i) => i.status)).toEqual(['idle', 'idle']);
    expect(keysOf({ label: '/help', command: 'help' })).toEqual(['/', 'h', 'e', 'l', 'p', '\r']);
  });
});

describe('a crawl judged again (--rejudge)', () => {
  it('judges each saved screen with the oracle of today, keeping the flap it saw live', () => {
    const view = { state: { id: 'idle', status: 'idle' }, modal: null };
    const saved = {
      cli: 'qwen-code', cliName: 'Qwen Code', version: '0.15.10', commands: ['help'], targets: [{ label: '/help', command: 'help' }], recorded: [], restarts: 0,
      observations: [
        // Saved with no flags by an older oracle: the screen is a dialog only Esc leaves, read as idle.
        { target: '/help', path: [], size: '80×24', state: 'idle', status: 'idle', flags: [], flapped: true, screen: { rows: [...QWEN_IDLE.slice(0, 1), ...QWEN_HELP], baseline: QWEN_IDLE, view } },
        { target: '/help', path: [], size: '60×20', state: 'idle', status: 'idle', flags: ['unrecognised'], flapped: false },
      ],
    };
    const again = (rejudge as (s: unknown) => { observations: Array<{ flags: string[] }> })(saved);
    expect(again.observations.map((o) => o.flags)).toEqual([['unrecognised', 'flap'], ['unrecognised']]);
  });
});

describe('a full crawl with targets crawled again after a fix', () => {
  it('takes the later crawl\'s screens for its targets and keeps the rest', () => {
    const obs = (target: string, flags: string[]) => ({ target, path: [], size: '80×24', flags });
    const full = { cli: 'codex', version: '0.171.0', commands: ['a', 'b'], targets: [{ label: '/a' }, { label: '/b' }], recorded: [], observations: [obs('/a', ['unrecognised']), obs('/b', [])] };
    const only = { cli: 'codex', version: '0.171.0', commands: ['a', 'b'], targets: [{ label: '/a' }], recorded: [], observations: [obs('/a', [])] };
    const both = (laterCrawl as (a: unknown, b: unknown) => { targets: unknown[]; observations: Array<{ target: string; flags: string[] }>; recrawled: string[] })(full, only);
    expect(both.observations.map((o) => [o.target, o.flags])).toEqual([['/b', []], ['/a', []]]);
    expect(both.targets).toHaveLength(2);
    expect(both.recrawled).toEqual(['/a']);
  });
});

describe('the crawl options', () => {
  it('names an option given without its value, and an unknown one, with the fix', () => {
    const parse = parseCrawlArgs as (a: string[], c: string) => unknown;
    expect(() => parse(['--crawl', '--only'], 'pi')).toThrow('lab pi --crawl: --only needs a value after it');
    expect(() => parse(['--crawl', '--screens-to', '--accuracy'], 'pi')).toThrow('--screens-to needs a value after it');
    expect(() => parse(['--crawl', '--deep'], 'pi')).toThrow(/unknown option "--deep"; use --accuracy/);
    expect(parse(['--crawl', '--only', '/help,Tab', '--crawl-items', '2'], 'pi')).toMatchObject({ only: ['/help', 'Tab'], items: 2 });
  });
});
