/**
 * The Gemini lab's sessions for the prompts of issue 13 beyond the tool confirmations: the MCP
 * tool confirmation, the quota dialog, /auth, /editor, /permissions trust, the plan approval,
 * ask_user questions and /settings. lab.mjs runs them like its own SESSIONS; this module holds their definitions and the
 * driving code they need (kept apart so lab.mjs stays readable).
 *
 * A session may carry `settings(work)` (merged into ~/.gemini/settings.json) and `files`
 * (written into the workspace before Gemini starts), as the plan and MCP sessions need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const MCP_SERVER = path.resolve(here, '..', 'lib', 'mcp-stdio-server.mjs');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Gemini CLI's MCP confirmation for the lab's `lab-tools` server (ToolConfirmationMessage, type mcp). */
export const MCP_APPROVAL = {
  title: 'Allow execution of MCP tool "deploy_preview" from server "lab-tools"?',
  buttons: ['Allow once', 'Allow tool for this session', 'Allow all server tools for this session', 'No, suggest changes (esc)'],
};
/** ProQuotaDialog after a terminal (per-day) quota error when no other model is left to fall back to. */
const QUOTA = { title: 'Usage limit reached for all Pro models.', buttons: ['Keep trying', 'Stop'] };
const AUTH = { title: 'Get started', buttons: ['Sign in with Google', 'Use Gemini API Key', 'Vertex AI'] };
const EDITORS = ['None', 'Antigravity (Not installed)', 'BBEdit (Not installed)', 'Cursor (Not installed)', 'Emacs (Not installed)', 'Emacs Client (Not installed)', 'Helix (Not installed)', 'Lapce (Not installed)', 'Micro (Not installed)', 'Neovim (Not installed)', 'Nova (Not installed)', 'Sublime Text (Not installed)', 'Vim', 'VS Code (Not installed)', 'VSCodium (Not installed)', 'Windsurf (Not installed)', 'Zed (Not installed)'];
/** At 80×24 Gemini CLI's two-column editor dialog cuts the long names with … (the list as shown, the right-hand column is not part of a label). */
const EDITORS_80X24 = EDITORS.map((e) => ({ 'Antigravity (Not installed)': 'Antigravity (Not installe…', 'Emacs Client (Not installed)': 'Emacs Client (Not install…', 'Sublime Text (Not installed)': 'Sublime Text (Not install…' })[e] ?? e);
const TRUST_LEVEL = { title: 'Modify Trust Level', buttons: ['Trust this folder (work)', 'Trust parent folder (lab)', "Don't trust"] };
/** The settings /settings shows at 200×50 (their values and descriptions are not part of the names). */
const SETTINGS_200X50 = ['Vim Mode', 'Default Approval Mode', 'Enable Auto Update', 'Enable Terminal Notifications', 'Terminal Notification Method', 'Enable Plan Mode', 'Plan Directory', 'Plan Model Routing', 'Retry Fetch Errors'];
const QUESTION = { title: 'Answer Questions', buttons: ['Vitest', 'Jest', 'Enter a custom value'] };
/** An option label too long for 60 columns: Gemini CLI wraps it inside the dialog's box, the label is the joined rows. */
const LONG_QUESTION = { title: 'Answer Questions', buttons: ['Vitest with the coverage reporter and the browser mode enabled', 'Jest', 'Enter a custom value'] };
const YESNO = { title: 'Answer Questions', buttons: ['Yes', 'No', 'Enter a custom value'] };
const PLAN = { title: 'Ready to start implementation?', buttons: ['Yes, automatically accept edits', 'Yes, manually accept edits', 'Type your feedback...'] };

