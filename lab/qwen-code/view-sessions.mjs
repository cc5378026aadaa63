/**
 * Qwen Code lab sessions for the views the crawler found read as idle (issue 29): a command's view
 * that only Esc leaves — /help's tabbed page, /mcp's "Manage MCP servers" with no server
 * configured, /delete's session list with no session. Each is a modal of its own (kind picker:
 * the person opened it, never auto-answered) with the view's heading for a title and no buttons,
 * from the moment it is drawn until Esc brings the prompt back.
 */
import { sleep } from '../lib/lab-kit.mjs';
import { backToIdle, modal, pickerSeq, typeCommand } from './prompt-sessions.mjs';

const starting = [{ state: 'starting' }, { state: 'idle' }];

const VIEWS = [
  ['help-view', '/help', 'Qwen Code   general   commands   custom-commands', /Tab\/Shift\+Tab to switch tabs\s+·\s+Esc to cancel/],
  ['mcp-view', '/mcp', 'Manage MCP servers', /No MCP servers configured[\s\S]*Esc to close/],
  ['delete-view', '/delete', 'Delete Session', /No sessions found[\s\S]*Esc to cancel/],
];

/**
 * At 60 columns Qwen draws /help 80 columns wide: every row wraps, its top border too, and no
 * heading can be read under it (the spec says null rather than another box's text).
 */
const titleAt = (name, cols, title) => (name === 'help-view' && cols === 60 ? null : title);

export const VIEW_SESSIONS = VIEWS.flatMap(([name, command, heading, shown]) => [[80, 24], [60, 20], [200, 50]].map(([cols, rows]) => [cols, rows, titleAt(name, cols, heading)]).map(([cols, rows, title]) => ({
  name: cols === 80 ? name : `${name}-${cols}x${rows}`, cols, rows,
  description: `${command} opens a view only Esc leaves ("${heading}", no option to choose: kind picker, no buttons, never auto-answered) → Esc → idle`,
  run: async (c) => {
    await typeCommand(c, command);
    await modal(c, { state: 'view', kind: 'picker', title, buttons: [], shown }, '\u001b', { timeoutMs: 15_000 });
    await backToIdle(c, `Esc closed ${command}`);
  },
  expect: { sequence: [...starting, pickerSeq('view', title, []), { state: 'idle', modal: null }], final: { state: 'idle' } },
})));

/** The rows of /settings at 80×24, and the themes its Theme row (the fourth) lists — as /theme lists them. */
const SETTINGS_ROWS = ['Tool Approval Mode', 'Language: UI', 'Language: Model', 'Theme', 'Vim Mode', 'Interactive Shell (PTY)', 'Preferred Editor', 'Auto-connect to IDE', 'Show Line Numbers in Code', 'Hide Tips'];
const THEMES = ['Auto Auto', 'Qwen Light Light', 'Qwen Dark Dark', 'ANSI Dark', 'Atom One Dark', 'Ayu Dark', 'Default Dark', 'Dracula Dark', 'GitHub Dark', 'Shades Of Purple Dark', 'ANSI Light Light', 'Ayu Light Light'];

const press = async (c, keys) => { for (const k of keys) { c.s.driver.dispatch({ kind: 'pty_write', data: k }); await sleep(300); } };

/**
 * A sub-view opened from a menu (issue 29 item 2, found by the crawler: /settings, item 4): Theme
 * opens "Select Theme" with a preview pane beside it — a picker of its own, titled and labelled as
 * /theme's, not the settings list with the rows left beside the preview — and Esc goes back to the
 * settings list, then to the prompt.
 */
export const SETTINGS_SUBVIEW_SESSIONS = [{
  name: 'settings-theme-subview', cols: 80, rows: 24,
  description: '/settings, ↓↓↓ to Theme, Enter: "Select Theme" with its preview (a picker of its own: its title, one button per theme) → Esc → back to "Settings" → Esc → idle',
  run: async (c) => {
    await typeCommand(c, '/settings');
    await modal(c, { state: 'settings', kind: 'picker', title: 'Settings', buttons: SETTINGS_ROWS, shown: /Tool Approval Mode/ }, '\u001b[B', { timeoutMs: 15_000 });
    // Down to Theme, looking at the cursor after each key (a key sent while Qwen redraws can be lost).
    for (let i = 0; i < 8 && !/● Theme/.test(c.s.driver.snapshot()); i++) await press(c, ['\u001b[B']);
    c.check('the cursor is on Theme', /● Theme/.test(c.s.driver.snapshot()));
    c.act('picker_open');
    await press(c, ['\r']);
    await modal(c, { state: 'picker', kind: 'picker', title: 'Select Theme', buttons: THEMES, shown: /Select Theme[\s\S]*Preview/ }, '\u001b', { timeoutMs: 15_000 });
    await modal(c, { state: 'settings', kind: 'picker', title: 'Settings', buttons: SETTINGS_ROWS, shown: /Tool Approval Mode[\s\S]*Hide Tips/ }, '\u001b', { timeoutMs: 15_000 });
    await backToIdle(c, 'Esc closed /settings');
  },
  expect: {
    sequence: [...starting, pickerSeq('settings', 'Settings', SETTINGS_ROWS), pickerSeq('picker', 'Select Theme', THEMES), pickerSeq('settings', 'Settings', SETTINGS_ROWS), { state: 'idle', modal: null }],
    final: { state: 'idle' },
  },
}];
