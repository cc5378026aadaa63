/**
 * The Qwen Code conformance lab: `npm run lab -- qwen-code [options]`.
 *
 * Installs a pinned `@qwen-code/qwen-code` outside the repo, starts the scripted OpenAI Chat
 * Completions server (lab/lib/openai-chat-server.mjs) on loopback, runs the REAL CLI under specterm
 * (specs/qwen-code/spec.json) in a real PTY with a private HOME, drives scripted sessions and checks
 * the live states against what the server knows: generating while a stream is open, approval while a
 * tool call awaits permission, idle after the turn.
 *
 * Options: --record-to DIR (write <name>.cast + <name>.expect.json), --accuracy (write
 * docs/accuracy/qwen-code.md), --scenario NAME[,NAME] (some sessions), --keep (keep the temp dirs),
 * --version V (CLI version, default the pinned one), --verbose. Exit code 0 only if every check passed.
 *
 * Private everything: each session gets a fresh temp dir (0700) holding HOME and the workspace; the
 * dummy API key is passed in the environment only and never logged. Qwen Code updates itself with
 * `npm install -g` unless `general.enableAutoUpdate` is false: the settings turn that off and
 * NPM_CONFIG_PREFIX points into the temp dir, so nothing outside it can change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChatLab } from '../lib/chat-lab.mjs';
import { PROMPT_APPROVALS, PROMPT_SESSIONS, preparePromptSession } from './prompt-sessions.mjs';
import { LIST_SESSIONS, UNTITLED_SESSIONS } from './list-sessions.mjs';
import { SETTINGS_SUBVIEW_SESSIONS, VIEW_SESSIONS } from './view-sessions.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PINNED_VERSION = '0.15.10';
const MODEL = 'lab-model';
const SHELL_TITLE = "Allow execution of: 'mkdir, touch'?";
const EDIT_TITLE = 'Apply this change?';
const FETCH_TITLE = 'Do you want to proceed?';
const TRUST_BUTTONS = ['Trust folder (work)', 'Trust parent folder (lab)', "Don't trust (esc)"];
const EDIT_BUTTONS = ['Yes, allow once', 'Yes, allow always', 'No, suggest changes (esc)'];
/** The lab's stdio MCP server (tools deploy_preview, lookup_ticket): the MCP permission sessions configure it. */
const MCP_SERVER = path.join(here, '..', 'lib', 'mcp-stdio-server.mjs');
const MCP_TITLE = 'Allow execution of MCP tool "deploy_preview" from server "lab-tools"?';
/** The tools/call requests the lab MCP server logged (its log lives in the private HOME). */
const mcpCalls = (home) => {
  try { return fs.readFileSync(path.join(home, 'mcp.log'), 'utf8').split('\n').filter((l) => l.includes('"method":"tools/call"')).length; } catch { return 0; }
};
const PICKER_BUTTONS = [`[openai] ${MODEL} (Runtime)`, '[qwen-oauth] coder-model (Discontinued)'];

const starting = [{ state: 'starting' }, { state: 'idle' }];
const turn = { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } };
const NO_MODAL_TURN = { sequence: [{ state: 'starting' }, { state: 'idle', modal: null }, { state: 'busy', status: 'generating', modal: null }, { state: 'idle', modal: null }], final: { state: 'idle', modal: null } };
const approvalStep = (title, buttons) => ({ state: 'approval', status: 'approval', modal: { title, kind: 'approval', ...(buttons ? { buttons } : {}) } });
const approvedTurn = (title, buttons) => ({ sequence: [...starting, { state: 'busy' }, approvalStep(title, buttons), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } });
const deniedTurn = (title, buttons) => ({ sequence: [...starting, { state: 'busy' }, approvalStep(title, buttons), { state: 'idle', modal: null }], final: { state: 'idle' } });

/**
 * The sessions. `run(c)` drives one; `expect` is what the server/lab know must be seen in the
 * recording (written as <name>.expect.json, never copied from the replay). The shell confirmation's
 * middle buttons ("Always allow run 'mkdir *' commands …") are cut to the terminal width, so the
 * expectations give its title and kind, and the lab checks its first and last buttons.
 */
