/**
 * Qwen Code lab sessions for the views the crawler found read as idle (issue 29): a command's view
 * that only Esc leaves — /help's tabbed page, /mcp's "Manage MCP servers" with no server
 * configured, /delete's session list with no session. Each is a modal of its own (kind picker:
 * the person opened it, never auto-answered) with the view's heading for a title and no buttons,
 * from the moment it is drawn until Esc brings the prompt back.
 */
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
