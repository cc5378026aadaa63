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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureCli } from '../lib/install-cli.mjs';
import { loadChatScenarios, startChatServer } from '../lib/openai-chat-server.mjs';
import { makePrivateSession, measureSession, parseLabArgs, pollScreen, sleep, statusLookups, writeAccuracyReport } from '../lib/lab-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
export const PINNED_VERSION = '0.15.10';
const MODEL = 'lab-model';
const SHELL_TITLE = "Allow execution of: 'mkdir, touch'?";
const EDIT_TITLE = 'Apply this change?';
const EDIT_BUTTONS = ['Yes, allow once', 'Yes, allow always', 'No, suggest changes (esc)'];
const PICKER_BUTTONS = [`[openai] ${MODEL} (Runtime)`, '[qwen-oauth] coder-model (Discontinued)'];
/**
 * Hard check limits. Qwen Code is slow to start on a loaded 2-core box (15–25 s) and parses a shell
 * command with tree-sitter before it asks (up to ~12 s seen): the waits are generous; specterm's own
 * delays are judged from the screen.
 */
const LIMIT = { startMs: 90_000, confirmDrawnMs: 40_000, approvalMs: 1000, idleMs: 3000 };

const starting = [{ state: 'starting' }, { state: 'idle' }];
const turn = { sequence: [...starting, { state: 'busy', status: 'generating' }, { state: 'idle' }], final: { state: 'idle' } };
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
  { name: 'hello-160x50', cols: 160, rows: 50, description: 'the streamed answer in a 160×50 terminal', run: async (c) => { await c.prompt('say hello'); await c.turnEnd(); }, expect: turn },
  { name: 'approve-yes-160x50', cols: 160, rows: 50, description: 'the shell permission round trip in a 160×50 terminal', run: async (c) => { await c.prompt('please create the file'); await c.approval(1, 'shell'); await c.turnEnd(); }, expect: approvedTurn(SHELL_TITLE) },
];

