/**
 * Qwen Code lab sessions for the prompts the first sessions did not reach (issue 13): plan
 * approval, ask_user_question, /trust, /auth, the extension-install consent and a rate limit.
 * Kept apart from lab.mjs (which merges them into its SESSIONS) so that file stays small.
 *
 * Each session drives the real CLI and checks what specterm reads against what the lab knows is on
 * screen; `expect` is written as <name>.expect.json. `QW_DUMP=1` prints the screen at every modal
 * (to read a new dialog's layout while writing its session).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '../lib/lab-kit.mjs';

const starting = [{ state: 'starting' }, { state: 'idle' }];
/** The scripted server's log events of this session (it writes them to <tmp>/server.log). */
const serverEvents = (c) => {
  try { return fs.readFileSync(path.join(path.dirname(c.home), 'server.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)); } catch { return []; }
};
const dump = (c, what) => { if (process.env.QW_DUMP) process.stderr.write(`--- ${what} ---\n${c.s.driver.snapshot()}\n`); };

/** Types a slash command key by key (as a person does), then Enter. */
export async function typeCommand(c, command) {
  for (const ch of command) {
    c.s.driver.dispatch({ kind: 'pty_write', data: ch });
    await sleep(40);
  }
  await sleep(500);
  // 'picker_open' (a lab action the ground-truth measure knows): the idle before it ends here.
  c.act('picker_open');
  c.s.driver.dispatch({ kind: 'pty_write', data: '\r' });
}

/**
 * Waits for the dialog to be drawn (`shown`, its own text on screen: the lab's ground truth, not
 * specterm's reading), then for the modal state `state`; checks its kind, title and buttons against
 * `want`, checks that nobody answered it for 1.5 s, then answers it with `answer` (a button index,
 * or raw keys). `goesOn`: the answer continues the turn (labelled 'approve'; else 'deny': the CLI
 * comes to rest), so the labels bound the dialog from drawn to answered.
 */
export async function modal(c, { state, kind, title, buttons, shown }, answer, { timeoutMs = 40_000, goesOn = false } = {}) {
  const drawn = await c.s.waitForScreen(shown, timeoutMs).catch(() => null);
  c.check(`the dialog is drawn (${shown})`, drawn !== null);
  if (drawn !== null) c.act('approval_drawn');
  const view = await c.s.waitForState(state, 10_000).catch(() => null);
  c.check(`${state} state`, view !== null, view ? '' : String(c.s.driver.getCurrentView()?.state.id));
  await sleep(1500);
  dump(c, state);
  const m = c.s.driver.getCurrentView()?.modal;
  const labels = m?.buttons?.map((b) => b.label) ?? [];
  c.check(`modal kind is ${kind}`, m?.kind === kind, String(m?.kind));
  c.check('modal title', m?.title === title, JSON.stringify(m?.title));
  c.check('modal buttons exactly as shown', JSON.stringify(labels) === JSON.stringify(buttons), JSON.stringify(labels));
  c.check('not auto-answered (still open after 1.5 s)', c.s.driver.getCurrentView()?.state.id === state);
  c.act(goesOn ? 'approve' : 'deny');
  const r = typeof answer === 'number'
    ? c.s.driver.dispatch({ kind: 'click_modal_button', index: answer, label: labels[answer - 1] })
    : c.s.driver.dispatch({ kind: 'pty_write', data: answer });
  c.check(`answer ${JSON.stringify(answer)} accepted`, r.ok, r.reason ?? '');
  return labels;
}

/** Waits for idle after an answer and lets the screen settle. */
export async function backToIdle(c, what, timeoutMs = 15_000) {
  const back = await c.s.waitForState('idle', timeoutMs).catch(() => null);
  c.check(`idle after ${what}`, back !== null, back ? '' : String(c.s.driver.getCurrentView()?.state.id));
  await sleep(1500);
}

export const pickerSeq = (state, title, buttons) => ({ state, status: 'approval', modal: { title, kind: 'picker', ...(buttons ? { buttons } : {}) } });

// ---- plan approval: exit_plan_mode in the plan approval mode --------------------------------
const PLAN_TITLE = 'Would you like to proceed?';
const PLAN_BUTTONS = ['Yes, restore previous mode (default)', 'Yes, and auto-accept edits', 'Yes, and manually approve edits', 'No, keep planning (esc)'];

// ---- ask_user_question: two questions, then the submit tab ---------------------------------
const Q1 = 'Which test framework should we use?';
const Q1_BUTTONS = ['Vitest', 'Jest', 'Type something...'];
const Q2 = 'Should the tests collect coverage?';
const Q2_BUTTONS = ['Yes, with v8', 'No', 'Type something...'];
const SUBMIT_TITLE = 'Ready to submit your answers?';
const SUBMIT_BUTTONS = ['Submit answers', 'Cancel'];

const questionSessions = (cols, rows, suffix = '') => [{
  name: `ask-question${suffix}`, cols, rows,
  description: 'the model calls ask_user_question with two questions → Qwen asks each (kind picker: a question, never auto-answered; the description under each option is not part of its label) → 1 (Vitest), 1 (Yes, with v8) → "Ready to submit your answers?" → 1 (Submit answers) → the answers reach the model → idle',
  run: async (c) => {
    await c.prompt('ask me a question');
    await modal(c, { state: 'question', kind: 'picker', title: Q1, buttons: Q1_BUTTONS, shown: /Which test framework should we use\?/ }, 1, { goesOn: true });
    const next = await c.s.waitForState((v) => v.modal?.title === Q2, 10_000).catch(() => null);
    c.check('the second question follows the first answer', next !== null);
    await modal(c, { state: 'question', kind: 'picker', title: Q2, buttons: Q2_BUTTONS, shown: /Should the tests collect coverage\?/ }, 1, { goesOn: true });
    await modal(c, { state: 'question_submit', kind: 'picker', title: SUBMIT_TITLE, buttons: SUBMIT_BUTTONS, shown: /Ready to submit your answers\?/ }, 1, { timeoutMs: 10_000, goesOn: true });
    await c.turnEnd();
    c.check('the model answered after the submitted answers', /Noted, thank you/.test(c.s.driver.snapshot()));
  },
  expect: { sequence: [...starting, { state: 'busy' }, pickerSeq('question', Q1, Q1_BUTTONS), pickerSeq('question', Q2, Q2_BUTTONS), pickerSeq('question_submit', SUBMIT_TITLE, SUBMIT_BUTTONS), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
}];

// ---- /trust, /auth, the extension consent -------------------------------------------------
const TRUST_TITLE = 'Modify Trust Level';
const TRUST_BUTTONS = ['Trust this folder', 'Trust parent folder', "Don't trust"];
const AUTH_TITLE = 'Select Authentication Method';
const AUTH_BUTTONS = ['Alibaba ModelStudio', 'Third-party Providers', 'OAuth', 'Custom Provider'];
const PERM_TITLE = 'Permissions';
const PERM_BUTTONS = ['Add a new rule…', 'Bash(ls *)'];
const DELETE_TITLE = 'Delete allow rule?';
const DELETE_BUTTONS = ['confirm', 'cancel'];
const REMOVE_TITLE = 'Remove directory?';
const CONSENT_TITLE = 'Do you want to continue?';
const EXT_ACTIONS = ['View Details', 'Disable Extension', 'Uninstall Extension'];
const EXT_SCOPES = ['User (global)', 'Workspace (project-specific)'];
const CONSENT_BUTTONS = ['Yes', 'No'];

const sessionsFor = (cols, rows, suffix = '') => [
  {
    name: `plan-approve${suffix}`, cols, rows, approvalMode: 'plan',
    description: 'the plan approval mode (tools.approvalMode "plan"): the model calls exit_plan_mode → Qwen asks to approve the plan (kind approval: a consent to start editing) → 3 (Yes, and manually approve edits) → the result reaches the model → idle',
    run: async (c) => {
      await c.prompt('make a plan');
      await c.approval(3, 'plan');
      await c.turnEnd();
    },
    expect: { sequence: [...starting, { state: 'busy' }, { state: 'approval', status: 'approval', modal: { title: PLAN_TITLE, kind: 'approval', buttons: PLAN_BUTTONS } }, { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  },
];

export const PROMPT_SESSIONS = [
  ...sessionsFor(80, 24),
  {
    name: 'plan-keep-planning', cols: 80, rows: 24, approvalMode: 'plan',
    description: 'exit_plan_mode in plan mode → "No, keep planning (esc)" → the turn ends, the plan not approved → idle',
    run: async (c) => {
      await c.prompt('make a plan');
      await c.approval('deny', 'plan');
      await c.deniedEnd();
    },
    expect: { sequence: [...starting, { state: 'busy' }, { state: 'approval', status: 'approval', modal: { title: PLAN_TITLE, kind: 'approval', buttons: PLAN_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  ...questionSessions(80, 24),
  // The question dialog (labels with descriptions under them) narrow and wide too.
  ...questionSessions(60, 20, '-60x20'),
  ...questionSessions(200, 50, '-200x50'),
  {
    name: 'trust-settings', cols: 80, rows: 24, folderTrust: true,
    description: '/trust opens the folder trust settings ("Modify Trust Level": Trust this folder / Trust parent folder / Don\'t trust; kind confirm — a trust change lets the folder\'s configuration run code, so no auto-approve policy may answer it) → Esc closes it unchanged → idle',
    run: async (c) => {
      await typeCommand(c, '/trust');
      await modal(c, { state: 'trust_settings', kind: 'confirm', title: TRUST_TITLE, buttons: TRUST_BUTTONS, shown: /Modify Trust Level[\s\S]*Don't trust/ }, '\u001b', { timeoutMs: 15_000 });
      await backToIdle(c, 'Esc closed the trust settings');
    },
    expect: { sequence: [...starting, { state: 'trust_settings', status: 'approval', modal: { title: TRUST_TITLE, kind: 'confirm', buttons: TRUST_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'auth-picker', cols: 80, rows: 24,
    description: '/auth opens "Select Authentication Method" (a square box, unnumbered options each with a description under it; kind picker, never auto-answered) → Esc closes it → idle',
    run: async (c) => {
      await typeCommand(c, '/auth');
      await modal(c, { state: 'menu', kind: 'picker', title: AUTH_TITLE, buttons: AUTH_BUTTONS, shown: /Select Authentication Method[\s\S]*Custom Provider/ }, '\u001b', { timeoutMs: 15_000 });
      await backToIdle(c, 'Esc closed the auth menu');
    },
    expect: { sequence: [...starting, pickerSeq('menu', AUTH_TITLE, AUTH_BUTTONS), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'extension-consent', cols: 80, rows: 24, extension: true,
    description: '/extensions install <a local extension dir> → "Installing extension "lab-ext" … Do you want to continue?" (kind confirm: a person installs code that runs) → 2 (No) → nothing installed → idle',
    run: async (c) => {
      await typeCommand(c, `/extensions install ${path.join(path.dirname(c.work), 'lab-ext')}`);
      await modal(c, { state: 'extension_consent', kind: 'confirm', title: CONSENT_TITLE, buttons: CONSENT_BUTTONS, shown: /Do you want to continue\?[\s\S]*2\. No/ }, 2, { timeoutMs: 30_000 });
      await backToIdle(c, 'No');
      c.check('the extension was not installed', !fs.existsSync(path.join(c.home, '.qwen', 'extensions', 'lab-ext')));
    },
    expect: { sequence: [...starting, { state: 'extension_consent', status: 'approval', modal: { title: CONSENT_TITLE, kind: 'confirm', buttons: CONSENT_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'permissions-delete', cols: 80, rows: 24, permissions: { allow: ['Bash(ls *)'] },
    description: '/permissions lists the allow rules (an unboxed numbered list over a navigation hint; kind picker) → 2 (the rule) → "Delete allow rule?" (a box with no options over "Enter to confirm · Esc to cancel"; kind confirm: it changes what the agent may do without asking) → cancel (Esc) → the list → Esc → idle, the rule kept',
    run: async (c) => {
      await typeCommand(c, '/permissions');
      await modal(c, { state: 'list_menu', kind: 'picker', title: PERM_TITLE, buttons: PERM_BUTTONS, shown: /Add a new rule…[\s\S]*Esc to cancel/ }, 2, { timeoutMs: 15_000, goesOn: true });
      await modal(c, { state: 'box_confirm', kind: 'confirm', title: DELETE_TITLE, buttons: DELETE_BUTTONS, shown: /Delete allow rule\?[\s\S]*Enter to confirm · Esc to cancel/ }, 2, { timeoutMs: 10_000, goesOn: true });
      await modal(c, { state: 'list_menu', kind: 'picker', title: PERM_TITLE, buttons: PERM_BUTTONS, shown: /Add a new rule…[\s\S]*Type to search · Esc to cancel/ }, '\u001b', { timeoutMs: 10_000 });
      await backToIdle(c, 'Esc closed /permissions');
      const settings = JSON.parse(fs.readFileSync(path.join(c.home, '.qwen', 'settings.json'), 'utf8'));
      c.check('the rule was kept (cancel deleted nothing)', JSON.stringify(settings.permissions?.allow) === JSON.stringify(['Bash(ls *)']), JSON.stringify(settings.permissions));
    },
    expect: { sequence: [...starting, pickerSeq('list_menu', 'Permissions', ['Add a new rule…', 'Bash(ls *)']), { state: 'box_confirm', status: 'approval', modal: { title: 'Delete allow rule?', kind: 'confirm', buttons: ['confirm', 'cancel'] } }, pickerSeq('list_menu', 'Permissions', ['Add a new rule…', 'Bash(ls *)']), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'remove-directory', cols: 80, rows: 24, extraDir: true,
    description: '/permissions → Workspace → Add directory… → a second folder → select it → "Remove directory?" (a box with no options over "Enter to confirm · Esc to cancel"; kind confirm: it changes where the agent may read and edit) → cancel (Esc) → Esc → idle',
    run: async (c) => {
      const key = async (data, ms = 700) => { c.s.driver.dispatch({ kind: 'pty_write', data }); await sleep(ms); };
      await typeCommand(c, '/permissions');
      await sleep(2500);
      await key('\u001b[D', 1200); dump(c, 'ws tab');
      await key('\r', 1200); dump(c, 'ws add');
      for (const ch of path.join(path.dirname(c.work), 'extra')) await key(ch, 30);
      await sleep(1500);
      // Enter adds the path, unless a completion is offered under the input: then it takes that
      // first (the path unchanged) and the next Enter adds. Press until the input is gone.
      for (let i = 0; i < 3 && /│ > \/[^\n]*extra/.test(c.s.driver.snapshot()); i++) await key('\r', 1500);
      dump(c, 'ws added');
      c.check('the folder was added to the workspace list', /\d\. [^\n]*lab\/extra/.test(c.s.driver.snapshot()));
      await key('\u001b[B'); dump(c, 'ws down');
      await key('\r', 300);
      await modal(c, { state: 'box_confirm', kind: 'confirm', title: REMOVE_TITLE, buttons: DELETE_BUTTONS, shown: /Remove directory\?[\s\S]*Enter to confirm · Esc to cancel/ }, 2, { timeoutMs: 10_000, goesOn: true });
      await sleep(1500); dump(c, 'ws after cancel');
      await key('\u001b', 300);
      await backToIdle(c, 'Esc closed /permissions');
    },
    expect: { sequence: [...starting, { state: 'box_confirm', status: 'approval', modal: { title: 'Remove directory?', kind: 'confirm', buttons: ['confirm', 'cancel'] } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'extension-scope', cols: 80, rows: 24, extension: true,
    description: '/extensions install <dir> → Yes → installed; /extensions → "Manage Extensions" (a square box over a "↑↓ to navigate" hint: a menu, kind picker; its one "●" row is not a button) → Enter → the extension\'s actions (a square box of contiguous options over a "↑↓ to navigate" hint; kind picker) → 2 (Disable Extension) → "Disable "lab-ext" - Select Scope" (kind picker) → Esc, Esc, Esc → idle, the extension still enabled',
    run: async (c) => {
      const key = async (data, ms = 1200) => { c.s.driver.dispatch({ kind: 'pty_write', data }); await sleep(ms); };
      await typeCommand(c, `/extensions install ${path.join(path.dirname(c.work), 'lab-ext')}`);
      await modal(c, { state: 'extension_consent', kind: 'confirm', title: CONSENT_TITLE, buttons: CONSENT_BUTTONS, shown: /Do you want to continue\?[\s\S]*2\. No/ }, 1, { timeoutMs: 30_000, goesOn: true });
      const done = await c.s.waitForScreen(/Extension "lab-ext" installed successfully/, 20_000).catch(() => null);
      c.check('the extension was installed', done !== null);
      await backToIdle(c, 'the install');
      await typeCommand(c, '/extensions');
      const list = await c.s.waitForScreen(/Manage Extensions[\s\S]*lab-ext v1\.0\.0[\s\S]*Esc to close/, 15_000).catch(() => null);
      c.check('Manage Extensions is drawn', list !== null);
      const listState = await c.s.waitForState('menu_compact', 5000).catch(() => null);
      c.check('Manage Extensions reads as a menu (status approval), not idle', listState?.state.status === 'approval', String(c.s.driver.getCurrentView()?.state.id));
      await sleep(1000);
      await key('\r', 300);
      await modal(c, { state: 'menu_compact', kind: 'picker', title: 'lab-ext', buttons: EXT_ACTIONS, shown: /│ . View Details[\s\S]*Uninstall Extension/ }, 2, { timeoutMs: 15_000, goesOn: true });
      await modal(c, { state: 'menu_compact', kind: 'picker', title: 'Disable Extension', buttons: EXT_SCOPES, shown: /Select Scope[\s\S]*Workspace \(project-specific\)/ }, '\u001b', { timeoutMs: 10_000 });
      await sleep(1200); dump(c, 'after scope esc');
      for (let i = 0; i < 3 && !/─{20,}\n> /.test(c.s.driver.snapshot()); i++) await key('\u001b', 1200);
      await backToIdle(c, 'Esc closed /extensions');
      c.check('the extension is still enabled (nothing chosen)', !/disabled/i.test(fs.existsSync(path.join(c.home, '.qwen', 'extensions', 'extension-enablement.json')) ? fs.readFileSync(path.join(c.home, '.qwen', 'extensions', 'extension-enablement.json'), 'utf8') : ''));
    },
    expect: { sequence: [...starting, { state: 'extension_consent', status: 'approval', modal: { title: CONSENT_TITLE, kind: 'confirm', buttons: CONSENT_BUTTONS } }, { state: 'idle', modal: null }, { state: 'menu_compact', status: 'approval' }, pickerSeq('menu_compact', 'lab-ext', EXT_ACTIONS), pickerSeq('menu_compact', 'Disable Extension', EXT_SCOPES), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'rate-limit', cols: 80, rows: 24, maxRetries: 0,
    description: 'the server answers every request with 429 → Qwen retries it 7 times over ~75 s (generating: its spinner up, nothing else shown) → gives up and shows the error → idle, with the rate_limited signal',
    run: async (c) => {
      await c.prompt('hit the rate limit', { expectStream: false });
      await sleep(2000);
      c.check('generating while the CLI retries', c.s.driver.getCurrentView()?.state.status === 'generating', String(c.s.driver.getCurrentView()?.state.status));
      // Watch the status until idle: it must stay generating through every retry.
      const seen = new Set();
      let idleAt = null;
      for (const until = Date.now() + 180_000; Date.now() < until && idleAt === null; await sleep(100)) {
        const st = c.s.driver.getCurrentView()?.state.status;
        if (st === 'idle') idleAt = Date.now(); else seen.add(st);
      }
      c.check('idle once the CLI gave up', idleAt !== null);
      c.check('generating, nothing else, while it retried', seen.size === 1 && seen.has('generating'), JSON.stringify([...seen]));
      await sleep(2000);
      dump(c, 'rate-limit end');
      // The server's own log (in the session's temp dir): every 429 it sent, with its time.
      const errors = serverEvents(c).filter((e) => e.event === 'api_error');
      c.check('the CLI retried the 429', errors.length >= 2, `${errors.length} request(s)`);
      c.check('idle only after the last 429', idleAt !== null && errors.length > 0 && idleAt >= errors[errors.length - 1].t);
      c.check('the error is on screen', /429/.test(c.s.driver.snapshot()), c.s.driver.snapshot().split('\n').filter((l) => /429|rate/i.test(l)).join(' | '));
      const signal = c.s.events.find((e) => e.event.kind === 'signal_detected' && e.event.id === 'rate_limited');
      c.check('the rate_limited signal rule fired', signal !== undefined);
    },
    expect: { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } },
  },
];

/** The approvals the sessions above press through `c.approval` (merged into the lab's). */
export const PROMPT_APPROVALS = {
  plan: { title: PLAN_TITLE, buttonsOk: (labels) => JSON.stringify(labels) === JSON.stringify(PLAN_BUTTONS) },
};

/** Settings and files a session above needs in its private HOME (called by lab.mjs's prepare). */
export function preparePromptSession({ settings, session, work }) {
  // The rate-limit session: model.generationConfig.maxRetries 0 turns off the OpenAI client's retries and
  // Qwen's stream-level rate-limit retries (10, the first after 60 s, doubling: a 429 would spin for
  // half an hour); its request retry (7 attempts, 1.5 s doubling, ~75 s; it ignores Retry-After) stays.
  if (Number.isInteger(session?.maxRetries)) settings.model = { ...settings.model, generationConfig: { maxRetries: session.maxRetries } };
  if (session?.permissions) settings.permissions = session.permissions;
  // A second folder beside the workspace, for /permissions' Workspace tab to add (and offer to remove).
  if (session?.extraDir) fs.mkdirSync(path.join(path.dirname(work), 'extra'), { recursive: true, mode: 0o700 });
  if (session?.approvalMode) settings.tools = { ...settings.tools, approvalMode: session.approvalMode };
  if (session?.extension) {
    // A tiny local extension: a manifest and a context file, nothing that runs.
    const dir = path.join(path.dirname(work), 'lab-ext');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'qwen-extension.json'), JSON.stringify({ name: 'lab-ext', version: '1.0.0', contextFileName: 'LAB.md' }, null, 2));
    fs.writeFileSync(path.join(dir, 'LAB.md'), '# lab extension context\n');
  }
}
