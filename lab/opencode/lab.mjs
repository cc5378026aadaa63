/**
 * The OpenCode conformance lab: `npm run lab -- opencode [options]`.
 *
 * Installs a pinned `opencode-ai` outside the repo, starts the scripted OpenAI Chat Completions
 * server (lab/lib/openai-chat-server.mjs) on loopback, runs the REAL CLI under specterm
 * (specs/opencode/spec.json) in a real PTY with a private HOME, drives scripted sessions and checks
 * the live states against what the server knows (lab/lib/chat-lab.mjs).
 *
 * Options: as every chat lab (--record-to DIR, --accuracy, --scenario NAME[,NAME], --keep,
 * --version V, --verbose). Exit code 0 only if every check passed.
 *
 * The provider is a custom `@ai-sdk/openai-compatible` one ("Lab", base URL = the server) in the
 * private HOME's ~/.config/opencode/opencode.json; the dummy key is in that 0600 file, never in argv
 * or logs. `autoupdate: false` and OPENCODE_DISABLE_AUTOUPDATE stop the self-update;
 * OPENCODE_DISABLE_MODELS_FETCH (no models.dev download), OPENCODE_DISABLE_DEFAULT_PLUGINS,
 * OPENCODE_DISABLE_LSP_DOWNLOAD, OPENCODE_DISABLE_SHARE and OPENCODE_DISABLE_CLAUDE_CODE keep it off
 * the network and out of ~/.claude. Permissions are set to `ask` for bash and edit: OpenCode's
 * default allows both, so the prompts exist only where a user asks for them.
 *
 * OpenCode is slow to start on a loaded 2-core box: its first frame (a blank full-screen paint) comes
 * 6–15 s after spawn and the home screen 20–60 s after it (load average 10–15 measured; under tmux the
 * same). Hence the generous startMs; specterm's own delays are judged from the screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChatLab } from '../lib/chat-lab.mjs';
import { sleep } from '../lib/lab-kit.mjs';
import { listSession } from './list-tool.mjs';
import { promptApprovals, PROMPT_TITLES, promptSessions, sessionConfig } from './prompt-sessions.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PINNED_VERSION = '1.18.33';
const MODEL = 'lab-model';
const SHELL_TITLE = 'Shell command';
const EDIT_TITLE = 'Edit notes.txt';
const EDIT_README_TITLE = 'Edit README.md';
const PERMISSION_BUTTONS = ['Allow once', 'Allow always', 'Reject'];

/**
 * The model dialog's options as a person sees them at 80×24 with the lab's config: the dialog
 * scrolls to centre the current model (Lab Model, under its "Lab" group header), so the rows above
 * it are the last free models of OpenCode's bundled "OpenCode Zen" list (its header scrolled off).
 * Group headers ("Lab") are not options.
 */
const PICKER_OPTIONS = ['Nemotron 3.5 Lightning Free', 'Nemotron 3 Ultra Free', 'Big Pickle', 'Lab Model'];
/** Expected picker buttons: the options in order, with their display indices. */
export const pickerButtons = (labels) => labels.map((label, i) => ({ index: i + 1, label }));
const starting = [{ state: 'starting' }, { state: 'idle' }];
const turn = { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } };
const approvalStep = (title) => ({ state: 'approval', status: 'approval', modal: { title, kind: 'approval', buttons: PERMISSION_BUTTONS } });
const approvedTurn = (title) => ({ sequence: [...starting, { state: 'busy' }, approvalStep(title), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } });
const deniedTurn = (title) => ({ sequence: [...starting, { state: 'busy' }, approvalStep(title), { state: 'idle', modal: null }], final: { state: 'idle' } });

/** The question the scenario's `question` tool call asks (lab/opencode/scenarios/basic.json). */
const QUESTION = { title: 'Which test framework should the project use?', buttons: ['Vitest', 'Jest', 'node:test', 'Type your own answer'] };

/**
 * The question tool: drawn in place of the prompt, detected as a picker with the question as its
 * title and the options as buttons, not answered by specterm; the lab presses 1 and the answer
 * reaches the model as the tool's result.
 */