/** A private HOME: API-key (OpenAI-compatible) auth, no telemetry, no self-update, no background memory turns. */
function writeSettings(home) {
  fs.mkdirSync(path.join(home, '.qwen'), { recursive: true, mode: 0o700 });
  const settings = {
    security: { auth: { selectedType: 'openai' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false },
    // Off: after each turn it streams a "memory extraction" request of its own, which is not the user's turn.
    memory: { enableManagedAutoMemory: false },
  };
  fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
}

/** Runs one session; returns its measurements and check results. */
async function runSession(def, ctx) {
  const { binPath, liveMod, specMod, opts, version } = ctx;
  const { tmp, home, work } = makePrivateSession('qwen-code', def.name);
  writeSettings(home);
  // The write_file tool wants an absolute path: the scenario says __WORK__.
  const scenario = JSON.parse(JSON.stringify(ctx.scenarios.basic).replaceAll('__WORK__', work));
  const server = await startChatServer({ scenario, logFile: path.join(tmp, 'server.log'), models: [MODEL] });
  const loaded = specMod.loadSpecRef(path.join(repo, 'specs', 'qwen-code', 'spec.json'));
  if (!loaded.ok) throw new Error(`specs/qwen-code/spec.json does not load: ${loaded.errors.join('; ')}`);
  const spec = { ...loaded.spec, binary: binPath };
  const castPath = path.join(opts.recordTo ? path.resolve(opts.recordTo) : tmp, `${def.name}.cast`);
  const checks = [];
  const actions = [];
  const check = (what, ok, detail = '') => { checks.push({ what, ok: Boolean(ok), detail }); };
  const act = (what) => { const a = { t: Date.now(), what }; actions.push(a); return a; };
  const startedAt = Date.now();
  const s = liveMod.startLiveSession({
    spec, cwd: work, cols: def.cols, rows: def.rows, record: castPath, homeDir: home,
    extraEnv: {
      HOME: home, OPENAI_API_KEY: 'lab-dummy-key', OPENAI_BASE_URL: server.url, OPENAI_MODEL: MODEL,
      NPM_CONFIG_PREFIX: path.join(tmp, 'npm-global'), TERM: 'xterm-256color', COLORTERM: 'truecolor', NO_BROWSER: '1',
    },
  });
  const screen = pollScreen(s.driver, { approval: /\d\. No, suggest changes \(esc\)/, spinner: /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\n]*(?:\n *)?\(\d+[hms]/, picker: /Select Model/ });
  const { statusAt, firstStatusAfter } = statusLookups(s.changes, startedAt);
  const lat = [];
  const deferred = [];
  const lastAction = () => actions[actions.length - 1].t;
  const c = {
    s, check, work,
    prompt: async (text, { expectStream = true } = {}) => {
      const submitAt = act('submit').t;
      const r = s.driver.dispatch({ kind: 'send_message', text });
      check(`send_message "${text}" accepted`, r.ok, r.reason ?? '');
      const req = await server.waitFor((e) => (e.event === 'stream_start' || e.event === 'api_error') && e.t >= submitAt, 60_000).catch(() => null);
      check('the server got the request', req !== null);
      if (!expectStream || !req) return;
      await s.waitForState((v) => v.state.status === 'generating' || v.state.status === 'approval', 5000).catch(() => null);
      const gen = firstStatusAfter('generating', submitAt);
      check('generating once the prompt was submitted', gen !== null);
      if (gen !== null) lat.push({ kind: 'generating', ms: Math.max(0, gen - req.t) });
      deferred.push(() => {
        const spun = screen.first('spinner shown', submitAt);
        const g = firstStatusAfter('generating', submitAt);
        if (g !== null && spun) lat.push({ kind: 'generating_from_screen', ms: Math.max(0, g - spun.t) });
      });
    },
    approval: async (button, which) => {
      const pending = await server.waitFor((e) => e.event === 'tool_call_pending' && e.t >= lastAction(), 30_000);
      const view = await s.waitForState('approval', LIMIT.confirmDrawnMs).catch(() => null);
      check('approval state while the tool call awaits permission', view !== null);
      if (!view) return;
      await sleep(400); // let the box settle and the 20 ms screen poll catch up
      const drawn = screen.first('approval shown', pending.t);
      const seen = firstStatusAfter('approval', pending.t);
      if (drawn) {
        actions.push({ t: drawn.t, what: 'approval_drawn' });
        actions.sort((a, b) => a.t - b.t);
        ctx.renderDelays.push(drawn.t - pending.t);
        lat.push({ kind: 'approval_from_screen', ms: Math.max(0, seen - drawn.t) });
        check(`approval detected within ${LIMIT.approvalMs} ms of the confirmation being drawn`, seen - drawn.t <= LIMIT.approvalMs, `${seen - drawn.t} ms`);
      }
      // From the server's side this includes Qwen Code's own delay (the tree-sitter parse), reported apart.
      if (seen !== null) lat.push({ kind: 'approval', ms: Math.max(0, seen - pending.t) });
      const m = s.driver.getCurrentView()?.modal;
      const labels = m?.buttons?.map((b) => b.label) ?? [];
      const title = which === 'shell' ? SHELL_TITLE : EDIT_TITLE;
      const buttonsOk = which === 'shell'
        ? labels.length === 4 && labels[0] === 'Yes, allow once' && labels[3] === 'No, suggest changes (esc)'
        : JSON.stringify(labels) === JSON.stringify(EDIT_BUTTONS);
      check('approval buttons are the CLI\'s options', buttonsOk, JSON.stringify(labels));
      check('approval title', m?.title === title, JSON.stringify(m?.title));
      check('approval modal kind is approval', m?.kind === 'approval', String(m?.kind));
      ctx.modalResults.push({ session: def.name, ok: buttonsOk && m?.title === title });
      const answerAt = act(button === 1 ? 'approve' : 'deny').t;
      const r = s.driver.dispatch({ kind: 'click_modal_button', index: button, label: labels[button - 1] });
      check(`click_modal_button ${button} accepted`, r.ok, r.reason ?? '');
      if (button === 1) {
        const res = await server.waitFor((e) => e.event === 'tool_result' && e.t >= answerAt, 30_000).catch(() => null);
        check('the server received the tool result after Yes, allow once', res !== null);
      }
    },
    turnEnd: async () => {
      const since = lastAction();
      const end = await server.waitFor((e) => e.event === 'stream_end' && !e.toolCall && e.t >= since, 60_000);
      await s.waitForState((v) => v.state.status === 'idle', LIMIT.idleMs + 10_000).catch(() => null);
      const idle = firstStatusAfter('idle', end.t);
      check('idle after the turn ended', idle !== null);
      if (idle !== null) {
        lat.push({ kind: 'idle', ms: idle - end.t });
        check(`idle within ${LIMIT.idleMs} ms of the turn's end`, idle - end.t <= LIMIT.idleMs, `${idle - end.t} ms`);
        deferred.push(() => {
          const stopped = screen.first('spinner gone', end.t - 100);
          if (stopped) lat.push({ kind: 'idle_from_screen', ms: Math.max(0, idle - stopped.t) });
        });
      }
      check('generating while the answer streamed', s.changes.some((x) => x.status === 'generating' && startedAt + x.t * 1000 <= end.t) || statusAt(end.t)?.status === 'generating');
      await sleep(1800);
    },
    deniedEnd: async () => {
      const denyAt = lastAction();
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
    interrupt: async () => {
      await sleep(2500);
      check('still generating 2.5 s into the slow answer', s.driver.getCurrentView()?.state.status === 'generating');
      const stopAt = act('stop').t;
      const r = s.driver.dispatch({ kind: 'click_control', control_id: 'stop' });
      check('the "stop" control is accepted while busy', r.ok, r.reason ?? '');
      const aborted = await server.waitFor((e) => e.event === 'stream_aborted' && e.t >= stopAt, 5000).catch(() => null);
      check('the server saw the stream aborted', aborted !== null);
      await s.waitForState('idle', LIMIT.idleMs + 5000).catch(() => null);
      const idle = firstStatusAfter('idle', stopAt);
      check('idle after the interrupt', idle !== null);
      if (idle !== null) check(`idle within ${LIMIT.idleMs} ms of the interrupt`, idle - stopAt <= LIMIT.idleMs, `${idle - stopAt} ms`);
      await sleep(1800);
    },
    apiError: async () => {
      const err = server.log.find((e) => e.event === 'api_error' && e.t >= lastAction());
      check('the server answered with the scripted error', err !== undefined);
      const shown = await s.waitForState((v) => v.state.status === 'idle' && /API Error: 400/.test(s.driver.snapshot()), 15_000).catch(() => null);
      check('idle with the API error on screen', shown !== null);
      await sleep(1800);
      check('no retry after the 400', server.log.filter((e) => e.event === 'api_error').length === 1 && !server.log.some((e) => e.event === 'stream_start'));
      const signal = s.events.find((e) => e.event.kind === 'signal_detected' && e.event.id === 'api_error');
      check('the api_error signal rule fired', signal !== undefined);
    },
    picker: async () => {
      act('picker_open');
      const r = s.driver.dispatch({ kind: 'click_control', control_id: 'model' });
      check('the "model" control is accepted in idle', r.ok, r.reason ?? '');
      const view = await s.waitForState('picker', 10_000).catch(() => null);
      check('picker state after /model', view !== null);
      check('picker modal kind is picker', view?.modal?.kind === 'picker', String(view?.modal?.kind));
      check('picker title', view?.modal?.title === 'Select Model', JSON.stringify(view?.modal?.title));
      check('picker buttons', JSON.stringify(view?.modal?.buttons?.map((b) => b.label)) === JSON.stringify(PICKER_BUTTONS), JSON.stringify(view?.modal?.buttons?.map((b) => b.label)));
      await sleep(1500);
      const drawn = screen.first('picker shown', actions[actions.length - 1].t);
      const seen = firstStatusAfter('approval', actions[actions.length - 1].t, (x) => x.state === 'picker');
      if (drawn && seen !== null) lat.push({ kind: 'picker_from_screen', ms: Math.max(0, seen - drawn.t) });
      check('the picker is not auto-answered (still open after 1.5 s)', s.driver.getCurrentView()?.state.id === 'picker');
      act('picker_close');
      s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
      const back = await s.waitForState('idle', 5000).catch(() => null);
      check('idle after Esc closed the picker', back !== null);
      await sleep(1500);
    },
  };
  try {
    const ready = await s.waitForState('idle', LIMIT.startMs).catch((e) => { check('reaches idle after start', false, String(e.message).split('\n')[0]); return null; });
    if (ready) {
      check('reaches idle after start', true);
      act('ready');
      await sleep(2000);
      await def.run(c);
      await sleep(500);
    }
  } catch (err) {
    check('session ran without an exception', false, String(err?.message ?? err).split('\n').slice(0, 12).join('\n'));
  }
  const endedAt = Date.now();
  screen.stop();
  for (const f of deferred) f();
  const finalScreen = (() => { try { return s.driver.snapshot(); } catch { return ''; } })();
  await s.stop();
  await server.close();
  actions.sort((a, b) => a.t - b.t);
  const measure = measureSession({ startedAt, endedAt, changes: s.changes, log: server.log, actions });
  if (opts.verbose) {
    const rel = (t) => ((t - startedAt) / 1000).toFixed(3);
    const rows = [
      ...s.changes.map((x) => ({ t: startedAt + x.t * 1000, line: `driver ${x.state} (${x.status})${x.modal ? ` modal=${JSON.stringify(x.modal)}` : ''}` })),
      ...server.log.map((e) => ({ t: e.t, line: `server ${e.event} ${JSON.stringify({ ...e, t: undefined, event: undefined })}` })),
      ...actions.map((a) => ({ t: a.t, line: `lab ${a.what}` })),
      ...screen.marks.map((m) => ({ t: m.t, line: `screen ${m.what}` })),
    ].sort((a, b) => a.t - b.t);
    for (const r of rows) process.stdout.write(`   ${rel(r.t).padStart(8)} ${r.line}\n`);
  }
  if (checks.some((x) => !x.ok)) process.stderr.write(`--- ${def.name}: final screen ---\n${finalScreen}\n`);
  if (opts.recordTo) {
    fs.writeFileSync(path.join(path.resolve(opts.recordTo), `${def.name}.expect.json`), JSON.stringify({ description: `${def.description} (${def.cols}×${def.rows}, Qwen Code ${version}, lab/qwen-code)`, ...def.expect }, null, 2) + '\n');
  }
  if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
  return { name: def.name, cols: def.cols, rows: def.rows, checks, latencies: lat, ...measure, tmp: opts.keep ? tmp : null };
}

/** Entry point for lab/run.mjs. */
export async function main(args) {
  let opts;
  try { opts = parseLabArgs(args, 'qwen-code', PINNED_VERSION); } catch (err) { process.stderr.write(`${err.message}\n`); return 2; }
  const wanted = opts.scenario ? opts.scenario.split(',') : null;
  const sessions = wanted ? SESSIONS.filter((d) => wanted.includes(d.name)) : SESSIONS;
  if (!sessions.length) {
    process.stderr.write(`lab qwen-code: no session named ${JSON.stringify(opts.scenario)}; available: ${SESSIONS.map((d) => d.name).join(', ')}\n`);
    return 2;
  }
  const { binPath, version } = ensureCli('@qwen-code/qwen-code', opts.version, 'qwen');
  const liveMod = await import(pathToFileURL(path.join(repo, 'dist', 'harness', 'live-session.js')).href);
  const specMod = await import(pathToFileURL(path.join(repo, 'dist', 'catalog', 'builtin.js')).href);
  if (opts.recordTo) fs.mkdirSync(path.resolve(opts.recordTo), { recursive: true });
  const ctx = { binPath, version, liveMod, specMod, scenarios: loadChatScenarios(path.join(here, 'scenarios')), opts, modalResults: [], renderDelays: [] };
  const results = [];
  for (const def of sessions) {
    process.stdout.write(`▶ ${def.name} (${def.cols}×${def.rows}) … `);
    const r = await runSession(def, ctx);
    results.push(r);
    const failed = r.checks.filter((x) => !x.ok);
    process.stdout.write(failed.length ? 'FAIL\n' : `ok (${r.checks.length} checks)\n`);
    for (const f of failed) process.stdout.write(`   ✗ ${f.what}${f.detail ? ` — ${f.detail}` : ''}\n`);
    if (r.tmp) process.stdout.write(`   kept ${r.tmp}\n`);
  }
  if (opts.accuracy) {
    const out = writeAccuracyReport({ repo, id: 'qwen-code', cliName: 'Qwen Code', pkg: '@qwen-code/qwen-code', version, results, modalResults: ctx.modalResults, renderDelays: ctx.renderDelays });
    process.stdout.write(`wrote ${path.relative(repo, out)}\n`);
  }
  const failedAll = results.flatMap((r) => r.checks.filter((x) => !x.ok));
  process.stdout.write(`qwen-code ${version}: ${results.length} session(s), ${failedAll.length ? `${failedAll.length} check(s) failed` : 'all checks passed'}\n`);
  return failedAll.length ? 1 : 0;
}
