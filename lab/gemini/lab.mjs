/**
 * The Gemini CLI conformance lab: `npm run lab -- gemini [options]`.
 *
 * Installs a pinned `@google/gemini-cli` outside the repo, starts the scripted Gemini API server
 * (server.mjs) on loopback, runs the REAL CLI under specterm (specs/gemini/spec.json, with its
 * `pre_launch_trust` writing the private HOME's trust store) in a real PTY, drives scripted
 * sessions and checks the live states against what the server knows: generating while a stream
 * is open, approval while a function call awaits permission, idle after the turn.
 *
 * Options: --record-to DIR (write <name>.cast + <name>.expect.json), --accuracy (write
 * docs/accuracy/gemini.md), --scenario NAME (one session), --keep (keep the temp dirs),
 * --version V (CLI version, default the pinned one), --history-to DIR (copy the session files
 * Gemini CLI wrote, ~/.gemini/tmp/<project>/chats, and the server's log into DIR/<session>/),
 * --crawl (the crawler instead of the sessions: crawl-start.mjs, lab/lib/crawl.mjs).
 * Exit code 0 only if every check passed.
 *
 * Private everything: each session gets a fresh temp dir (mode 0700) holding HOME and the
 * workspace; the dummy API key is passed in the environment only and never logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { copyHistory } from '../lib/copy-history.mjs';
import { ensureCli } from '../lib/install-cli.mjs';
import { writeLabels } from '../lib/lab-kit.mjs';
import { measureSession } from './measure.mjs';
import { MCP_APPROVAL, PROMPT_SESSIONS } from './prompt-sessions.mjs';
import { loadScenarios } from './server.mjs';
import { crawlGemini } from './crawl-start.mjs';
import { startGeminiSession } from './session.mjs';

/** The private HOME, for lab/mcp-setup (it lives with the session start). */
export { prepareHome } from './session.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
export const PINNED_VERSION = '0.61.0';
/** The confirmations the sessions provoke, one per tool family, with the title and buttons exactly as Gemini CLI draws them. */
const APPROVALS = {
  shell: { title: 'Allow execution of [Shell]?', buttons: ['Allow once', 'Allow for this session', 'No, suggest changes (esc)'] },
  edit: { title: 'Apply this change?', buttons: ['Allow once', 'Allow for this session', 'Modify with external editor', 'No, suggest changes (esc)'] },
  fetch: { title: 'Do you want to proceed?', buttons: ['Allow once', 'Allow for this session', 'No, suggest changes (esc)'] },
  mcp: MCP_APPROVAL,
};
const THEMES_80X24 = ['ANSI Dark', 'ANSI Light', 'Atom One Dark', 'Ayu Dark', 'Ayu Light', 'Default Dark', 'Default Light', 'Dracula Dark', 'GitHub Dark', 'GitHub Dark Colorblind Da…', 'GitHub Light', 'GitHub Light Colorblind L…'];
const TRUST_BUTTONS = ['Trust folder (work)', 'Trust parent folder (lab)', "Don't trust"];
/** Gemini CLI's loop-detection dialog (LoopDetectionConfirmation): a choice about the session, not consent to run anything. */
const LOOP_DIALOG = { title: 'A potential loop was detected', buttons: ['Keep loop detection enabled (esc)', 'Disable loop detection for this session'] };
/** Detection targets of the issue; the hard check limits are looser so a slow CI box does not fail. */
const TARGET = { generatingMs: 300, approvalMs: 300, idleMs: 1500 };
const LIMIT = { approvalMs: 1000, approvalFromServerMs: 5000, idleMs: 3000 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The sessions. `run(ctx)` drives one; `expect` is what the server/lab know must be seen in the
 * recording (written as <name>.expect.json, never copied from the replay).
 */
const SESSIONS = [
  {
    name: 'start-idle', cols: 80, rows: 24,
    description: 'Gemini CLI starts (folder trusted by pre_launch_trust) → idle',
    run: async () => {},
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }], final: { state: 'idle' } },
  },
  {
    name: 'hello', cols: 80, rows: 24,
    description: 'a prompt → the answer streams for ~2 s (generating) → idle',
    run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } },
  },
  {
    name: 'approve-yes', cols: 80, rows: 24,
    description: 'run_shell_command needs approval → button 1 (Allow once) → the result streams → idle',
    run: async (c) => { await c.prompt('please create the file'); await c.approval(1); await c.turnEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy' }, approvalStep(), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  },
  {
    name: 'approve-no', cols: 80, rows: 24,
    description: 'run_shell_command needs approval → button 3 (No, suggest changes) → the request is cancelled → idle',
    run: async (c) => { await c.prompt('please create the file'); await c.approval(3); await c.deniedEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy' }, approvalStep(), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'model-picker', cols: 80, rows: 24,
    description: '/model opens the model picker (kind picker, never auto-answered) → Esc closes it → idle',
    run: async (c) => { await c.picker(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'picker', status: 'approval', modal: { title: 'Select Model', kind: 'picker', buttons: ['Auto', 'Manual'] } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'long-answer', cols: 80, rows: 24,
    description: 'a 30-line answer that scrolls the 24-row screen → generating throughout → idle',
    run: async (c) => { await c.prompt('give me a long answer'); await c.turnEnd(); c.check('the long answer scrolled the screen', !/1\. Alpha line/.test(c.s.driver.snapshot()) && /last line/.test(c.s.driver.snapshot())); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } },
  },
  {
    name: 'tall-approval', cols: 80, rows: 24,
    description: 'a 28-line shell command: the confirmation fills the whole 24-row screen (Gemini folds the command) → Allow once → idle',
    run: async (c) => { await c.prompt('run the tall command'); await c.approval(1); await c.turnEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, approvalStep(), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  },
  {
    name: 'trust-dialog', cols: 80, rows: 24, applyTrust: false,
    description: 'without pre_launch_trust: the folder-trust dialog (kind confirm: a start-up gate, never auto-answered) → button 1 (Trust folder) → Gemini restarts itself → idle',
    run: async (c) => { await c.trust(); },
    ready: 'trust',
    expect: { sequence: [{ state: 'starting' }, { state: 'trust', status: 'approval', modal: { title: 'Do you trust the files in this folder?', kind: 'confirm', buttons: TRUST_BUTTONS } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'hello-160x50', cols: 160, rows: 50,
    description: 'the streamed answer in a 160×50 terminal',
    run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } },
  },
  shellAllowedOnce('approve-yes-160x50', 160, 50, 'the approval round trip in a 160×50 terminal'),
  {
    name: 'edit-yes', cols: 80, rows: 24,
    description: 'write_file asks "Apply this change?" (the edit confirmation, a phrasing the spec does not name) → 1 (Allow once) → the file is written → idle',
    run: async (c) => { await c.prompt('write the notes'); await c.approval(1, 'edit'); await c.turnEnd(); c.check('notes.txt was written', fs.existsSync(path.join(c.work, 'notes.txt'))); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, approvalStep('edit'), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  },
  {
    name: 'fetch-no', cols: 80, rows: 24,
    description: 'web_fetch asks "Do you want to proceed?" (the info confirmation) → 3 (No, suggest changes) → nothing fetched → idle',
    run: async (c) => { await c.prompt('fetch the page'); await c.approval(3, 'fetch'); await c.deniedEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, approvalStep('fetch'), { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'numbered-answer', cols: 80, rows: 24,
    description: 'an answer that is a plain numbered list with the confirmation\'s own labels ("1. Allow once … 3. No, suggest changes (esc)") → generating then idle, never a modal',
    run: async (c) => { await c.prompt('show me numbered choices'); await c.turnEnd(); c.check('the list is on screen', /3\. No, suggest changes \(esc\)/.test(c.s.driver.snapshot())); c.check('never a modal during the session', !c.s.changes.some((x) => x.modal)); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle', modal: null }, { state: 'busy', status: 'generating', modal: null }, { state: 'idle', modal: null }], final: { state: 'idle', modal: null } },
  },
  {
    name: 'theme-picker', cols: 80, rows: 24,
    description: '/theme opens the theme menu: a cursor-marked option block in the bottom box, detected by its shape (the spec names no menu) → kind picker → Esc → idle',
    run: async (c) => { await c.menu('/theme', 'Select Theme'); },
    // The first 12 of Gemini CLI's themes, as its two-column dialog shows them at 80×24 (it cuts long names with …; the preview column is not part of a label).
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'picker', status: 'approval', modal: { title: 'Select Theme', kind: 'picker', buttons: THEMES_80X24 } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  {
    name: 'loop-detection', cols: 80, rows: 24,
    description: 'the model repeats one sentence: Gemini CLI stops the stream and asks "A potential loop was detected" (kind picker: a choice about the session, not consent to run anything) → 1 (Keep loop detection enabled) → idle',
    run: async (c) => { await c.prompt('repeat yourself'); await c.loopDialog(1); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy', status: 'generating' }, { state: 'picker', status: 'approval', modal: { title: LOOP_DIALOG.title, kind: 'picker', buttons: LOOP_DIALOG.buttons } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  shellAllowedOnce('approve-yes-60x20', 60, 20, 'the shell approval round trip in a narrow 60×20 terminal'),
  shellAllowedOnce('approve-yes-200x50', 200, 50, 'the shell approval round trip in a wide 200×50 terminal'),
  {
    name: 'model-picker-60x20', cols: 60, rows: 20,
    description: '/model in a narrow 60×20 terminal: the picker (kind picker) → Esc → idle',
    run: async (c) => { await c.picker(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'picker', status: 'approval', modal: { title: 'Select Model', kind: 'picker', buttons: ['Auto', 'Manual'] } }, { state: 'idle', modal: null }], final: { state: 'idle' } },
  },
  ...PROMPT_SESSIONS,
];

/** The shell confirmation round trip (Allow once → the result streams → idle) at one terminal size. */
function shellAllowedOnce(name, cols, rows, description) {
  return {
    name, cols, rows, description,
    run: async (c) => { await c.prompt('please create the file'); await c.approval(1); await c.turnEnd(); },
    expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, approvalStep(), { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  };
}

function approvalStep(which = 'shell') {
  const { title, buttons } = APPROVALS[which];
  return { state: 'approval', status: 'approval', modal: { title, kind: 'approval', buttons } };
}

function parseArgs(args) {
  const o = { recordTo: null, accuracy: false, scenario: null, keep: false, version: PINNED_VERSION };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--record-to') o.recordTo = args[++i];
    else if (a === '--accuracy') o.accuracy = true;
    else if (a === '--scenario') o.scenario = args[++i];
    else if (a === '--keep') o.keep = true;
    else if (a === '--version') o.version = args[++i];
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--history-to') o.historyTo = path.resolve(args[++i]);
    else throw new Error(`lab gemini: unknown option ${JSON.stringify(a)}; use --record-to DIR, --accuracy, --scenario NAME, --keep, --version V, --history-to DIR`);
  }
  return o;
}

/** Runs one session; returns its measurements and check results. */
async function runSession(def, ctx) {
  const { opts, version } = ctx;
  const castPath = opts.recordTo ? path.join(path.resolve(opts.recordTo), `${def.name}.cast`) : null;
  const { s, tmp, home, work, server, launch, startedAt } = await startGeminiSession(def, ctx, { record: castPath, history: Boolean(opts.historyTo) });
  const checks = [];
  const actions = []; // {t, what}
  const check = (what, ok, detail = '') => { checks.push({ what, ok: Boolean(ok), detail }); };
  // What the screen shows, polled every 20 ms: separates the CLI's own render delay from our detection delay.
  const screenMarks = [];
  const marks = { approval: /\d\. No, suggest changes \(esc\)/, spinner: /esc to cancel, \d/, picker: /Select Model/ };
  const shown = {};
  const poller = setInterval(() => {
    let text = '';
    try { text = s.driver.snapshot(); } catch { return; }
    for (const [k, re] of Object.entries(marks)) {
      const now = re.test(text);
      if (now !== Boolean(shown[k])) { shown[k] = now; screenMarks.push({ t: Date.now(), what: `${k} ${now ? 'shown' : 'gone'}` }); }
    }
  }, 20);
  const statusAt = (t) => { // driver status at absolute time t
    let cur = null;
    for (const c of s.changes) { if (startedAt + c.t * 1000 <= t) cur = c; else break; }
    return cur;
  };
  const firstStatusAfter = (status, t, pred = () => true) => {
    const at = statusAt(t);
    if (at && at.status === status && pred(at)) return t;
    const c = s.changes.find((x) => startedAt + x.t * 1000 >= t && x.status === status && pred(x));
    return c ? startedAt + c.t * 1000 : null;
  };
  const lat = []; // {kind, ms}
  const deferred = [];
  const c = {
    s, check, work, server, actions,
    prompt: async (text) => {
      actions.push({ t: Date.now(), what: 'submit' });
      const r = s.driver.dispatch({ kind: 'send_message', text });
      check(`send_message "${text}" accepted`, r.ok, r.reason ?? '');
      const submittedAt = actions[actions.length - 1].t;
      let started = await server.waitFor((e) => e.event === 'stream_start' && e.t >= submittedAt, 10_000).catch(() => null);
      if (!started && s.driver.snapshot().includes(`> ${text}`)) {
        // On a loaded machine Gemini CLI can take the Enter as part of the typed text: the prompt
        // still sits in the input box. Press Enter again, as a person would.
        actions.push({ t: Date.now(), what: 'resubmit' });
        s.driver.dispatch({ kind: 'pty_write', data: '\r' });
      }
      started ??= await server.waitFor((e) => e.event === 'stream_start' && e.t >= submittedAt, 30_000);
      // The spinner may lag the stream's start by a frame or two; a function call may go straight to its confirmation.
      await s.waitForState((v) => v.state.status === 'generating' || v.state.status === 'approval', 3000).catch(() => null);
      const gen = firstStatusAfter('generating', actions[actions.length - 1].t);
      check('generating (or the confirmation) reached once the prompt was submitted', gen !== null || firstStatusAfter('approval', actions[actions.length - 1].t) !== null);
      if (gen !== null) lat.push({ kind: 'generating', ms: Math.max(0, gen - started.t) });
      // Measured once the session is over: the 20 ms screen poll may still be behind the driver here.
      const submitAt = actions[actions.length - 1].t;
      deferred.push(() => {
        const spun = screenMarks.find((m) => m.what === 'spinner shown' && m.t >= submitAt);
        const g = firstStatusAfter('generating', submitAt);
        if (g !== null && spun) lat.push({ kind: 'generating_from_screen', ms: Math.max(0, g - spun.t) });
      });
    },
    approval: async (button, which = 'shell') => {
      const { title: APPROVAL_TITLE, buttons: APPROVAL_BUTTONS } = APPROVALS[which];
      const pending = await server.waitFor((e) => e.event === 'tool_call_pending' && e.t >= actions[actions.length - 1].t, 30_000);
      const view = await s.waitForState('approval', LIMIT.approvalMs + 5000).catch(() => null);
      const seen = firstStatusAfter('approval', pending.t);
      check('approval state while the function call awaits permission', view !== null && seen !== null, view ? '' : 'never reached');
      if (!view) return;
      await sleep(400); // let the modal settle so the click reads the final buttons (and the 20 ms screen poll catch up)
      const drawn = screenMarks.find((m) => m.what === 'approval shown' && m.t >= pending.t);
      if (drawn) {
        ctx.renderDelays.push(drawn.t - pending.t);
        // Approval is labelled from the confirmation on screen, as lab/lib/lab-kit.mjs does: Gemini's own delay is not ours.
        actions.push({ t: drawn.t, what: 'approval_drawn' });
        actions.sort((a, b) => a.t - b.t);
      }
      if (seen !== null && drawn) {
        lat.push({ kind: 'approval_from_screen', ms: Math.max(0, seen - drawn.t) });
        // Gemini's own render delay after the function call varies (0.4–1.6 s seen): judge specterm from the drawn confirmation.
        check(`approval detected within ${LIMIT.approvalMs} ms of the confirmation being drawn`, seen - drawn.t <= LIMIT.approvalMs, `${seen - drawn.t} ms`);
      }
      if (seen !== null) {
        lat.push({ kind: 'approval', ms: Math.max(0, seen - pending.t) });
        check(`approval detected within ${LIMIT.approvalFromServerMs} ms of the function call`, seen - pending.t <= LIMIT.approvalFromServerMs, `${seen - pending.t} ms`);
      }
      const m = s.driver.getCurrentView()?.modal;
      const labels = m?.buttons?.map((b) => b.label) ?? [];
      check('approval buttons are exactly the CLI\'s options', JSON.stringify(labels) === JSON.stringify(APPROVAL_BUTTONS), JSON.stringify(labels));
      check('approval title', m?.title === APPROVAL_TITLE, JSON.stringify(m?.title));
      check('approval modal kind is approval', m?.kind === 'approval', String(m?.kind));
      ctx.modalResults.push({ session: def.name, ok: JSON.stringify(labels) === JSON.stringify(APPROVAL_BUTTONS) && m?.title === APPROVAL_TITLE });
      actions.push({ t: Date.now(), what: button === 1 ? 'approve' : 'deny' });
      const r = s.driver.dispatch({ kind: 'click_modal_button', index: button, label: APPROVAL_BUTTONS[button - 1] });
      check(`click_modal_button ${button} accepted`, r.ok, r.reason ?? '');
      if (button === 1) {
        const res = await server.waitFor((e) => e.event === 'tool_result' && e.t >= pending.t, 15_000).catch(() => null);
        check('the server received the tool result after Allow once', res !== null);
      }
    },
    turnEnd: async () => {
      const since = actions[actions.length - 1].t;
      // The turn ends with the first text-only stream_end after the last action.
      const end = await server.waitFor((e) => e.event === 'stream_end' && !e.functionCall && e.t >= since, 30_000);
      await s.waitForState((v) => v.state.status === 'idle', LIMIT.idleMs + 10_000).catch(() => null);
      const idle = firstStatusAfter('idle', end.t);
      check('idle after the turn ended', idle !== null);
      const stopped = screenMarks.find((m) => m.what === 'spinner gone' && m.t >= end.t - 100);
      if (idle !== null && stopped) lat.push({ kind: 'idle_from_screen', ms: Math.max(0, idle - stopped.t) });
      if (idle !== null) {
        lat.push({ kind: 'idle', ms: idle - end.t });
        check(`idle within ${LIMIT.idleMs} ms of the turn's end`, idle - end.t <= LIMIT.idleMs, `${idle - end.t} ms`);
      }
      const streamed = s.changes.some((x) => x.status === 'generating' && startedAt + x.t * 1000 <= end.t && startedAt + x.t * 1000 >= since - 50);
      check('generating while the answer streamed', streamed || statusAt(end.t)?.status === 'generating');
      ctx.turnEnds.push(end.t);
      await sleep(1800);
    },
    deniedEnd: async () => {
      const denyAt = actions[actions.length - 1].t;
      await s.waitForState((v) => v.state.status === 'idle', LIMIT.idleMs + 5000).catch(() => null);
      const idle = firstStatusAfter('idle', denyAt);
      check('idle after the denial', idle !== null);
      if (idle !== null) {
        lat.push({ kind: 'idle', ms: idle - denyAt });
        check(`idle within ${LIMIT.idleMs} ms of the denial`, idle - denyAt <= LIMIT.idleMs, `${idle - denyAt} ms`);
      }
      await sleep(2500);
      check('no tool result and no new request after the denial', !server.log.some((e) => e.t > denyAt && (e.event === 'tool_result' || e.event === 'stream_start')));
    },
    trust: async () => {
      const m = s.driver.getCurrentView()?.modal;
      const labels = m?.buttons?.map((b) => b.label) ?? [];
      const want = TRUST_BUTTONS;
      check('trust dialog buttons', JSON.stringify(labels) === JSON.stringify(want), JSON.stringify(labels));
      check('trust dialog kind is confirm (a start-up gate no auto-approve policy answers)', m?.kind === 'confirm', String(m?.kind));
      actions.push({ t: Date.now(), what: 'trust' });
      const r = s.driver.dispatch({ kind: 'click_modal_button', index: 1, label: want[0] });
      check('click_modal_button 1 accepted', r.ok, r.reason ?? '');
      const back = await s.waitForState('idle', 30_000).catch(() => null);
      check('idle after Gemini restarted with the folder trusted', back !== null);
      check('the trust store now trusts the folder', JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'trustedFolders.json'), 'utf8'))[fs.realpathSync(work)] === 'TRUST_FOLDER');
      await sleep(1500);
    },
    /** The loop-detection dialog after a repeating stream: a picker with its title and both options; `button` answers it. */
    loopDialog: async (button) => {
      const aborted = await server.waitFor((e) => e.event === 'stream_aborted' || e.event === 'stream_end', 30_000).catch(() => null);
      // Gemini CLI stops reading the stream once its loop check fires (the server may still finish writing it).
      check('the repeating stream ended', aborted !== null, 'no stream end');
      const shown = await s.waitForScreen(/A potential loop was detected/, 15_000).then(() => Date.now()).catch(() => null);
      check('the loop-detection dialog is on screen', shown !== null);
      if (shown === null) return;
      actions.push({ t: shown, what: 'modal_shown' });
      const view = await s.waitForState('picker', 5000).catch(() => null);
      const seen = firstStatusAfter('approval', shown, (x) => x.state === 'picker');
      if (seen !== null) lat.push({ kind: 'picker_from_screen', ms: Math.max(0, seen - shown) });
      const m = view?.modal;
      const labels = m?.buttons?.map((b) => b.label) ?? [];
      const ok = m?.kind === 'picker' && m?.title === LOOP_DIALOG.title && JSON.stringify(labels) === JSON.stringify(LOOP_DIALOG.buttons);
      check('the loop dialog is a picker with its title and both options', ok, JSON.stringify(m ?? null));
      ctx.modalResults.push({ session: def.name, ok });
      await sleep(1500);
      check('the loop dialog is not auto-answered (still open after 1.5 s)', s.driver.getCurrentView()?.state.id === 'picker');
      actions.push({ t: Date.now(), what: 'modal_answered' });
      const r = s.driver.dispatch({ kind: 'click_modal_button', index: button, label: LOOP_DIALOG.buttons[button - 1] });
      check(`click_modal_button ${button} accepted`, r.ok, r.reason ?? '');
      const back = await s.waitForState('idle', 10_000).catch(() => null);
      check('idle after the loop dialog was answered', back !== null);
      if (back) lat.push({ kind: 'idle', ms: Math.max(0, firstStatusAfter('idle', actions[actions.length - 1].t) - actions[actions.length - 1].t) });
      await sleep(2500);
    },
    /** A slash command that opens a menu: kind picker, the given title, never auto-answered; Esc closes it. */
    menu: async (command, title) => {
      actions.push({ t: Date.now(), what: 'picker_open' });
      // Typed, then Enter as its own key 400 ms later, as the spec's "model" control does.
      const r = s.driver.dispatch({ kind: 'pty_write', data: command });
      check(`${command} accepted`, r.ok, r.reason ?? '');
      await sleep(400);
      s.driver.dispatch({ kind: 'pty_write', data: '\r' });
      const view = await s.waitForState('picker', 15_000).catch(() => null);
      check(`picker state after ${command}`, view !== null);
      check('menu modal kind is picker', view?.modal?.kind === 'picker', String(view?.modal?.kind));
      check('menu title', view?.modal?.title === title, JSON.stringify(view?.modal?.title));
      check('menu has options', (view?.modal?.buttons?.length ?? 0) >= 2, JSON.stringify(view?.modal?.buttons?.map((b) => b.label)));
      await sleep(1500);
      check('the menu is not auto-answered (still open after 1.5 s)', s.driver.getCurrentView()?.state.id === 'picker');
      actions.push({ t: Date.now(), what: 'picker_close' });
      s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
      const back = await s.waitForState('idle', 5000).catch(() => null);
      check('idle after Esc closed the menu', back !== null);
      await sleep(1500);
    },
    picker: async () => {
      actions.push({ t: Date.now(), what: 'picker_open' });
      // The spec's own "model" control: it types /model and sends Enter 200 ms later (Gemini turns an
      // Enter within 30 ms of the previous key into a newline).
      const r = s.driver.dispatch({ kind: 'click_control', control_id: 'model' });
      check('the "model" control is accepted in idle', r.ok, r.reason ?? '');
      const view = await s.waitForState('picker', 8000).catch(() => null);
      check('picker state after /model', view !== null);
      check('picker modal kind is picker', view?.modal?.kind === 'picker', String(view?.modal?.kind));
      check('picker buttons', JSON.stringify(view?.modal?.buttons?.map((b) => b.label)) === JSON.stringify(['Auto', 'Manual']), JSON.stringify(view?.modal?.buttons?.map((b) => b.label)));
      await sleep(1500);
      const drawn = screenMarks.find((m) => m.what === 'picker shown');
      const seen = firstStatusAfter('approval', actions[actions.length - 1].t, (x) => x.state === 'picker');
      if (drawn && seen !== null) lat.push({ kind: 'picker_from_screen', ms: Math.max(0, seen - drawn.t) });
      check('the picker is not auto-answered (still open after 1.5 s)', s.driver.getCurrentView()?.state.id === 'picker');
      actions.push({ t: Date.now(), what: 'picker_close' });
      s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
      const back = await s.waitForState('idle', 5000).catch(() => null);
      check('idle after Esc closed the picker', back !== null);
      await sleep(1500);
    },
  };
  let error = null;
  try {
    const first = def.ready ?? 'idle';
    const ready = await s.waitForState(first, 45_000).catch((e) => { error = e; return null; });
    check(`reaches ${first} after start`, ready !== null, error ? String(error.message).split('\n')[0] : '');
    if (def.applyTrust !== false) check('pre_launch_trust wrote the trust store', JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'trustedFolders.json'), 'utf8'))[fs.realpathSync(work)] === 'TRUST_FOLDER');
    if (ready) {
      actions.push({ t: Date.now(), what: first === 'idle' ? 'ready' : `ready_${first}` });
      // Gemini queues prompts typed while it still initialises; settle so each turn is clean (4 s: on a loaded box 2.5 s lost the first Enter in half the sessions).
      await sleep(4000);
      await def.run(c);
      await sleep(500);
    }
  } catch (err) {
    error = err;
    check('session ran without an exception', false, String(err?.message ?? err).split('\n').slice(0, 12).join('\n'));
  }
  const endedAt = Date.now();
  clearInterval(poller);
  for (const f of deferred) f();
  const screen = (() => { try { return s.driver.snapshot(); } catch { return ''; } })();
  await s.stop();
  await server.close();
  const measure = measureSession({ startedAt, endedAt, changes: s.changes, log: server.log, actions });
  if (opts.verbose) {
    const rel = (t) => ((t - startedAt) / 1000).toFixed(3);
    const rows = [
      ...s.changes.map((x) => ({ t: startedAt + x.t * 1000, line: `driver ${x.state} (${x.status})${x.modal ? ` modal=${JSON.stringify(x.modal)}` : ''}` })),
      ...server.log.map((e) => ({ t: e.t, line: `server ${e.event}${e.functionCall ? ` ${e.functionCall}` : ''}` })),
      ...actions.map((a) => ({ t: a.t, line: `lab ${a.what}` })),
      ...screenMarks.map((m) => ({ t: m.t, line: `screen ${m.what}` })),
    ].sort((a, b) => a.t - b.t);
    for (const r of rows) process.stdout.write(`   ${rel(r.t).padStart(8)} ${r.line}\n`);
    for (const iv of measure.intervals) process.stdout.write(`   labelled ${iv.status} ${(iv.from / 1000).toFixed(3)}–${(iv.to / 1000).toFixed(3)}\n`);
  }
  const failed = checks.filter((x) => !x.ok);
  if (failed.length && !opts.keep) process.stderr.write(`--- ${def.name}: final screen ---\n${screen}\n`);
  if (opts.recordTo) {
    const { run: _r, expect, description } = def;
    fs.writeFileSync(path.join(path.resolve(opts.recordTo), `${def.name}.expect.json`), JSON.stringify({ description: `${description} (Gemini CLI ${version}, lab/gemini)`, ...expect }, null, 2) + '\n');
    writeLabels(path.resolve(opts.recordTo), def.name, { intervals: measure.intervals, source: `lab/gemini Gemini CLI ${version}: the server's log and the lab's actions` });
  }
  if (opts.historyTo) {
    // Gemini CLI keeps a session under ~/.gemini/tmp/<project short name>/chats/.
    const trees = fs.readdirSync(path.join(home, '.gemini', 'tmp'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => ({ from: path.join(home, '.gemini', 'tmp', e.name, 'chats'), as: path.join('chats', e.name) }));
    copyHistory({ trees, dir: path.join(opts.historyTo, def.name), log: { cli: 'gemini', version, cwd: fs.realpathSync(work), session_id: launch.id, events: server.log } });
  }
  if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
  return { name: def.name, cols: def.cols, rows: def.rows, checks, latencies: lat, ...measure, tmp: opts.keep ? tmp : null };
}

function percentile(values, p) {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)];
}

function writeAccuracy(results, version, modalResults, ctx) {
  const lines = [];
  const all = (k) => results.flatMap((r) => r.latencies.filter((l) => l.kind === k).map((l) => l.ms));
  const labelled = results.reduce((a, r) => a + r.labelledMs, 0);
  const right = results.reduce((a, r) => a + r.rightMs, 0);
  const flaps = results.reduce((a, r) => a + r.flaps, 0);
  const fmt = (x) => (x === null ? 'n/a' : `${Math.round(x)} ms`);
  lines.push('# Accuracy: gemini (Gemini CLI)', '');
  lines.push('Generated by `npm run lab -- gemini --accuracy` (lab/gemini/lab.mjs) against the real `@google/gemini-cli` and the scripted Gemini API server on loopback. Do not edit by hand.', '');
  lines.push('Ground truth is the server\'s log: **generating** while a stream is open, **approval** from when the lab\'s screen poll saw the confirmation drawn until the lab\'s answer key (Gemini\'s own delay from the function call to the confirmation is reported apart), **picker** from 1 s after `/model` until Esc, the **trust dialog** (status approval, kind confirm) from when the lab saw it until the lab answered it, **idle** from 1.5 s after a turn ended until the next action. Latency runs from the ground-truth change to the driver\'s state change (0 when the driver was already there: Gemini shows its spinner before the stream opens); the "from the screen" rows start instead when the lab\'s 20 ms screen poll first saw the spinner / confirmation / picker appear or the spinner disappear, which separates Gemini CLI\'s own render delay from specterm\'s detection delay (0 ms there means the driver was faster than the poll). A flap is a driver status change more than 2.5 s away from every ground-truth event.', '');
  lines.push(`## Gemini CLI ${version}`, '');
  lines.push('| measure | value | target |', '|---|---|---|');
  lines.push(`| labelled time with the right status | ${labelled ? ((100 * right) / labelled).toFixed(1) : 'n/a'} % (${(right / 1000).toFixed(1)} s of ${(labelled / 1000).toFixed(1)} s) | — |`);
  lines.push(`| approval modals with the right title and buttons | ${modalResults.filter((m) => m.ok).length} / ${modalResults.length} (${modalResults.map((m) => `${m.session}: ${m.ok ? 'yes' : 'no'}`).join(', ')}) | all |`);
  for (const [k, target] of [['generating', TARGET.generatingMs], ['approval', TARGET.approvalMs], ['idle', TARGET.idleMs]]) {
    const v = all(k);
    lines.push(`| ${k} detection latency p50 / p95 from the server's change (n=${v.length}) | ${fmt(percentile(v, 50))} / ${fmt(percentile(v, 95))} | ≤ ${target} ms |`);
    const w = all(`${k}_from_screen`);
    lines.push(`| ${k} detection latency p50 / p95 from the screen showing it (n=${w.length}) | ${fmt(percentile(w, 50))} / ${fmt(percentile(w, 95))} | ≤ ${target} ms |`);
  }
  const pk = all('picker_from_screen');
  lines.push(`| picker detection latency p50 / p95 from the screen showing it (n=${pk.length}) | ${fmt(percentile(pk, 50))} / ${fmt(percentile(pk, 95))} | ≤ ${TARGET.approvalMs} ms |`);
  const r = ctx.renderDelays;
  lines.push(`| Gemini CLI's own delay from the function call to its confirmation on screen, p50 / p95 (n=${r.length}) | ${fmt(percentile(r, 50))} / ${fmt(percentile(r, 95))} | (not ours) |`);
  lines.push(`| flaps | ${flaps} | 0 |`, '');
  lines.push('| session | terminal | checks passed | right status | flaps |', '|---|---|---|---|---|');
  for (const r of results) {
    lines.push(`| ${r.name} | ${r.cols}×${r.rows} | ${r.checks.filter((c) => c.ok).length} / ${r.checks.length} | ${r.labelledMs ? ((100 * r.rightMs) / r.labelledMs).toFixed(1) : 'n/a'} % | ${r.flaps} |`);
  }
  lines.push('');
  const out = path.join(repo, 'docs', 'accuracy', 'gemini.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, lines.join('\n'));
  return out;
}

/** Entry point for lab/run.mjs. */
export async function main(args) {
  if (args.includes('--crawl')) return crawlGemini(args, PINNED_VERSION);
  let opts;
  try { opts = parseArgs(args); } catch (err) { process.stderr.write(`${err.message}\n`); return 2; }
  const wanted = opts.scenario ? opts.scenario.split(',') : null;
  const sessions = wanted ? SESSIONS.filter((d) => wanted.includes(d.name)) : SESSIONS;
  if (!sessions.length) {
    process.stderr.write(`lab gemini: no session named ${JSON.stringify(opts.scenario)}; available: ${SESSIONS.map((d) => d.name).join(', ')}\n`);
    return 2;
  }
  const { binPath, version } = ensureCli('@google/gemini-cli', opts.version, 'gemini');
  const liveMod = await import(pathToFileURL(path.join(repo, 'dist', 'harness', 'live-session.js')).href);
  const specMod = await import(pathToFileURL(path.join(repo, 'dist', 'catalog', 'builtin.js')).href);
  if (opts.recordTo) fs.mkdirSync(path.resolve(opts.recordTo), { recursive: true });
  const ctx = { binPath, version, liveMod, specMod, scenarios: loadScenarios(), opts, modalResults: [], turnEnds: [], renderDelays: [] };
  const results = [];
  for (const def of sessions) {
    process.stdout.write(`▶ ${def.name} (${def.cols}×${def.rows}) … `);
    const r = await runSession(def, ctx);
    results.push(r);
    const failed = r.checks.filter((c) => !c.ok);
    process.stdout.write(failed.length ? `FAIL\n` : `ok (${r.checks.length} checks)\n`);
    for (const f of failed) process.stdout.write(`   ✗ ${f.what}${f.detail ? ` — ${f.detail}` : ''}\n`);
    if (r.tmp) process.stdout.write(`   kept ${r.tmp}\n`);
  }
  if (opts.accuracy) process.stdout.write(`wrote ${path.relative(repo, writeAccuracy(results, version, ctx.modalResults, ctx))}\n`);
  const failedAll = results.flatMap((r) => r.checks.filter((c) => !c.ok));
  process.stdout.write(`gemini ${version}: ${results.length} session(s), ${failedAll.length ? `${failedAll.length} check(s) failed` : 'all checks passed'}\n`);
  return failedAll.length ? 1 : 0;
}