const SESSIONS = [
  { name: 'start-idle', cols: 80, rows: 24, description: 'Qwen Code starts → idle', run: async () => {}, expect: { sequence: starting, final: { state: 'idle' } } },
  { name: 'hello', cols: 80, rows: 24, description: 'a prompt → the answer streams for ~2 s (generating) → idle', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  {
    name: 'long-answer', cols: 80, rows: 24, description: 'a 30-line answer that scrolls the 24-row screen → generating throughout → idle',
    run: async (c) => { await c.prompt('give me a long answer'); await c.turnEnd(); c.check('the long answer scrolled the screen', !/1\. Alpha line/.test(c.s.driver.snapshot()) && /last line/.test(c.s.driver.snapshot())); },
    expect: turn,
  },
  { name: 'approve-yes', cols: 80, rows: 24, description: 'run_shell_command asks permission → 1 (Yes, allow once) → the command runs, the result streams → idle', run: async (c) => { await c.prompt('please create the file'); await c.approval(1, 'shell'); await c.turnEnd(); c.check('the command ran (build/out.txt exists)', fs.existsSync(path.join(c.work, 'build', 'out.txt'))); }, expect: approvedTurn(SHELL_TITLE) },
  { name: 'approve-no', cols: 80, rows: 24, description: 'run_shell_command asks permission → 4 (No, suggest changes) → the turn ends without running it → idle', run: async (c) => { await c.prompt('please create the file'); await c.approval(4, 'shell'); await c.deniedEnd(); c.check('the command did not run', !fs.existsSync(path.join(c.work, 'build'))); }, expect: deniedTurn(SHELL_TITLE) },
  { name: 'edit-yes', cols: 80, rows: 24, description: 'write_file asks to apply the change → 1 (Yes, allow once) → the file is written → idle', run: async (c) => { await c.prompt('write the notes'); await c.approval(1, 'edit'); await c.turnEnd(); c.check('notes.txt was written', fs.existsSync(path.join(c.work, 'notes.txt'))); }, expect: approvedTurn(EDIT_TITLE, EDIT_BUTTONS) },
  { name: 'edit-no', cols: 80, rows: 24, description: 'write_file asks to apply the change → 3 (No, suggest changes) → nothing written → idle', run: async (c) => { await c.prompt('write the notes'); await c.approval(3, 'edit'); await c.deniedEnd(); c.check('notes.txt was not written', !fs.existsSync(path.join(c.work, 'notes.txt'))); }, expect: deniedTurn(EDIT_TITLE, EDIT_BUTTONS) },
  {
    name: 'model-picker', cols: 80, rows: 24, description: '/model opens the model picker (kind picker, never auto-answered) → Esc closes it → idle',
    run: async (c) => { await c.picker(); },
    expect: { sequence: [...starting, { state: 'picker', status: 'approval', modal: { title: 'Select Model', kind: 'picker', buttons: PICKER_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  { name: 'interrupt', cols: 80, rows: 24, description: 'a slow answer → the spec\'s Stop control (Esc) cancels it → "Request cancelled." → idle', run: async (c) => { await c.prompt('tell me a slow story'); await c.interrupt(); }, expect: turn },
  { name: 'api-error', cols: 80, rows: 24, description: 'the server answers 400 → "✕ [API Error: 400 …]" → idle, with the api_error signal', run: async (c) => { await c.prompt('trigger an error', { expectStream: false }); await c.apiError(); }, expect: { sequence: starting, final: { state: 'idle' } } },
  { name: 'hello-60x20', cols: 60, rows: 20, description: 'the streamed answer in a narrow 60×20 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'approve-yes-60x20', cols: 60, rows: 20, description: 'the shell permission round trip in a 60×20 terminal', run: async (c) => { await c.prompt('please create the file'); await c.approval(1, 'shell'); await c.turnEnd(); }, expect: approvedTurn(SHELL_TITLE) },
  {
    // Without the spec's pre_launch_trust: the dialog it prevents (pre-launch-no-gate) appears.
    name: 'trust-dialog', cols: 80, rows: 24, folderTrust: true, preLaunchTrust: false, ready: 'trust',
    description: 'folder trust switched on and the folder not trusted: "Do you trust this folder?" (kind confirm: a start-up gate, never auto-answered, though its "Don\'t trust (esc)" option has the approval shape) → 1 (Trust folder) → idle',
    run: async (c) => { await c.gate(TRUST_BUTTONS, 1); },
    expect: { sequence: [{ state: 'starting' }, { state: 'trust', status: 'approval', modal: { title: 'Do you trust this folder?', kind: 'confirm', buttons: TRUST_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'pre-launch-no-gate', cols: 80, rows: 24, folderTrust: true,
    description: 'folder trust switched on, the spec\'s pre_launch_trust (qwen_trusted_folders) records the folder in ~/.qwen/trustedFolders.json before spawn → no trust dialog: starting → idle',
    run: async (c) => {
      const file = path.join(c.home, '.qwen', 'trustedFolders.json');
      c.check('pre_launch_trust added the folder', c.s.trust?.status === 'added' && c.s.trust?.file === file, JSON.stringify(c.s.trust));
      const trusted = (() => { try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return null; } })();
      c.check('trustedFolders.json marks the folder TRUST_FOLDER', trusted?.[fs.realpathSync(c.work)] === 'TRUST_FOLDER', JSON.stringify(trusted));
      c.check('no trust dialog during start-up', !c.s.changes.some((x) => x.state === 'trust') && !/Do you trust this folder\?/.test(c.s.driver.snapshot()));
    },
    expect: { sequence: starting, final: { state: 'idle' } },
  },
  { name: 'fetch-no', cols: 80, rows: 24, description: 'web_fetch asks "Do you want to proceed?" (a confirmation the spec names nowhere: detected by its shape) → the "No" option → nothing fetched → idle', run: async (c) => { await c.prompt('fetch the page'); await c.approval('deny', 'fetch'); await c.deniedEnd(); }, expect: deniedTurn(FETCH_TITLE) },
  { name: 'numbered-answer', cols: 80, rows: 24, description: 'an answer that is a plain numbered list with the confirmation\'s own labels ("1. Yes, allow once … 3. No, suggest changes (esc)") → generating then idle, never a modal', run: async (c) => { await c.noModalTurn('show me numbered choices', /3\. No, suggest changes \(esc\)/); }, expect: NO_MODAL_TURN },
  { name: 'model-picker-60x20', cols: 60, rows: 20, description: '/model in a narrow 60×20 terminal: the picker (kind picker) → Esc → idle', run: async (c) => { await c.picker(); }, expect: { sequence: [...starting, { state: 'picker', status: 'approval', modal: { title: 'Select Model', kind: 'picker', buttons: PICKER_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } } },
  { name: 'approve-yes-200x50', cols: 200, rows: 50, description: 'the shell permission round trip in a wide 200×50 terminal', run: async (c) => { await c.prompt('please create the file'); await c.approval(1, 'shell'); await c.turnEnd(); }, expect: approvedTurn(SHELL_TITLE) },
  {
    name: 'mcp-approve', cols: 80, rows: 24, mcp: true,
    description: 'the model calls the lab MCP server\'s deploy_preview tool → Qwen asks before running it (approval) → 1 (Yes, allow once) → the MCP server gets tools/call → the answer streams → idle',
    run: async (c) => { await c.prompt('deploy a preview'); await c.approval(1, 'mcp'); await c.turnEnd(); c.check('the MCP server got the allowed tools/call', mcpCalls(c.home) === 1, String(mcpCalls(c.home))); },
    expect: approvedTurn(MCP_TITLE),
  },
  {
    name: 'mcp-deny', cols: 80, rows: 24, mcp: true,
    description: 'the model calls the lab MCP server\'s deploy_preview tool → approval → No, suggest changes (esc) → no tools/call reaches the MCP server → idle',
    run: async (c) => { await c.prompt('deploy a preview'); await c.approval('deny', 'mcp'); await c.deniedEnd(); c.check('the MCP server got no tools/call', mcpCalls(c.home) === 0, String(mcpCalls(c.home))); },
    expect: deniedTurn(MCP_TITLE),
  },
  ...[
    // The visible rows of the scrolled theme list, each theme's name then its kind, as drawn.
    ['theme-picker', '/theme', 'Select Theme', ['Auto Auto', 'Qwen Light Light', 'Qwen Dark Dark', 'ANSI Dark', 'Atom One Dark', 'Ayu Dark', 'Default Dark', 'Dracula Dark', 'GitHub Dark', 'Shades Of Purple Dark', 'ANSI Light Light', 'Ayu Light Light']],
    ['approval-mode-picker', '/approval-mode', 'Approval Mode', ['plan - Analyze only, do not modify files or execute commands', 'default - Require approval for file edits or shell commands', 'auto-edit - Automatically approve file edits', 'yolo - Automatically approve all tools']],
    // Its buttons say which editors the machine has installed: the title and the kind only.
    ['editor-picker', '/editor', 'Select Editor', undefined],
  ].map(([name, command, title, buttons]) => ({
    name, cols: 80, rows: 24,
    description: `${command} opens its menu (kind picker, never auto-answered; the spec names no such menu: detected by structure) → Esc closes it → idle`,
    run: async (c) => { await c.picker({ command, title, buttons }); },
    expect: { sequence: [...starting, { state: 'picker', status: 'approval', modal: { title, kind: 'picker', ...(buttons ? { buttons } : {}) } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  })),
  { name: 'hello-160x50', cols: 160, rows: 50, description: 'the streamed answer in a 160×50 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'approve-yes-160x50', cols: 160, rows: 50, description: 'the shell permission round trip in a 160×50 terminal', run: async (c) => { await c.prompt('please create the file'); await c.approval(1, 'shell'); await c.turnEnd(); }, expect: approvedTurn(SHELL_TITLE) },
  // Plan approval, questions, /trust, /auth, the extension consent, the rate limit (lab/qwen-code/prompt-sessions.mjs).
  ...PROMPT_SESSIONS,
  // Views only Esc leaves, found by the crawler (lab/qwen-code/view-sessions.mjs).
  ...VIEW_SESSIONS,
  ...SETTINGS_SUBVIEW_SESSIONS,
  // Session lists with sessions in them (lab/qwen-code/list-sessions.mjs).
  ...LIST_SESSIONS,
  ...UNTITLED_SESSIONS,
];

/** A private HOME: API-key (OpenAI-compatible) auth, no telemetry, no self-update, no background memory turns. */
function prepare({ home, work, serverUrl, session }) {
  fs.mkdirSync(path.join(home, '.qwen'), { recursive: true, mode: 0o700 });
  const settings = {
    security: { auth: { selectedType: 'openai' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false },
    // Off: after each turn it streams a "memory extraction" request of its own, which is not the user's turn.
    memory: { enableManagedAutoMemory: false },
  };
  // Folder trust is off by default; the trust-dialog session turns it on (nothing is trusted in the private HOME).
  if (session?.folderTrust) settings.security.folderTrust = { enabled: true };
  if (session?.mcp) settings.mcpServers = { 'lab-tools': { command: process.execPath, args: [MCP_SERVER], env: { LAB_MCP_LOG: path.join(home, 'mcp.log') } } };
  preparePromptSession({ settings, session, work });
  fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  // All three select the OpenAI-compatible provider.
  return { OPENAI_API_KEY: 'lab-dummy-key', OPENAI_BASE_URL: serverUrl, OPENAI_MODEL: MODEL };
}

const SHELL_BUTTONS_OK = (labels) => labels.length === 4 && labels[0] === 'Yes, allow once' && labels[3] === 'No, suggest changes (esc)';

/** The Qwen Code description for the shared runner (lab/lib/chat-lab.mjs). */
export const QWEN_CODE = {
  id: 'qwen-code', cliName: 'Qwen Code', pkg: '@qwen-code/qwen-code', bin: 'qwen', pinnedVersion: PINNED_VERSION,
  scenariosDir: path.join(here, 'scenarios'), models: [MODEL], prepare, sessions: SESSIONS,
  // --history-to: Qwen Code keeps each session as ~/.qwen/projects/<cwd, non-alphanumerics as '-'>/chats/<id>.jsonl.
  historyTrees: (home) => [{ from: path.join(home, '.qwen', 'projects'), as: 'projects' }],
  marks: { approval: /\d\. No, (?:suggest changes|keep planning) \(esc\)/, spinner: /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\n]*(?:\n *)?\(\d+[hms]/, picker: /Select Model/ },
  approvals: {
    shell: { title: SHELL_TITLE, buttonsOk: SHELL_BUTTONS_OK },
    edit: { title: EDIT_TITLE, buttonsOk: (labels) => JSON.stringify(labels) === JSON.stringify(EDIT_BUTTONS) },
    mcp: { title: MCP_TITLE, buttonsOk: (labels) => labels.length >= 2 && labels[0] === 'Yes, allow once' && labels[labels.length - 1] === 'No, suggest changes (esc)' },
    fetch: { title: FETCH_TITLE, buttonsOk: (labels) => labels.length >= 2 && labels[0] === 'Yes, allow once' && labels[labels.length - 1] === 'No, suggest changes (esc)' },
    ...PROMPT_APPROVALS,
  },
  picker: { title: 'Select Model', buttons: PICKER_BUTTONS },
  // Qwen Code is slow to start on a loaded 2-core box (15–25 s) and parses a shell command with
  // tree-sitter before it asks (10–25 s seen): generous waits; specterm's own delays are judged from the screen.
  limits: { startMs: 90_000, confirmDrawnMs: 40_000 },
};

/** Entry point for lab/run.mjs. */
export function main(args) {
  return runChatLab(QWEN_CODE, args);
}
