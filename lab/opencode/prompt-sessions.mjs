/**
 * The OpenCode lab's sessions for the prompts beyond bash/edit (issue 13 item 1): permissions for
 * web fetch, read, an MCP tool and a subagent's tool, the `/sessions`, `/agents`, `/themes` dialogs,
 * the command palette, a rate limit and an overload the CLI retries through, and an answer that
 * only talks about rate limits. Kept apart from lab/opencode/lab.mjs so that file stays small;
 * lab/kilocode reuses them with Kilo's titles.
 *
 * A session may carry `permission` (merged into the config's `permission`) and `mcp: true` (the
 * lab's stdio MCP server, lab/lib/mcp-stdio-server.mjs, configured as `lab-tools`): OpenCode
 * allows read, webfetch, task and MCP tools by default, so their prompts exist only where a user
 * asks for them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from '../lib/lab-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const MCP_SERVER = path.join(here, '..', 'lib', 'mcp-stdio-server.mjs');
export const PERMISSION_BUTTONS = ['Allow once', 'Allow always', 'Reject'];
const buttonsOk = (labels) => JSON.stringify(labels) === JSON.stringify(PERMISSION_BUTTONS);

/** Titles of the permission blocks these sessions provoke (the line under `△`, its icon dropped). */
export const PROMPT_TITLES = {
  webfetch: 'WebFetch https://example.com/docs',
  read: 'Read README.md',
  glob: 'Glob "*.md"',
  grep: 'Grep "lab"',
  external: 'Access external directory ~',
  mcp: 'Call tool lab-tools_deploy_preview',
  task: 'General Task',
  shell: 'Shell command',
  repeated: 'Continue after repeated failures',
};
export const promptApprovals = (titles) => Object.fromEntries(Object.entries(titles).map(([k, title]) => [k, { title, buttonsOk }]));

/** The config a session adds to the lab's: its own top-level settings, its permissions on ask, the MCP server. */
export function sessionConfig(session, logDir) {
  const out = { ...session?.config };
  if (session?.permission) out.permission = session.permission;
  if (session?.mcp) {
    out.mcp = { 'lab-tools': { type: 'local', command: [process.execPath, MCP_SERVER], enabled: true, environment: { LAB_MCP_LOG: path.join(logDir, 'mcp.log') } } };
  }
  return out;
}

const pickerButtons = (labels) => (labels ?? []).map((label, i) => ({ index: i + 1, label }));
const starting = [{ state: 'starting' }, { state: 'idle' }];
const approvalStep = (title) => ({ state: 'approval', status: 'approval', modal: { title, kind: 'approval', buttons: PERMISSION_BUTTONS } });
const deniedTurn = (title) => ({ sequence: [...starting, { state: 'busy' }, approvalStep(title), { state: 'idle', modal: null }], final: { state: 'idle' } });
const turn = { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } };
/** The feedback block a subagent's Reject opens: kind confirm (it asks for text; never auto-answered). */
export const FEEDBACK_STEP = { state: 'reject_feedback', status: 'approval', modal: { title: 'Reject permission', kind: 'confirm', buttons: ['confirm', 'cancel'] } };

const probe = (c, what) => { if (process.env.SPECTERM_LAB_PROBE) process.stderr.write(`--- ${what} ---\n${c.s.driver.snapshot()}\n${JSON.stringify(c.s.driver.getCurrentView()?.modal)}\n`); };

/** Presses Enter on the `△ Reject permission` feedback block (no text): the turn ends as a plain Reject does. */
export async function confirmFeedback(c) {
  const shown = await c.s.waitForScreen(/Reject permission/, 30_000).then(() => true, () => false);
  c.check('the "Reject permission" feedback block after Reject', shown);
  if (!shown) return;
  await sleep(600);
  probe(c, 'feedback');
  const m = c.s.driver.getCurrentView()?.modal;
  c.check('feedback block: state reject_feedback, kind confirm', c.s.driver.getCurrentView()?.state.id === 'reject_feedback' && m?.kind === 'confirm', `${c.s.driver.getCurrentView()?.state.id} ${m?.kind}`);
  c.check('feedback block title and buttons', m?.title === FEEDBACK_STEP.modal.title && JSON.stringify(m?.buttons?.map((b) => b.label)) === JSON.stringify(FEEDBACK_STEP.modal.buttons), JSON.stringify(m));
  await sleep(1200);
  c.check('the feedback block is not auto-answered (still open after 1.2 s)', c.s.driver.getCurrentView()?.state.id === 'reject_feedback');
  c.act('deny');
  const r = c.s.driver.dispatch({ kind: 'pty_write', data: '\r' });
  c.check('Enter on "Reject permission" accepted', r.ok, r.reason ?? '');
}