async function askedQuestion(c) {
  const drawnAt = await c.s.waitForScreen(/esc dismiss/, 90_000).then(() => Date.now()).catch(() => null);
  c.check('the question is on screen', drawnAt !== null, c.s.driver.snapshot());
  if (process.env.SPECTERM_LAB_PROBE) process.stderr.write(`--- question drawn ---\n${c.s.driver.snapshot()}\n`);
  if (drawnAt === null) return;
  c.act?.('approval_drawn');
  const view = await c.s.waitForState('question', 5000).catch(() => null);
  const m = view?.modal ?? c.s.driver.getCurrentView()?.modal;
  const labels = m?.buttons?.map((b) => b.label) ?? [];
  c.check('question state, status approval', view?.state.status === 'approval', String(c.s.driver.getCurrentView()?.state.id));
  c.check('question modal kind is picker', m?.kind === 'picker', String(m?.kind));
  c.check('question title', m?.title === QUESTION.title, JSON.stringify(m?.title));
  c.check('question buttons', JSON.stringify(labels) === JSON.stringify(QUESTION.buttons), JSON.stringify(labels));
  await sleep(1500);
  c.check('the question is not auto-answered (still open after 1.5 s)', c.s.driver.getCurrentView()?.state.id === 'question');
  c.act?.('approve');
  const r = c.s.driver.dispatch({ kind: 'click_modal_button', index: 1, label: QUESTION.buttons[0] });
  c.check('click_modal_button 1 accepted', r.ok, r.reason ?? '');
}

