/**
 * The pi conformance lab: `npm run lab -- pi [options]` (options in lab/lib/chat-lab.mjs).
 *
 * Installs a pinned `@mariozechner/pi-coding-agent` outside the repo and runs the REAL pi under
 * specterm (specs/pi/spec.json) against the scripted OpenAI Chat Completions server on loopback,
 * declared as a custom provider in the private HOME's `~/.pi/agent/models.json`. pi has no
 * permission prompts by design ("No permission popups", its README): its tools run at once, so the
 * lab checks that a shell command and a file write run with no approval state, and drives the model
 * selector, an interrupt and an API error.
 *
 * Private everything: a fresh temp dir (0700) per session holds HOME and the workspace; the dummy
 * API key lives only in that HOME's models.json (0600). PI_OFFLINE=1 stops every startup download
 * (fd, ripgrep), update check and install ping.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChatLab } from '../lib/chat-lab.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PINNED_VERSION = '0.73.1';
const MODELS = ['lab-model', 'lab-model-large'];

const starting = [{ state: 'starting' }, { state: 'idle' }];
const turn = { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } };
/** A tool turn: generating from the prompt through the tool run to the answer, never approval. */
const toolTurn = { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle', modal: null }], final: { state: 'idle' } };

/** The model selector opened by the spec's "model" control, then closed with Esc. */
const PICKER_TURN = { sequence: [...starting, { state: 'picker', status: 'approval', modal: { kind: 'picker', buttons: MODELS.map((m) => `${m} [lab]`) } }, { state: 'idle', modal: null }], final: { state: 'idle' } };

const TREE = ['• user: say hello', '• assistant: Hello! I am a scripted lab model. This answer streams in small...'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * Types each string key by key (60 ms apart, as a person does), then waits for `state` whose
 * modal passes `ok`; a check fails if it does not come within 10 s.
 */
async function keys(c, strings, state, ok = () => true) {
  for (const text of strings) {
    // An escape sequence (an arrow key) is one key: split up, its ESC alone would cancel the dialog.
    for (const ch of text.startsWith('\u001b') ? [text] : text) {
      c.s.driver.dispatch({ kind: 'pty_write', data: ch });
      await sleep(60);
    }
    await sleep(400);
  }
  const view = await c.s.waitForState((v) => v.state.id === state && ok(v.modal), 10_000).catch(() => null);
  c.check(`${state} after ${JSON.stringify(strings)}`, view !== null, JSON.stringify(c.s.driver.getCurrentView()?.modal?.buttons?.map((b) => b.label) ?? null));
  await sleep(1000);
}
/** The first page of /settings: each row's label is the setting's name (the value beside it is its state, not the choice). */
const SETTINGS = ['Auto-compact', 'Auto-resize images', 'Block images', 'Skill commands', 'Show hardware cursor', 'Editor padding', 'Autocomplete max items', 'Clear on shrink', 'Terminal progress', 'Steering mode'];
const LOGIN = ['Use a subscription', 'Use an API key'];
const picked = (buttons) => ({ state: 'picker', status: 'approval', modal: { kind: 'picker', title: null, buttons } });
/** A menu opened from idle and closed with Esc; `turn` first when the menu needs a conversation. */
const menuExpect = (buttons, { turn: withTurn = false } = {}) => ({
  sequence: [...starting, ...(withTurn ? [{ state: 'busy', status: 'generating' }, { state: 'idle', modal: null }] : []), picked(buttons), { state: 'idle', modal: null }],
  final: { state: 'idle', modal: null },
});
/** A menu of one conversation turn (the tree of it, a message to fork from). */
const afterTurn = (command, buttons) => async (c) => { await c.prompt('say hello'); await c.turnEnd(); await c.picker({ command, title: null, buttons }); };
/** A /settings submenu: search the settings for `setting`, Enter opens its selector; Esc, Esc back to the editor. */
const submenu = (setting, buttons) => async (c) => {
  const labels = (m) => m?.buttons?.map((b) => b.label) ?? [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  await keys(c, ['/settings'], 'idle');
  c.act('picker_open');
  await keys(c, ['\r'], 'picker');
  await keys(c, [setting], 'picker', (m) => labels(m)[0] === SETTINGS_ROW[setting]);
  await keys(c, ['\r'], 'picker', (m) => same(labels(m), buttons));
  const shown = c.s.driver.getCurrentView()?.modal;
  c.check(`the ${setting} selector buttons`, same(labels(shown), buttons), JSON.stringify(labels(shown)));
  c.check('the selector is kind picker', shown?.kind === 'picker', String(shown?.kind));
  await keys(c, ['\u001b'], 'picker', (m) => labels(m)[0] === SETTINGS_ROW[setting]);
  c.act('picker_close');
  await keys(c, ['\u001b'], 'idle');
};
const SETTINGS_ROW = { theme: 'Theme', thinking: 'Thinking level' };

/**
 * /login → Use an API key → a provider (searched: DeepSeek) → its API-key text field. Typed into, never
 * submitted (the key is not real), then Esc. The field is a prompt waiting for the person: key_input.
 */
const loginApiKey = (name, cols, rows) => ({
    name, cols, rows,
    description: `/login → Use an API key → search "DeepSeek", Enter → "Login to DeepSeek" / "Enter API key:" text field (state key_input: status approval, kind picker, no buttons — a person must type) → type a key (never submitted) → Esc → idle`,
    run: async (c) => {
      const labels = (m) => m?.buttons?.map((b) => b.label) ?? [];
      await keys(c, ['/login'], 'idle');
      c.act('picker_open');
      await keys(c, ['\r'], 'picker', (m) => JSON.stringify(labels(m)) === JSON.stringify(LOGIN));
      await keys(c, ['\u001b[B', '\r'], 'picker', (m) => labels(m)[0] !== LOGIN[0]);
      await keys(c, ['DeepSeek'], 'picker', (m) => labels(m)[0] === 'DeepSeek • unconfigured');
      await keys(c, ['\r'], 'key_input');
      const m = c.s.driver.getCurrentView()?.modal;
      c.check('the API-key field is kind picker', m?.kind === 'picker', String(m?.kind));
      c.check('its title is the dialog\'s heading', m?.title === 'Login to DeepSeek', JSON.stringify(m?.title));
      c.check('no buttons: the answer is typed, not chosen', JSON.stringify(labels(m)) === '[]', JSON.stringify(labels(m)));
      // Typing into the field keeps it a prompt waiting for the person (the editor is not back).
      await keys(c, ['sk-lab-not-a-key'], 'key_input');
      c.check('the field waits: still key_input after 1 s of typing', c.s.driver.getCurrentView()?.state.id === 'key_input');
      c.act('picker_close');
      await keys(c, ['\u001b'], 'idle');
      c.check('nothing was saved: no key for deepseek in auth.json', !/deepseek/i.test(fs.readFileSync(path.join(c.home, '.pi', 'agent', 'auth.json'), 'utf8')));
    },
    expect: {
      sequence: [...starting, picked(LOGIN), { state: 'picker', status: 'approval', modal: { kind: 'picker', title: null, buttons: ['DeepSeek • unconfigured'] } },
        { state: 'key_input', status: 'approval', modal: { kind: 'picker', title: 'Login to DeepSeek', buttons: [] } }, { state: 'idle', modal: null }],
      final: { state: 'idle', modal: null },
    },
  });

const SESSIONS = [
  { name: 'start-idle', cols: 80, rows: 24, description: 'pi starts → idle', run: async () => {}, expect: { sequence: starting, final: { state: 'idle' } } },
  { name: 'hello', cols: 80, rows: 24, description: 'a prompt → the answer streams for ~2 s (generating) → idle', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  {
    name: 'long-answer', cols: 80, rows: 24, description: 'a 30-line answer that scrolls the 24-row screen → generating throughout → idle',
    run: async (c) => { await c.prompt('give me a long answer'); await c.turnEnd(); c.check('the long answer scrolled the screen', !/1\. Alpha line/.test(c.s.driver.snapshot()) && /last line/.test(c.s.driver.snapshot())); },
    expect: turn,
  },
  {
    name: 'shell-unasked', cols: 80, rows: 24, description: 'the bash tool runs a command without asking (pi has no permission prompts) → the answer streams → idle, never approval',
    run: async (c) => { await c.prompt('please create the file'); await c.unaskedTool(); await c.turnEnd(); c.check('the command ran (build/out.txt exists)', fs.existsSync(path.join(c.work, 'build', 'out.txt'))); },
    expect: toolTurn,
  },
  {
    name: 'write-unasked', cols: 80, rows: 24, description: 'the write tool writes a file without asking → idle, never approval',
    run: async (c) => { await c.prompt('write the notes'); await c.unaskedTool(); await c.turnEnd(); c.check('notes.txt was written', fs.existsSync(path.join(c.work, 'notes.txt'))); },
    expect: toolTurn,
  },
  {
    name: 'edit-unasked', cols: 80, rows: 24, description: 'the edit tool changes README.md without asking → idle, never approval (a history fixture: the edit as a diff)',
    run: async (c) => { await c.prompt('edit the readme'); await c.unaskedTool(); await c.turnEnd(); c.check('README.md was edited', /\(edited\)/.test(fs.readFileSync(path.join(c.work, 'README.md'), 'utf8'))); },
    expect: toolTurn,
  },
  {
    name: 'model-picker', cols: 80, rows: 24, description: '/model opens the model selector (kind picker, never auto-answered) → Esc closes it → idle',
    run: async (c) => { await c.picker(); },
    expect: PICKER_TURN,
  },
  { name: 'interrupt', cols: 80, rows: 24, description: 'a slow answer → the spec\'s Stop control (Esc) aborts it → "Operation aborted" → idle', run: async (c) => { await c.prompt('tell me a slow story'); await c.interrupt(); }, expect: turn },
  { name: 'api-error', cols: 80, rows: 24, description: 'the server answers 400 → "Error: 400 …" → idle, with the api_error signal', run: async (c) => { await c.prompt('trigger an error', { expectStream: false }); await c.apiError(); }, expect: { sequence: starting, final: { state: 'idle' }, signals: { seen: ['api_error'], never: ['rate_limited'] } } },
  { name: 'hello-60x20', cols: 60, rows: 20, description: 'the streamed answer in a narrow 60×20 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'shell-unasked-60x20', cols: 60, rows: 20, description: 'the unasked shell tool turn in a 60×20 terminal', run: async (c) => { await c.prompt('please create the file'); await c.unaskedTool(); await c.turnEnd(); }, expect: toolTurn },
  { name: 'numbered-answer', cols: 80, rows: 24, description: 'an answer that is a plain numbered list ("1. Yes, allow once … 3. No, suggest changes (esc)") → generating then idle, never a modal', run: async (c) => { await c.noModalTurn('show me numbered choices', /3\. No, suggest changes \(esc\)/); }, expect: { sequence: [{ state: 'starting' }, { state: 'idle', modal: null }, { state: 'busy', status: 'generating', modal: null }, { state: 'idle', modal: null }], final: { state: 'idle', modal: null } } },
  { name: 'arrow-answer', cols: 80, rows: 24, description: 'an answer whose lines start with pi\'s own cursor glyphs ("→ Use a subscription", "› Use an API key", "(1/2)") → generating then idle, never a modal (the editor is still drawn)', run: async (c) => { await c.noModalTurn('show me arrow choices', /› Use an API key/); }, expect: { sequence: [{ state: 'starting' }, { state: 'idle', modal: null }, { state: 'busy', status: 'generating', modal: null }, { state: 'idle', modal: null }], final: { state: 'idle', modal: null } } },
  { name: 'model-picker-60x20', cols: 60, rows: 20, description: 'the model selector in a narrow 60×20 terminal', run: async (c) => { await c.picker(); }, expect: PICKER_TURN },
  { name: 'hello-200x50', cols: 200, rows: 50, description: 'the streamed answer in a wide 200×50 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'hello-160x50', cols: 160, rows: 50, description: 'the streamed answer in a 160×50 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'model-picker-160x50', cols: 160, rows: 50, description: 'the model selector in a 160×50 terminal', run: async (c) => { await c.picker(); }, expect: PICKER_TURN },
  { name: 'settings', cols: 80, rows: 24, description: '/settings → the settings list (kind picker): each row\'s label is the setting\'s name, not its value; the (1/21) counter is no button → Esc → idle', run: async (c) => { await c.picker({ command: '/settings', title: null, buttons: SETTINGS }); }, expect: menuExpect(SETTINGS) },
  { name: 'settings-60x20', cols: 60, rows: 20, description: 'the settings list in a narrow 60×20 terminal: the same names', run: async (c) => { await c.picker({ command: '/settings', title: null, buttons: SETTINGS }); }, expect: menuExpect(SETTINGS) },
  { name: 'settings-200x50', cols: 200, rows: 50, description: 'the settings list in a wide 200×50 terminal: the same names', run: async (c) => { await c.picker({ command: '/settings', title: null, buttons: SETTINGS }); }, expect: menuExpect(SETTINGS) },
  { name: 'scoped-models', cols: 80, rows: 24, description: '/scoped-models → the model scope selector (kind picker): the two models, not the detail row nor the key-hint row → Esc → idle', run: async (c) => { await c.picker({ command: '/scoped-models', title: null, buttons: MODELS.map((m) => `${m} [lab]`) }); }, expect: menuExpect(MODELS.map((m) => `${m} [lab]`)) },
  {
    name: 'resume', cols: 80, rows: 24, description: 'a turn, /new, then /resume → the session selector lists the earlier session by its first message (kind picker) → Esc → idle',
    run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); await keys(c, ['/new', '\r'], 'idle'); await c.picker({ command: '/resume', title: null, buttons: ['say hello'] }); },
    expect: menuExpect(['say hello'], { turn: true }),
  },
  { name: 'tree', cols: 80, rows: 24, description: 'a turn, then /tree → the session tree selector (kind picker): one row per entry, as shown → Esc → idle', run: afterTurn('/tree', TREE), expect: menuExpect(TREE, { turn: true }) },
  { name: 'fork', cols: 80, rows: 24, description: 'a turn, then /fork → "Fork from Message" (kind picker): the user message, not its "Message 1 of 1" line → Esc → idle', run: afterTurn('/fork', ['say hello']), expect: menuExpect(['say hello'], { turn: true }) },
  { name: 'theme-selector', cols: 80, rows: 24, description: '/settings, search "theme", Enter → the Theme selector (kind picker): dark, light → Esc, Esc → idle', run: submenu('theme', ['dark', 'light']), expect: { sequence: [...starting, picked([SETTINGS_ROW.theme]), picked(['dark', 'light']), picked([SETTINGS_ROW.theme]), { state: 'idle', modal: null }], final: { state: 'idle', modal: null } } },
  { name: 'thinking-selector', cols: 80, rows: 24, description: '/settings, search "thinking", Enter → the Thinking Level selector (kind picker): "off" (the lab model does not reason), not its description → Esc, Esc → idle', run: submenu('thinking', ['off']), expect: { sequence: [...starting, picked(['Thinking level', 'Hide thinking']), picked(['off']), picked(['Thinking level', 'Hide thinking']), { state: 'idle', modal: null }], final: { state: 'idle', modal: null } } },
  { name: 'login', cols: 80, rows: 24, description: '/login → the sign-in method chooser (kind picker, never auto-answered): subscription or API key → Esc → idle', run: async (c) => { await c.picker({ command: '/login', title: null, buttons: LOGIN }); }, expect: menuExpect(LOGIN) },
  loginApiKey('login-apikey', 80, 24),
  loginApiKey('login-apikey-60x20', 60, 20),
  { name: 'login-60x20', cols: 60, rows: 20, description: 'the sign-in method chooser in a narrow 60×20 terminal', run: async (c) => { await c.picker({ command: '/login', title: null, buttons: LOGIN }); }, expect: menuExpect(LOGIN) },

];

/** A private HOME: the scripted server as the only provider and the default model; no startup network. */
function prepare({ home, serverUrl }) {
  const dir = path.join(home, '.pi', 'agent');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const models = {
    providers: {
      lab: {
        baseUrl: serverUrl, api: 'openai-completions', apiKey: 'lab-dummy-key',
        // A plain Chat Completions server: system role, no reasoning_effort.
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: MODELS.map((id) => ({ id, name: id === 'lab-model' ? 'Lab Model' : 'Lab Model Large' })),
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'models.json'), JSON.stringify(models, null, 2), { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ defaultProvider: 'lab', defaultModel: MODELS[0], enableInstallTelemetry: false }, null, 2), { mode: 0o600 });
  return { PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1' };
}

/** The pi description for the shared runner (lab/lib/chat-lab.mjs). */
export const PI = {
  id: 'pi', cliName: 'pi', pkg: '@mariozechner/pi-coding-agent', bin: 'pi', pinnedVersion: PINNED_VERSION,
  scenariosDir: path.join(here, 'scenarios'), models: MODELS, prepare, sessions: SESSIONS,
  // Where pi keeps its conversations (one JSONL file per session, per cwd): --history-to copies it.
  historyTrees: (home) => [{ from: path.join(home, '.pi/agent/sessions'), as: '.pi/agent/sessions' }],
  marks: { spinner: /(?:^|\n) ?[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \S/, picker: /\n→ \S[^\n]*\[lab\]/ },
  approvals: {},
  noApprovals: 'pi asks no permission by design (its tools run at once; the shell-unasked and write-unasked sessions check that)',
  // The selector has no heading: no title.
  picker: { title: null, buttons: MODELS.map((m) => `${m} [lab]`) },
  settleMs: 1500,
};

/** Entry point for lab/run.mjs. */
export function main(args) {
  return runChatLab(PI, args);
}