const mcpSettings = (work) => ({
  mcpServers: { 'lab-tools': { command: process.execPath, args: [MCP_SERVER], env: { LAB_MCP_LOG: path.join(work, '..', 'mcp.log') } } },
});
const mcpCalls = (work) => {
  try { return fs.readFileSync(path.join(work, '..', 'mcp.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((m) => m.method === 'tools/call'); } catch { return []; }
};

/** The states whose buttons are pressed by moving a cursor row with the arrows (select_mode arrow_keys). */
const ARROW_STATES = new Set(['settings', 'sessions', 'list', 'toggles']);
const modal = (state, kind, { title, buttons }) => ({ state, status: 'approval', modal: { title, kind, buttons } });
const START = [{ state: 'starting' }, { state: 'idle' }];

/**
 * Waits for `state`, checks its modal exactly (kind, title, buttons), that nobody answered it
 * within 1.5 s, then answers it: `{ esc: true }` or `{ button: n }` (the spec's own key for it).
 */
async function checkDialog(c, state, kind, want, answer) {
  const view = await c.s.waitForState(state, 20_000).catch(() => null);
  c.check(`${state} state (${want.title})`, view !== null);
  if (!view) return false;
  await sleep(600); // the dialog's last rows settle (Ink draws a box in more than one write)
  const m = c.s.driver.getCurrentView()?.modal;
  const labels = m?.buttons?.map((b) => b.label) ?? [];
  c.check(`modal kind is ${kind}`, m?.kind === kind, String(m?.kind));
  c.check('modal title', m?.title === want.title, JSON.stringify(m?.title));
  c.check('modal buttons exactly as shown', JSON.stringify(labels) === JSON.stringify(want.buttons), JSON.stringify(labels));
  // A list pressed with the arrows needs its cursor row: without it every press is refused.
  if (ARROW_STATES.has(state)) c.check('one button is the cursor row', m?.buttons?.filter((b) => b.current).length === 1, JSON.stringify(m?.buttons?.map((b) => b.current)));
  await sleep(1500);
  c.check(`the ${state} modal is not auto-answered (still open after 1.5 s)`, c.s.driver.getCurrentView()?.state.id === state);
  c.actions.push({ t: Date.now(), what: answer.esc ? 'picker_close' : 'modal_answered' });
  if (answer.esc) c.s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
  else {
    const r = c.s.driver.dispatch({ kind: 'click_modal_button', index: answer.button, label: want.buttons[answer.button - 1] });
    c.check(`click_modal_button ${answer.button} accepted`, r.ok, r.reason ?? '');
  }
  return true;
}

/** A slash command opens a dialog; it is checked, closed with Esc, and the session is idle again. */
function slashDialog(name, cols, rows, command, state, kind, want, description, enters = 1) {
  return {
    name, cols, rows, description,
    run: async (c) => {
      c.actions.push({ t: Date.now(), what: 'picker_open' });
      c.s.driver.dispatch({ kind: 'pty_write', data: command });
      // Enter as its own key: Gemini takes an Enter right after typing as a newline. A command
      // with an argument takes two: the first accepts the completion menu's suggestion.
      for (let i = 0; i < enters; i++) {
        await sleep(enters > 1 ? 1500 : 400); // the completion menu needs a moment to settle on the typed argument
        c.s.driver.dispatch({ kind: 'pty_write', data: '\r' });
      }
      if (!(await checkDialog(c, state, kind, want, { esc: true }))) return;
      const back = await c.s.waitForState('idle', 8000).catch(() => null);
      c.check('idle after Esc closed the dialog', back !== null);
      await sleep(1500);
    },
    expect: { sequence: [...START, modal(state, kind, want), { state: 'idle', modal: null }], final: { state: 'idle' } },
  };
}

/** ask_user: the model asks, a person answers with option `button`, the answer goes back to the model and the turn goes on. */
function askSession(name, cols, rows, prompt, want, button, description) {
  return {
    name, cols, rows, description,
    run: async (c) => {
      await c.prompt(prompt);
      const pending = await c.server.waitFor((e) => e.event === 'tool_call_pending' && e.name === 'ask_user', 30_000).catch(() => null);
      c.check('the model called ask_user', pending !== null);
      if (!(await checkDialog(c, 'question', 'picker', want, { button }))) return;
      const res = await c.server.waitFor((e) => e.event === 'tool_result' && e.name === 'ask_user', 15_000).catch(() => null);
      c.check('the server received the answer', res !== null);
      if (res) await c.turnEnd();
    },
    expect: { sequence: [...START, modal('question', 'picker', want), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  };
}

/** Plan mode: the model asks to exit it with a plan the lab wrote; a person approves with option 2. */
function planSession(name, cols, rows, where) {
  return {
    name, cols, rows,
    settings: () => ({ general: { defaultApprovalMode: 'plan', plan: { directory: 'plans' } } }),
    files: { 'plans/lab-plan.md': '# Lab plan\n\n1. Add the notes file.\n2. Run the tests.\n' },
    description: `${where}in plan mode the model calls exit_plan_mode: "Ready to start implementation?" (consent to start editing: kind approval; the plan's own numbered steps are not buttons) → 2 (Yes, manually accept edits) → the turn goes on → idle`,
    run: async (c) => {
      await c.prompt('approve the plan');
      const pending = await c.server.waitFor((e) => e.event === 'tool_call_pending' && e.name === 'exit_plan_mode', 30_000).catch(() => null);
      c.check('the model asked to exit plan mode', pending !== null);
      if (!(await checkDialog(c, 'plan', 'approval', PLAN, { button: 2 }))) return;
      const res = await c.server.waitFor((e) => e.event === 'tool_result' && e.name === 'exit_plan_mode', 15_000).catch(() => null);
      c.check('the server received the plan approval result', res !== null, '');
      if (res) await c.turnEnd();
    },
    expect: { sequence: [...START, modal('plan', 'approval', PLAN), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  };
}

/** What Esc Esc offers after one turn: the session context Gemini CLI records as the first message, the turn's message, and the way out. */
const REWIND = { title: 'Rewind', buttons: ['<session_context>', 'say hello', 'Stay at current position'] };

/**
 * One turn, then Esc Esc at the idle prompt: Gemini CLI's "go back to an earlier message" mode
 * (RewindViewer, a selection popup a key opens: kind picker, never idle while open) → the last
 * button, "Stay at current position", by the arrows and Enter → idle.
 */
function rewindSession(name, cols, rows, where) {
  return {
    name, cols, rows,
    description: `${where}after one turn, Esc Esc opens "Rewind" (the earlier messages, each with a stats row under it, and "Stay at current position": kind picker, buttons = the first row of each item) → "Stay at current position" (arrows and Enter) → idle`,
    run: async (c) => {
      await c.prompt('say hello');
      await c.turnEnd();
      await sleep(1000);
      c.actions.push({ t: Date.now(), what: 'picker_open' });
      c.s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
      await sleep(150);
      c.s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
      if (!(await checkDialog(c, 'list', 'picker', REWIND, { button: REWIND.buttons.length }))) return;
      const back = await c.s.waitForState('idle', 8000).catch(() => null);
      c.check('idle after "Stay at current position"', back !== null);
      await sleep(1500);
    },
    expect: { sequence: [...START, { state: 'busy', status: 'generating' }, { state: 'idle' }, modal('list', 'picker', REWIND), { state: 'idle', modal: null }], final: { state: 'idle' } },
  };
}

/** The MCP tool confirmation at one size; at 60 columns its question wraps over two rows (the title is the joined rows). */
function mcpSession(name, cols, rows, where) {
  return {
    name, cols, rows, settings: mcpSettings,
    description: `${where}a call to a tool of the lab's stdio MCP server: "Allow execution of MCP tool … from server …?" (kind approval) → 1 (Allow once) → the MCP server runs it → idle`,
    run: async (c) => {
      await c.prompt('deploy the preview');
      await c.approval(1, 'mcp');
      await c.turnEnd();
      c.check('the MCP server received the tools/call', mcpCalls(c.work).some((m) => m.params?.name === 'deploy_preview'));
    },
    expect: { sequence: [...START, modal('approval', 'approval', MCP_APPROVAL), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  };
}

export const PROMPT_SESSIONS = [
  mcpSession('mcp-approve', 80, 24, ''),
  mcpSession('mcp-approve-60x20', 60, 20, 'in a narrow 60×20 terminal (the question wraps over two rows), '),
  {
    name: 'quota-dialog', cols: 80, rows: 24,
    description: 'the API answers a 429 naming a per-day quota: Gemini CLI asks "Usage limit reached …" (ProQuotaDialog, a menu: kind picker, never auto-answered) → 2 (Stop) → idle',
    run: async (c) => {
      const at = Date.now();
      c.actions.push({ t: at, what: 'submit' });
      c.s.driver.dispatch({ kind: 'send_message', text: 'use up the quota' });
      const err = await c.server.waitFor((e) => e.event === 'api_error' && e.t >= at, 30_000).catch(() => null);
      c.check('the server answered with the scripted 429', err !== null);
      // Ground truth for the labels: the dialog is up from when the screen shows it.
      const shown = await c.s.waitForScreen(/Usage limit reached/, 15_000).then(() => Date.now()).catch(() => null);
      c.check('the quota dialog is on screen', shown !== null);
      if (shown !== null) c.actions.push({ t: shown, what: 'modal_shown' });
      if (!(await checkDialog(c, 'picker', 'picker', QUOTA, { button: 2 }))) return;
      const back = await c.s.waitForState('idle', 10_000).catch(() => null);
      c.check('idle after Stop', back !== null);
      await sleep(2000);
      c.check('no new request after Stop', !c.server.log.some((e) => e.t > c.actions[c.actions.length - 1].t && (e.event === 'stream_start' || e.event === 'api_error')));
    },
    expect: { sequence: [...START, modal('picker', 'picker', QUOTA), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  slashDialog('auth-dialog', 80, 24, '/auth', 'picker', 'picker', AUTH, '/auth opens "Get started / How would you like to authenticate for this project?" (a menu: kind picker) → Esc → idle'),
  slashDialog('editor-dialog', 80, 24, '/editor', 'picker', 'picker', { title: 'Select Editor', buttons: EDITORS_80X24 }, '/editor at 80×24: the dialog is taller than the screen; its list (17 editors, from the scrollback-inclusive frame, long names cut with … as Gemini shows them) is the picker\'s options, not the "Apply To" group under it → Esc → idle'),
  slashDialog('editor-dialog-200x50', 200, 50, '/editor', 'picker', 'picker', { title: 'Select Editor', buttons: EDITORS }, '/editor in a 200×50 terminal: "Select Editor" lists all 17 editors (kind picker; the "Apply To" scope group under the list is not one of its options) → Esc → idle'),
  slashDialog('permissions-trust', 80, 24, '/permissions trust', 'trust_level', 'confirm', TRUST_LEVEL, '/permissions trust opens "Modify Trust Level" (kind confirm: trusting a folder lets its configuration run code, so no auto-approve policy answers it) → Esc → idle'),
  slashDialog('permissions-trust-60x20', 60, 20, '/permissions trust', 'trust_level', 'confirm', TRUST_LEVEL, '/permissions trust in a narrow 60×20 terminal (kind confirm) → Esc → idle'),
  slashDialog('permissions-trust-200x50', 200, 50, '/permissions trust', 'trust_level', 'confirm', TRUST_LEVEL, '/permissions trust in a wide 200×50 terminal (kind confirm) → Esc → idle'),
  slashDialog('settings-dialog', 80, 24, '/settings', 'settings', 'picker', { title: 'Settings', buttons: ['Vim Mode'] }, '/settings opens the settings list (a menu a person browses: kind picker; at 80×24 it shows one setting, "Vim Mode  false") → Esc → idle'),
  slashDialog('settings-dialog-200x50', 200, 50, '/settings', 'settings', 'picker', { title: 'Settings', buttons: SETTINGS_200X50 }, '/settings in a 200×50 terminal: nine settings with their values (kind picker; the description under each setting is not part of its name) → Esc → idle'),
  slashDialog('agent-config', 80, 24, '/agents config generalist', 'settings', 'picker', { title: 'Configure: Generalist Agent', buttons: ['Enabled', 'Model'] }, '/agents config generalist opens the agent\'s settings (the /settings shape, named nowhere in the spec: kind picker, buttons = the setting names) → Esc → idle', 2),
  askSession('ask-question', 80, 24, 'ask me a question', QUESTION, 1, 'the model calls ask_user with a choice question: "Answer Questions" (kind picker: a question a person answers; the description under each option is not its label) → 1 (Vitest) → the turn goes on → idle'),
  askSession('ask-question-60x20', 60, 20, 'ask me a question', QUESTION, 2, 'the ask_user choice question in a narrow 60×20 terminal (kind picker; descriptions not part of the labels) → 2 (Jest) → idle'),
  askSession('ask-long', 80, 24, 'ask me a long question', LONG_QUESTION, 1, 'ask_user with a 62-character option label that fits one row at 80 columns (the description under it is not part of it) → 1 → idle'),
  askSession('ask-long-200x50', 200, 50, 'ask me a long question', LONG_QUESTION, 1, 'ask_user with a 62-character option label in a wide 200×50 terminal (one row; the description under it is not part of it) → 1 → idle'),
  askSession('ask-long-60x20', 60, 20, 'ask me a long question', LONG_QUESTION, 1, 'ask_user in a narrow 60×20 terminal with an option label that wraps inside the dialog\'s box (the wrapped rows are part of the label, the descriptions are not) → 1 → idle'),
  askSession('ask-yesno', 80, 24, 'ask yes or no', YESNO, 2, 'ask_user with a yes/no question: a picker although its first option is "Yes" (only the plan dialog, with its "Ctrl+G to edit plan" hint, is approval) → 2 (No) → idle'),
  {
    name: 'resume-browser', cols: 80, rows: 24,
    description: 'after one turn, /resume opens the session browser (a full-width table, cursor row "❯ #1 │ …", no box: kind picker, buttons = the sessions\' names) → Esc → idle',
    run: async (c) => {
      await c.prompt('say hello');
      await c.turnEnd();
      await slashDialog('', 0, 0, '/resume', 'sessions', 'picker', { title: 'Chat Sessions (1 total)', buttons: ['say hello (current)'] }, '').run(c);
    },
    expect: { sequence: [...START, { state: 'busy', status: 'generating' }, { state: 'idle' }, modal('sessions', 'picker', { title: 'Chat Sessions (1 total)', buttons: ['say hello (current)'] }), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  rewindSession('rewind-esc-esc', 80, 24, ''),
  rewindSession('rewind-esc-esc-60x20', 60, 20, 'in a narrow 60×20 terminal, '),
  planSession('plan-approve', 80, 24, ''),
  planSession('plan-approve-200x50', 200, 50, 'in a wide 200×50 terminal, '),
  planSession('plan-approve-60x20', 60, 20, 'in a narrow 60×20 terminal, '),
];