const questionTurn = { sequence: [...starting, { state: 'busy' }, { state: 'question', status: 'approval', modal: { title: QUESTION.title, kind: 'picker', buttons: pickerButtons(QUESTION.buttons) } }, { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } };

/** The follow-up OpenCode asks after "Allow always". */
const ALWAYS = { title: 'Always allow', buttons: ['Confirm', 'Cancel'] };

const createFile = async (c) => { await c.prompt('please create the file'); await c.approval(1, 'shell'); await c.turnEnd(); c.check('the command ran (build/out.txt exists)', fs.existsSync(path.join(c.work, 'build', 'out.txt'))); };

/** The sessions (see lab/lib/chat-lab.mjs); `expect` is what the server/lab know must be seen. */
const SESSIONS = [
  { name: 'start-idle', cols: 80, rows: 24, description: 'OpenCode starts → idle', run: async () => {}, expect: { sequence: starting, final: { state: 'idle' } } },
  { name: 'hello', cols: 80, rows: 24, description: 'a prompt → the answer streams for ~2 s (generating) → idle', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  {
    name: 'long-answer', cols: 80, rows: 24, description: 'a 30-line answer that scrolls the 24-row screen → generating throughout → idle',
    run: async (c) => { await c.prompt('give me a long answer'); await c.turnEnd(); c.check('the long answer scrolled the screen', !/1\. Alpha line/.test(c.s.driver.snapshot()) && /last line/.test(c.s.driver.snapshot())); },
    expect: turn,
  },
  { name: 'approve-yes', cols: 80, rows: 24, description: 'bash asks permission → 1 (Allow once) → the command runs, the result streams → idle', run: createFile, expect: approvedTurn(SHELL_TITLE) },
  { name: 'approve-no', cols: 80, rows: 24, description: 'bash asks permission → 3 (Reject) → the turn ends without running it → idle', run: async (c) => { await c.prompt('please create the file'); await c.approval(3, 'shell'); await c.deniedEnd(); c.check('the command did not run', !fs.existsSync(path.join(c.work, 'build'))); }, expect: deniedTurn(SHELL_TITLE) },
  { name: 'edit-yes', cols: 80, rows: 24, description: 'write asks permission to edit → 1 (Allow once) → the file is written → idle', run: async (c) => { await c.prompt('write the notes'); await c.approval(1, 'edit'); await c.turnEnd(); c.check('notes.txt was written', fs.existsSync(path.join(c.work, 'notes.txt'))); }, expect: approvedTurn(EDIT_TITLE) },
  { name: 'edit-readme-yes', cols: 80, rows: 24, description: 'edit asks permission to change README.md → 1 (Allow once) → the file is changed → idle (a history fixture: the edit as a diff)', run: async (c) => { await c.prompt('edit the readme'); await c.approval(1, 'editReadme'); await c.turnEnd(); c.check('README.md was edited', /\(edited\)/.test(fs.readFileSync(path.join(c.work, 'README.md'), 'utf8'))); }, expect: approvedTurn(EDIT_README_TITLE) },
  { name: 'edit-no', cols: 80, rows: 24, description: 'write asks permission to edit → 3 (Reject) → nothing written → idle', run: async (c) => { await c.prompt('write the notes'); await c.approval(3, 'edit'); await c.deniedEnd(); c.check('notes.txt was not written', !fs.existsSync(path.join(c.work, 'notes.txt'))); }, expect: deniedTurn(EDIT_TITLE) },
  {
    name: 'model-picker', cols: 80, rows: 24, description: '/models opens the model picker (kind picker, never auto-answered) → Esc closes it → idle',
    run: async (c) => { await c.picker(); },
    expect: { sequence: [...starting, { state: 'picker', status: 'approval', modal: { title: 'Select model', kind: 'picker', buttons: pickerButtons(PICKER_OPTIONS) } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    // OpenCode interrupts on a second Escape ("esc again to interrupt"). Stop is one Escape in the
    // kitty encoding (CSI 27 u: a bare ESC byte is not taken while a turn streams), pressed twice.
    name: 'interrupt', cols: 80, rows: 24, description: 'a slow answer → Stop (Escape, CSI 27 u) → "esc again to interrupt" → Stop again aborts the stream → idle',
    run: async (c) => {
      await c.prompt('tell me a slow story');
      // c.interrupt() presses Stop 2.5 s into the answer; the first press goes 0.5 s before it.
      const second = c.interrupt();
      await sleep(2000);
      c.check('the first "stop" is accepted while busy', c.s.driver.dispatch({ kind: 'click_control', control_id: 'stop' }).ok);
      await second;
    },
    expect: turn,
  },
  { name: 'api-error', cols: 80, rows: 24, description: 'the server answers 400 → the error under the prompt → idle, with the api_error signal', run: async (c) => { await c.prompt('trigger an error', { expectStream: false }); await c.apiError(); }, expect: { sequence: starting, final: { state: 'idle' } } },
  {
    name: 'question', cols: 80, rows: 24, description: 'the question tool asks the person to choose a framework (kind picker, never auto-answered) → 1 (Vitest) → the answer reaches the model → idle',
    run: async (c) => { await c.prompt('ask me which framework'); await askedQuestion(c); await c.turnEnd(); },
    expect: questionTurn,
  },
  {
    name: 'approve-always', cols: 80, rows: 24, description: 'bash asks permission → 2 (Allow always) → "Always allow" asks to confirm → Confirm → the command runs → idle',
    run: async (c) => {
      await c.prompt('please create the file');
      await c.approval(2, 'shell');
      const shown = await c.s.waitForScreen(/Always allow/, 30_000).then(() => true, () => false);
      if (process.env.SPECTERM_LAB_PROBE) process.stderr.write(`--- always allow drawn ---\n${c.s.driver.snapshot()}\n${JSON.stringify(c.s.driver.getCurrentView()?.modal)}\n`);
      c.check('the "Always allow" confirmation after Allow always', shown);
      // Labelled approval until Confirm (the runner logged the Allow always press as 'deny', a quiet point).
      if (shown) c.act('approval_drawn');
      await sleep(1000);
      const m = c.s.driver.getCurrentView()?.modal;
      c.check('"Always allow" title', m?.title === ALWAYS.title, JSON.stringify(m?.title));
      c.check('"Always allow" buttons', JSON.stringify(m?.buttons?.map((b) => b.label)) === JSON.stringify(ALWAYS.buttons), JSON.stringify(m?.buttons));
      c.act('approve');
      const r = c.s.driver.dispatch({ kind: 'click_modal_button', index: 1, label: ALWAYS.buttons[0] });
      c.check('click_modal_button 1 (Confirm) accepted', r.ok, r.reason ?? '');
      await c.turnEnd();
      c.check('the command ran (build/out.txt exists)', fs.existsSync(path.join(c.work, 'build', 'out.txt')));
    },
    expect: { sequence: [...starting, { state: 'busy' }, approvalStep(SHELL_TITLE), { state: 'approval', status: 'approval', modal: { title: 'Always allow', kind: 'approval', buttons: ['Confirm', 'Cancel'] } }, { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  },
  { name: 'question-60x20', cols: 60, rows: 20, description: 'the question tool in a 60×20 terminal (options and descriptions narrower, the hints on one row)', run: async (c) => { await c.prompt('ask me which framework'); await askedQuestion(c); await c.turnEnd(); }, expect: questionTurn },
  { name: 'hello-60x20', cols: 60, rows: 20, description: 'the streamed answer in a narrow 60×20 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'approve-yes-60x20', cols: 60, rows: 20, description: 'the shell permission round trip in a 60×20 terminal (options stacked under the hints)', run: createFile, expect: approvedTurn(SHELL_TITLE) },
  { name: 'hello-160x50', cols: 160, rows: 50, description: 'the streamed answer in a 160×50 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'approve-yes-160x50', cols: 160, rows: 50, description: 'the shell permission round trip in a 160×50 terminal', run: createFile, expect: approvedTurn(SHELL_TITLE) },
  ...promptSessions(),
  listSession(/invalid \[tool=list, error=Model tried to call unavailable tool 'list'/),
];

/**
 * The config OpenCode and its fork Kilo Code share: the Lab provider (OpenAI-compatible, the
 * scripted server), bash/edit permissions on ask, no self-update, no sharing. A session's
 * `variants` become the Lab model's variants (for the `Select variant` dialog).
 * @param {string} serverUrl
 */
export function labConfig(serverUrl, session, logDir) {
  const extra = sessionConfig(session, logDir);
  return {
    ...extra,
    autoupdate: false,
    share: 'disabled',
    model: `lab/${MODEL}`,
    small_model: `lab/${MODEL}`,
    permission: { bash: 'ask', edit: 'ask', ...extra.permission },
    provider: { lab: { npm: '@ai-sdk/openai-compatible', name: 'Lab', options: { baseURL: serverUrl, apiKey: 'lab-dummy-key' }, models: { [MODEL]: { name: 'Lab Model', ...(session?.variants ? { variants: session.variants } : {}) } } } },
  };
}

/** A private HOME with {@link labConfig}. */
function prepare({ home, work, tmp, serverUrl, session }) {
  // A session's own workspace files (skills), written before the CLI starts.
  session?.setup?.(work);
  const dir = path.join(home, '.config', 'opencode');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const config = { $schema: 'https://opencode.ai/config.json', ...labConfig(serverUrl, session, tmp) };
  fs.writeFileSync(path.join(dir, 'opencode.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
  return {
    OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_CLAUDE_CODE: '1',
    // The question tool is on for the TUI client already; the flag keeps it on whatever client name a version reports.
    OPENCODE_ENABLE_QUESTION_TOOL: '1',
  };
}

/** OpenCode streams its session-title request (no tools, a "title generator" system prompt): a side call, not the turn. */
function isSideCall(body) {
  const system = Array.isArray(body.messages) ? body.messages.find((m) => m?.role === 'system') : null;
  return !(Array.isArray(body.tools) && body.tools.length) && /title generator/i.test(JSON.stringify(system?.content ?? ''));
}

const buttonsOk = (labels) => JSON.stringify(labels) === JSON.stringify(PERMISSION_BUTTONS);

/** The OpenCode description for the shared runner (lab/lib/chat-lab.mjs). */
export const OPENCODE = {
  id: 'opencode', cliName: 'OpenCode', pkg: 'opencode-ai', bin: 'opencode', pinnedVersion: PINNED_VERSION,
  scenariosDir: path.join(here, 'scenarios'), models: [MODEL], prepare, isSideCall, sessions: SESSIONS,
  // OpenCode 1.x keeps every conversation in one SQLite database here (opencode.db): --history-to copies it.
  historyTrees: (home) => [{ from: path.join(home, '.local/share/opencode'), as: '.local/share/opencode' }],
  marks: { approval: /⇆ select/, spinner: /esc (?:again to )?interrupt/, picker: /Select model/ },
  approvals: { ...promptApprovals(PROMPT_TITLES), shell: { title: SHELL_TITLE, buttonsOk }, edit: { title: EDIT_TITLE, buttonsOk }, editReadme: { title: EDIT_README_TITLE, buttonsOk } },
  picker: { title: 'Select model', buttons: PICKER_OPTIONS },
  // 1.18.33 shows the error's message under the prompt, without an "Error: 400" prefix (in both recordings made).
  apiErrorShown: /lab server: scripted bad request/,
  // idleMs: OpenCode itself takes 5–15 s (loaded box) from the stream's end to repainting the idle
  // footer; the screen-based idle latency in the report is specterm's own share.
  limits: { startMs: 180_000, requestMs: 150_000, toolCallMs: 150_000, confirmDrawnMs: 90_000, idleMs: 30_000, toolResultMs: 90_000 },
  settleMs: 3000,
};

/** Entry point for lab/run.mjs. */
export function main(args) {
  return runChatLab(OPENCODE, args);
}