/**
 * Allow once on the task permission without the runner's wait for the tool result: the task's
 * result reaches the server only after the subagent's own turn (and its permission) is over.
 */
async function allowTask(c, title) {
  const view = await c.s.waitForState('approval', 150_000).catch(() => null);
  c.check('approval state while the task call awaits permission', view !== null);
  if (!view) return;
  await sleep(400);
  const m = c.s.driver.getCurrentView()?.modal;
  c.check('task approval title', m?.title === title, JSON.stringify(m?.title));
  c.check('task approval buttons', buttonsOk(m?.buttons?.map((b) => b.label) ?? []), JSON.stringify(m?.buttons));
  c.act('approve');
  const r = c.s.driver.dispatch({ kind: 'click_modal_button', index: 1, label: PERMISSION_BUTTONS[0] });
  c.check('click_modal_button 1 (Allow once) accepted', r.ok, r.reason ?? '');
}

/** A retried error: the retry line on screen, the signal fired, then the reply streams and the turn ends idle. */
const retried = (prompt, shown, signal) => async (c) => {
  await c.prompt(prompt, { expectStream: false });
  // The message wraps (the CLI prints the error body after it, cut with '…') onto the suffix's row.
  const drawn = await c.s.waitForScreen(/\[retrying (?:in \S+ )?attempt #\d+\]/, 60_000).then(() => shown.test(c.s.driver.snapshot()), () => false);
  probe(c, `${signal} shown`);
  c.check(`the retry line on screen (${shown})`, drawn);
  await sleep(500);
  const view = c.s.driver.getCurrentView();
  c.check('generating while the CLI waits to retry (the turn goes on; nothing for the person to answer)', view?.state.status === 'generating' && !view?.modal, `${view?.state.id} ${JSON.stringify(view?.modal)}`);
  c.check(`the ${signal} signal fired`, c.s.events.some((e) => e.event.kind === 'signal_detected' && e.event.id === signal));
  await c.turnEnd();
};

/**
 * A dialog opened by a typed command (or a key chord: `keys`), checked by the runner's picker():
 * state menu (kind picker), title and buttons, never auto-answered, Esc back to idle. `buttons:
 * null`: the spec's buttons are known wrong for this dialog (a group header read as an option, see
 * specs/opencode/README.md), so the expectation states the title and kind only.
 */
const dialog = (name, description, menu, before, size = { cols: 80, rows: 24 }) => ({
  name, ...size, description,
  run: async (c) => {
    await before?.(c);
    await c.picker({ state: 'menu', ...menu });
  },
  // A list of states: the expectation names none (status, kind, title and buttons still checked).
  expect: { sequence: [...starting, ...(before ? [{ state: 'busy' }, { state: 'idle' }] : []), { ...(Array.isArray(menu.state) ? {} : { state: menu.state ?? 'menu' }), status: 'approval', modal: { title: menu.title, kind: 'picker', ...(menu.buttons ? { buttons: pickerButtons(menu.buttons) } : {}) } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
});

/** Two answered turns: a session with messages for /timeline and /fork to list. */
const twoTurns = async (c) => {
  await c.prompt('say hello');
  await c.turnEnd();
  await c.prompt('please explain rate limits');
  await c.turnEnd();
};

/**
 * The dialogs as the spec reads them at 80×24: `title`, `buttons` (null: not known before the run,
 * so not expected — see the dialog() doc) and `state` (default menu). Group headings (`Today`,
 * `Suggested`, `System`) are not options; an agent's label is its name without the `native` tag.
 */
const OPENCODE_MENUS = {
  sessions: { title: 'Sessions', buttons: ['Lab session'] },
  agents: { title: 'Select agent', buttons: ['build', 'plan'] },
  themes: { title: 'Themes', buttons: ['nightowl', 'nord', 'one-dark', 'opencode', 'orng', 'osaka-jade'] },
  themes60: { title: 'Themes', buttons: ['nord', 'one-dark', 'opencode', 'orng'] },
  commands: { title: 'Commands', buttons: ['Switch model', 'Hide tips', 'Plugins'] },
  // MCPs and Connect: buttons known wrong (see specs/opencode/README.md): the MCPs dialog's action
  // hint row ('toggle space') is read as an option and an option's muted status or description
  // ('connected', 'Low cost subscription for everyone') is joined to its name.
  mcps: { title: 'MCPs', buttons: null },
  timeline: { title: 'Timeline', buttons: ['please explain rate limits', 'say hello'] },
  fork: { title: 'Fork session', buttons: ['Full session', 'please explain rate limits', 'say hello'] },
  connect: { title: 'Connect a provider', buttons: null },
  variants: { title: 'Select variant', buttons: ['Default', 'high', 'low'] },
  skills: { title: 'Skills', buttons: null },
};

/** Two skills in the workspace (`.opencode/skills/<name>/SKILL.md`, Kilo: `.kilo/skills`), for the Skills dialog. */
const writeSkills = (dir) => (work) => {
  for (const [name, description] of [['lab-notes', 'Keep lab notes tidy'], ['release-check', 'Check a release before tagging']]) {
    const d = path.join(work, dir, 'skills', name);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}.\n`);
  }
};

/**
 * The sessions; `o` adapts them to a fork: `titles` (PROMPT_TITLES by default), `feedbackOnReject`
 * (every Reject opens the feedback block: Kilo), `menus` (the dialogs' titles and buttons as
 * drawn), `cliName`.
 */
export function promptSessions(o = {}) {
  const t = { ...PROMPT_TITLES, ...o.titles };
  const name = o.cliName ?? 'OpenCode';
  const reject = o.feedbackOnReject ? async (c) => { await confirmFeedback(c); } : null;
  const withFeedback = (exp) => (o.feedbackOnReject ? { ...exp, sequence: exp.sequence.flatMap((s) => (s.state === 'idle' && s.modal === null ? [FEEDBACK_STEP, s] : [s])) } : exp);
  const deny = (prompt, kind, after) => async (c) => {
    await c.prompt(prompt);
    probe(c, `${kind} asked`);
    await c.approval(3, kind);
    if (reject) await reject(c);
    await c.deniedEnd();
    after?.(c);
  };
  const menus = { ...OPENCODE_MENUS, ...o.menus };
  /**
   * Kilo (every Reject asks for feedback): the feedback block's `cancel` button, pressed through
   * specterm, goes back to the permission; then Reject and Enter end the turn.
   */
  const rejectCancel = {
    name: 'reject-cancel', cols: 80, rows: 24,
    description: `bash asks permission → 3 (Reject) → "Reject permission" (kind confirm) → its cancel button (Esc) → the permission again → 3 → Enter → idle, nothing runs`,
    run: async (c) => {
      await c.prompt('please create the file');
      await c.approval(3, 'shell');
      const fb = await c.s.waitForState('reject_feedback', 30_000).catch(() => null);
      c.check('reject_feedback after Reject', fb !== null);
      await sleep(800);
      const m = c.s.driver.getCurrentView()?.modal;
      const cancel = (m?.buttons ?? []).findIndex((b) => b.label === 'cancel') + 1;
      c.check('the feedback block has a cancel button', cancel > 0, JSON.stringify(m?.buttons));
      c.act('cancel');
      const r = c.s.driver.dispatch({ kind: 'click_modal_button', index: cancel, label: 'cancel' });
      c.check('click_modal_button cancel accepted', r.ok, r.reason ?? '');
      const back = await c.s.waitForState('approval', 10_000).catch(() => null);
      probe(c, 'after cancel');
      c.check('cancel went back to the permission (approval)', back !== null, String(c.s.driver.getCurrentView()?.state.id));
      if (!back) return;
      await sleep(800);
      c.act('deny');
      const again = c.s.driver.dispatch({ kind: 'click_modal_button', index: 3, label: 'Reject' });
      c.check('Reject again accepted', again.ok, again.reason ?? '');
      await confirmFeedback(c);
      await c.deniedEnd();
      c.check('the command did not run', !fs.existsSync(path.join(c.work, 'build')));
    },
    expect: { sequence: [...starting, { state: 'busy' }, approvalStep(t.shell), FEEDBACK_STEP, approvalStep(t.shell), FEEDBACK_STEP, { state: 'idle', modal: null }], final: { state: 'idle' } },
  };
  return [
    ...(o.feedbackOnReject ? [rejectCancel] : []),
    {
      name: 'webfetch-no', cols: 80, rows: 24, permission: { webfetch: 'ask' },
      description: `webfetch asks permission (permission.webfetch "ask") → 3 (Reject) → nothing fetched → idle`,
      run: deny('please fetch the docs', 'webfetch'), expect: withFeedback(deniedTurn(t.webfetch)),
    },
    {
      name: 'read-no', cols: 80, rows: 24, permission: { read: 'ask' },
      description: `read asks permission (permission.read "ask") → 3 (Reject) → nothing read → idle`,
      run: deny('please read the readme', 'read'), expect: withFeedback(deniedTurn(t.read)),
    },
    {
      name: 'glob-no', cols: 80, rows: 24, permission: { glob: 'ask' },
      description: `glob asks permission (permission.glob "ask") → 3 (Reject) → idle`,
      run: deny('please find the markdown files', 'glob'), expect: withFeedback(deniedTurn(t.glob)),
    },
    {
      name: 'grep-no', cols: 80, rows: 24, permission: { grep: 'ask' },
      description: `grep asks permission (permission.grep "ask") → 3 (Reject) → idle`,
      run: deny('please search the files for lab', 'grep'), expect: withFeedback(deniedTurn(t.grep)),
    },
    {
      // The private HOME is outside the workspace and shown as `~`: a fixed title, whatever the temp dir.
      name: 'external-dir-no', cols: 80, rows: 24,
      description: `read of a file in the private HOME (outside the workspace) → "Access external directory ~" (external_directory asks by default) → 3 (Reject) → idle`,
      run: deny('please read the note at home', 'external'), expect: withFeedback(deniedTurn(t.external)),
    },
    {
      name: 'mcp-no', cols: 80, rows: 24, mcp: true, permission: { 'lab-tools_*': 'ask' },
      description: `an MCP tool (the lab's stdio server, lab-tools_deploy_preview) asks permission → 3 (Reject) → the tool is not called → idle`,
      run: deny('please deploy the preview', 'mcp', (c) => {
        const log = path.join(path.dirname(c.home), 'mcp.log');
        const calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('tools/call')) : [];
        c.check('the MCP tool was not called', calls.length === 0, calls.join('\n'));
      }),
      expect: withFeedback(deniedTurn(t.mcp)),
    },
    {
      name: 'subagent-reject', cols: 80, rows: 24, permission: { task: 'ask' },
      description: `a task call asks permission (permission.task "ask") → 1 → the subagent's bash asks → 3 (Reject) → "Reject permission / Tell ${name} what to do differently" (kind confirm) → Enter → idle, nothing runs`,
      run: async (c) => {
        await c.prompt('please hand the file to a subagent');
        probe(c, 'task asked');
        await allowTask(c, t.task);
        await c.approval(3, 'shell');
        await confirmFeedback(c);
        await c.turnEnd();
        c.check('the command did not run', !fs.existsSync(path.join(c.work, 'build')));
      },
      expect: { sequence: [...starting, { state: 'busy' }, approvalStep(t.task), { state: 'busy', modal: null }, approvalStep(t.shell), FEEDBACK_STEP, { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
    },
    {
      // The doom-loop check: the third identical call (same tool, same input) in one assistant
      // message asks `doom_loop` (ask by default); the server streams the three calls in one reply.
      name: 'repeated-failures-no', cols: 80, rows: 24,
      description: `three identical read calls of a missing file in one message → "⟳ Continue after repeated failures" (doom_loop asks by default) → 3 (Reject) → idle`,
      run: deny('please keep reading the missing file', 'repeated'), expect: withFeedback(deniedTurn(t.repeated)),
    },
    dialog('sessions', `a turn, then /sessions lists the sessions (the group heading "Today" is not an option) (state ${[menus.sessions.state ?? 'menu'].flat().join(' or ')}, kind picker, never auto-answered) → Esc → idle`,
      { command: '/sessions', ...menus.sessions },
      async (c) => { await c.prompt('say hello'); await c.turnEnd(); }),
    dialog('agents', `/agents opens "${menus.agents.title}" (labels are the agent names; the grey "native" tag beside each is not part of it; kind picker) → Esc → idle`, { command: '/agents', ...menus.agents }),
    dialog('themes', `/themes opens "${menus.themes.title}" (kind picker) → Esc → idle`, { command: '/themes', ...menus.themes }),
    // Other terminal sizes (OpenCode only: `o.sizes`): the dialog narrower / wider, the list as long as the screen allows.
    ...(o.sizes === false ? [] : [
      dialog('themes-60x20', `/themes in a 60×20 terminal (state menu, kind picker) → Esc → idle`, { command: '/themes', ...menus.themes60 }, undefined, { cols: 60, rows: 20 }),
      dialog('agents-160x50', `/agents in a 160×50 terminal (labels are the agent names; the grey "native" tag beside each is not part of it; state menu, kind picker) → Esc → idle`, { command: '/agents', ...menus.agents }, undefined, { cols: 160, rows: 50 }),
    ]),
    // The MCP servers dialog, with the lab's stdio server configured (mcp: true).
    { ...dialog('mcps', `/mcps lists the MCP servers (the lab's lab-tools) (kind picker) → Esc → idle`, { command: '/mcps', ...menus.mcps }), mcp: true },
    // Timeline and Fork list the session's user messages: two turns first.
    dialog('timeline', `two turns, then /timeline lists the session's messages to jump to (kind picker) → Esc → idle`, { command: '/timeline', ...menus.timeline }, twoTurns),
    dialog('fork', `two turns, then /fork lists the messages to fork the session from (kind picker) → Esc → idle`, { command: '/fork', ...menus.fork }, twoTurns),
    // The first /connect dialog only: the provider list; Esc before any sign-in (no network).
    dialog('connect', `/connect opens "Connect a provider" (the provider list; kind picker) → Esc, no sign-in → idle`, { command: '/connect', ...menus.connect }),
    // The model's variants (declared in the session's provider config) and the workspace's skills.
    { ...dialog('variants', `the Lab model declares variants high and low; /variants opens "Select variant" (kind picker) → Esc → idle`, { command: '/variants', ...menus.variants }), variants: { high: { reasoningEffort: 'high' }, low: { reasoningEffort: 'low' } } },
    // `setup(work)` runs in the lab's prepare, before the CLI starts (it reads skills at start-up).
    { ...dialog('skills', `two skills in the workspace; /skills opens "Skills" (kind picker) → Esc → idle`, { command: '/skills', ...menus.skills }), setup: writeSkills(o.skillsDir ?? '.opencode') },
    {
      ...dialog('commands', 'ctrl+p opens the command palette "Commands" (the group headings "Suggested" and "System" are not options; the list is read across the gap between groups; state menu, kind picker: a menu the person opened) → Esc → idle', { ...menus.commands }),
      run: async (c) => { await c.picker({ keys: '\u0010', state: 'menu', ...menus.commands }); },
    },
    {
      name: 'rate-limit', cols: 80, rows: 24,
      description: `the server answers 429 "Too Many Requests" twice → ${name} shows "Too Many Requests: {body}… [retrying in …s attempt #N]" (generating, rate_limited signal) → the third request streams → idle`,
      run: retried('please answer through a rate limit', /Too Many Requests/, 'rate_limited'), expect: turn,
    },
    {
      name: 'overloaded', cols: 80, rows: 24,
      description: `the server answers 503 "Overloaded" twice → ${name} shows "Provider is overloaded… [retrying in …s attempt #N]" (generating, provider_overloaded signal) → the third request streams → idle`,
      run: retried('please answer through an overload', /Provider is overloaded/, 'provider_overloaded'), expect: turn,
    },
    {
      name: 'rate-limit-mention', cols: 80, rows: 24,
      description: 'an answer that only talks about rate limits ("rate limit", "429 Too Many Requests", "overloaded") → generating → idle, no rate_limited or provider_overloaded signal',
      run: async (c) => {
        await c.prompt('please explain rate limits');
        await c.turnEnd();
        c.check('the answer is on screen', /rate limit/.test(c.s.driver.snapshot()));
        const fired = c.s.events.filter((e) => e.event.kind === 'signal_detected' && /rate_limited|provider_overloaded/.test(e.event.id));
        c.check('no rate_limited / provider_overloaded signal from the answer\'s words', fired.length === 0, JSON.stringify(fired.map((e) => e.event)));
      },
      expect: turn,
    },
  ];
}
