/**
 * The session runner shared by the labs of CLIs that talk to an OpenAI-compatible provider
 * (lab/<cli>/lab.mjs describes its CLI and calls runChatLab). Each session: a fresh private HOME
 * and workspace, the scripted OpenAI Chat Completions server on loopback, the REAL CLI under
 * specterm (specs/<id>/spec.json) in a real PTY, the session's script, and checks of the live
 * states against what the server and the lab know: generating while a stream is open, approval
 * while a tool call awaits permission, idle after the turn.
 *
 * The CLI description `cli`:
 * - `id`, `cliName`, `pkg`, `bin`, `pinnedVersion`, `scenariosDir`, `models` (ids the server lists);
 * - `prepare({ home, work, tmp, serverUrl })` writes the CLI's config into the private HOME and
 *   returns the CLI's own environment (base URL, dummy key…; never logged);
 * - `marks`: regexes of the screen poll — `spinner` (busy), `approval` (a drawn confirmation),
 *   `picker` (the model picker);
 * - `approvals`: per kind used by the sessions (`c.approval(button, kind)`), `{ title, buttonsOk(labels) }`;
 * - `picker`: `{ title, buttons }` of the model picker the `model` control opens;
 * - `sessions`: `[{ name, cols, rows, description, run(c), expect, ready?, preLaunchTrust? }]` (`ready`: the
 *   state the session starts from, default idle; `preLaunchTrust: false`: spawn without the spec's
 *   pre_launch_trust);
 * - optional `isSideCall(body)`: a streamed request that is the CLI's own side call, not the user's turn;
 * - optional `apiErrorShown`: the regex of the scripted 400 on screen (default /Error: 400\b/);
 * - optional `limits` (see DEFAULT_LIMIT), `settleMs` (the pause after idle before the script) and
 *   `noApprovals` (why the CLI never asks permission; the report says so instead of approval rows).
 * - optional `historyTrees(home)`: `[{from, as}]`, the folders of its history files (for --history-to).
 *
 * Options: --record-to DIR (write <name>.cast + <name>.expect.json), --accuracy (write
 * docs/accuracy/<id>.md), --scenario NAME[,NAME], --keep (keep the temp dirs), --version V,
 * --verbose (print the merged timeline of driver, server, lab and screen events), --history-to DIR
 * (copy the history files and the server's log into DIR/<session>/, lab/lib/copy-history.mjs).
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureCli, recordVerdict } from './install-cli.mjs';
import { loadChatScenarios, startChatServer } from './openai-chat-server.mjs';
import { copyHistory, historyLaunch } from './copy-history.mjs';
import { crawlSession, crawlVersion, runCrawl } from './crawl.mjs';
import { makePrivateSession, measureSession, parseLabArgs, pollScreen, sleep, statusLookups, writeAccuracyReport, writeLabels } from './lab-kit.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Hard check limits: generous waits for the CLI, tighter bounds on what specterm itself adds. */
const DEFAULT_LIMIT = { startMs: 60_000, requestMs: 60_000, toolCallMs: 30_000, confirmDrawnMs: 30_000, approvalMs: 1000, idleMs: 3000, toolResultMs: 30_000 };

/**
 * Starts the real CLI under specterm for one session `def` (`{ name, cols, rows, … }`): a private
 * HOME and workspace, the scripted server, the CLI's config, the spec with the installed binary.
 * `record`: the asciicast path, or null. Used by the sessions below and the crawler (lab/lib/crawl.mjs).
 */
export async function startChatSession(cli, def, ctx, { record = null } = {}) {
  const { binPath, liveMod, specMod, opts } = ctx;
  const { tmp, home, work } = makePrivateSession(cli.id, def.name);
  // A file-writing tool wants an absolute path: the scenario says __WORK__.
  const scenario = JSON.parse(JSON.stringify(ctx.scenarios.basic).replaceAll('__WORK__', work));
  const server = await startChatServer({ scenario, logFile: path.join(tmp, 'server.log'), models: cli.models, isSideCall: cli.isSideCall });
  const cliEnv = cli.prepare({ home, work, tmp, serverUrl: server.url, session: def });
  const loaded = specMod.loadSpecRef(path.join(repo, 'specs', cli.id, 'spec.json'));
  if (!loaded.ok) throw new Error(`specs/${cli.id}/spec.json does not load: ${loaded.errors.join('; ')}`);
  const spec = { ...loaded.spec, binary: binPath };
  const startedAt = Date.now();
  const launch = opts.historyTo ? historyLaunch(spec) : { id: null, args: [] };
  const s = liveMod.startLiveSession({
    spec, cwd: work, cols: def.cols, rows: def.rows, record: record ?? path.join(tmp, `${def.name}.cast`), homeDir: home, extraArgs: launch.args,
    // A session may run without the spec's pre_launch_trust (`preLaunchTrust: false`) to show the dialog it prevents.
    applyTrust: def.preLaunchTrust !== false,
    // NPM_CONFIG_PREFIX in the temp dir: a CLI that updates itself with `npm install -g` cannot touch the machine.
    extraEnv: { HOME: home, NPM_CONFIG_PREFIX: path.join(tmp, 'npm-global'), TERM: 'xterm-256color', COLORTERM: 'truecolor', NO_BROWSER: '1', ...cliEnv },
  });
  return { s, tmp, home, work, server, launch, startedAt };
}

/** Runs one session; returns its measurements and check results. */
async function runSession(cli, def, ctx) {
  const { opts, version } = ctx;
  const limit = { ...DEFAULT_LIMIT, ...cli.limits };
  const record = opts.recordTo ? path.join(path.resolve(opts.recordTo), `${def.name}.cast`) : null;
  const { s, tmp, home, work, server, launch, startedAt } = await startChatSession(cli, def, ctx, { record });
  const checks = [];
  const actions = [];
  const check = (what, ok, detail = '') => { checks.push({ what, ok: Boolean(ok), detail }); };
  const act = (what) => { const a = { t: Date.now(), what }; actions.push(a); return a; };
  const screen = pollScreen(s.driver, cli.marks);
  const { statusAt, firstStatusAfter } = statusLookups(s.changes, startedAt);
  const lat = [];
  const deferred = [];
  const lastAction = () => actions[actions.length - 1].t;
  const c = {
    s, check, work, home, act,
    prompt: async (text, { expectStream = true } = {}) => {
      const submitAt = act('submit').t;
      const r = s.driver.dispatch({ kind: 'send_message', text });
      check(`send_message "${text}" accepted`, r.ok, r.reason ?? '');
      const req = await server.waitFor((e) => (e.event === 'stream_start' || e.event === 'api_error') && e.t >= submitAt, limit.requestMs).catch(() => null);
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
      const pending = await server.waitFor((e) => e.event === 'tool_call_pending' && e.t >= lastAction(), limit.toolCallMs);
      // A permission the spec reads as its own state (Kilo's sandbox escalation: kind confirm) names it.
      const view = await s.waitForState(cli.approvals[which]?.state ?? 'approval', limit.confirmDrawnMs).catch(() => null);
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
        check(`approval detected within ${limit.approvalMs} ms of the confirmation being drawn`, seen - drawn.t <= limit.approvalMs, `${seen - drawn.t} ms`);
      }
      // From the server's side this includes the CLI's own delay before it asks, reported apart.
      if (seen !== null) lat.push({ kind: 'approval', ms: Math.max(0, seen - pending.t) });
      const m = s.driver.getCurrentView()?.modal;
      const labels = m?.buttons?.map((b) => b.label) ?? [];
      const { title, buttonsOk: okFor } = cli.approvals[which];
      const buttonsOk = okFor(labels);
      check('approval buttons are the CLI\'s options', buttonsOk, JSON.stringify(labels));
      check('approval title', m?.title === title, JSON.stringify(m?.title));
      check('approval modal kind is approval', m?.kind === 'approval', String(m?.kind));
      ctx.modalResults.push({ session: def.name, ok: buttonsOk && m?.title === title });
      // 'deny': the CLI's own "No…" option, wherever the confirmation puts it.
      const index = button === 'deny' ? labels.findIndex((l) => /^No\b/.test(l)) + 1 : button;
      check('the confirmation has the button the session presses', index >= 1 && index <= labels.length, `${button} in ${JSON.stringify(labels)}`);
      const answerAt = act(index === 1 ? 'approve' : 'deny').t;
      const r = s.driver.dispatch({ kind: 'click_modal_button', index, label: labels[index - 1] });
      check(`click_modal_button ${index} accepted`, r.ok, r.reason ?? '');
      if (index === 1) {
        const res = await server.waitFor((e) => e.event === 'tool_result' && e.t >= answerAt, limit.toolResultMs).catch(() => null);
        check('the server received the tool result after the approval', res !== null);
      }
    },
    /** A tool the CLI runs without asking (pi has no permission prompts): the result reaches the server, no approval state. */
    unaskedTool: async () => {
      const submitAt = lastAction();
      const pending = await server.waitFor((e) => e.event === 'tool_call_pending' && e.t >= submitAt, 30_000);
      const res = await server.waitFor((e) => e.event === 'tool_result' && e.t >= pending.t, 30_000).catch(() => null);
      check('the server received the tool result with no user answer', res !== null);
      check('no approval state: the CLI did not ask', !s.changes.some((x) => x.status === 'approval' && startedAt + x.t * 1000 >= submitAt));
    },
    turnEnd: async () => {
      const since = lastAction();
      const end = await server.waitFor((e) => e.event === 'stream_end' && !e.toolCall && e.t >= since, 60_000);
      await s.waitForState((v) => v.state.status === 'idle', limit.idleMs + 10_000).catch(() => null);
      const idle = firstStatusAfter('idle', end.t);
      check('idle after the turn ended', idle !== null);
      if (idle !== null) {
        lat.push({ kind: 'idle', ms: idle - end.t });
        check(`idle within ${limit.idleMs} ms of the turn's end`, idle - end.t <= limit.idleMs, `${idle - end.t} ms`);
        deferred.push(() => {
          const stopped = screen.first('spinner gone', end.t - 100);
          if (stopped) lat.push({ kind: 'idle_from_screen', ms: Math.max(0, idle - stopped.t) });
        });
      }
      check('generating while the answer streamed', s.changes.some((x) => x.status === 'generating' && startedAt + x.t * 1000 <= end.t) || statusAt(end.t)?.status === 'generating');
      await sleep(1800);
    },
    /** A start-up gate (folder trust): kind confirm, the given buttons; press `button`, then idle. */
    gate: async (buttons, button = 1) => {
      const m = s.driver.getCurrentView()?.modal;
      const labels = m?.buttons?.map((b) => b.label) ?? [];
      check('gate buttons', JSON.stringify(labels) === JSON.stringify(buttons), JSON.stringify(labels));
      check('gate kind is confirm (a start-up gate no auto-approve policy answers)', m?.kind === 'confirm', String(m?.kind));
      ctx.modalResults.push({ session: def.name, ok: JSON.stringify(labels) === JSON.stringify(buttons) && m?.kind === 'confirm' });
      act('gate_answered');
      const r = s.driver.dispatch({ kind: 'click_modal_button', index: button, label: labels[button - 1] });
      check(`click_modal_button ${button} accepted`, r.ok, r.reason ?? '');
      const back = await s.waitForState('idle', limit.startMs).catch(() => null);
      check('idle after the gate was answered', back !== null);
      await sleep(1500);
    },
    /** An ordinary answer that must never be taken for a modal (a plain numbered list, say). */
    noModalTurn: async (text, shown) => {
      await c.prompt(text);
      await c.turnEnd();
      check('the answer is on screen', shown.test(s.driver.snapshot()));
      check('never a modal during the session', !s.changes.some((x) => x.modal));
    },
    deniedEnd: async () => {
      const denyAt = lastAction();
      await s.waitForState((v) => v.state.status === 'idle', limit.idleMs + 5000).catch(() => null);
      const idle = firstStatusAfter('idle', denyAt);
      check('idle after the denial', idle !== null);
      if (idle !== null) {
        lat.push({ kind: 'idle', ms: idle - denyAt });
        check(`idle within ${limit.idleMs} ms of the denial`, idle - denyAt <= limit.idleMs, `${idle - denyAt} ms`);
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
      await s.waitForState('idle', limit.idleMs + 5000).catch(() => null);
      const idle = firstStatusAfter('idle', stopAt);
      check('idle after the interrupt', idle !== null);
      if (idle !== null) check(`idle within ${limit.idleMs} ms of the interrupt`, idle - stopAt <= limit.idleMs, `${idle - stopAt} ms`);
      await sleep(1800);
    },
    apiError: async () => {
      const err = server.log.find((e) => e.event === 'api_error' && e.t >= lastAction());
      check('the server answered with the scripted error', err !== undefined);
      const shown = await s.waitForState((v) => v.state.status === 'idle' && (cli.apiErrorShown ?? /Error: 400\b/).test(s.driver.snapshot()), 15_000).catch(() => null);
      check('idle with the API error on screen', shown !== null);
      await sleep(1800);
      check('no retry after the 400', server.log.filter((e) => e.event === 'api_error').length === 1 && !server.log.some((e) => e.event === 'stream_start'));
      const signal = s.events.find((e) => e.event.kind === 'signal_detected' && e.event.id === 'api_error');
      check('the api_error signal rule fired', signal !== undefined);
    },
    /**
     * Opens a menu and closes it with Esc: by default the spec's "model" control (`cli.picker`
     * says what it shows); `{ command, title, buttons }` types another slash command instead
     * (key by key, then Enter, as a person does) and checks its own title and buttons; `{ keys }`
     * writes a key chord instead (OpenCode's command palette: ctrl+p). `buttons: null` skips the
     * buttons check; `state` is the spec state (or the list of states) the menu may be read as
     * (default picker).
     */
    picker: async (menu = {}) => {
      const want = { title: menu.title ?? cli.picker.title, buttons: 'buttons' in menu ? menu.buttons : cli.picker.buttons };
      if (menu.keys) {
        act('picker_open');
        s.driver.dispatch({ kind: 'pty_write', data: menu.keys });
      } else if (menu.command) {
        for (const ch of menu.command) {
          s.driver.dispatch({ kind: 'pty_write', data: ch });
          await sleep(60);
        }
        await sleep(400);
        act('picker_open');
        s.driver.dispatch({ kind: 'pty_write', data: '\r' });
      } else {
        act('picker_open');
        const r = s.driver.dispatch({ kind: 'click_control', control_id: 'model' });
        check('the "model" control is accepted in idle', r.ok, r.reason ?? '');
      }
      const states = [menu.state ?? 'picker'].flat();
      const isMenu = (id) => states.includes(id);
      const view = await s.waitForState((v) => isMenu(v.state.id), 10_000).catch(() => null);
      check(`picker state after ${menu.command ?? (menu.keys ? JSON.stringify(menu.keys) : '/model')}`, view !== null);
      check('picker modal kind is picker', view?.modal?.kind === 'picker', String(view?.modal?.kind));
      check('picker title', view?.modal?.title === want.title, JSON.stringify(view?.modal?.title));
      await sleep(1500);
      // The buttons of the picker as drawn, not of its first frame: a dialog may paint its list
      // before the model list has loaded (Kilo's first frame lists its gateway's models).
      const shown = s.driver.getCurrentView()?.modal?.buttons?.map((b) => b.label);
      if (want.buttons) check('picker buttons', JSON.stringify(shown) === JSON.stringify(want.buttons), JSON.stringify(shown));
      const drawn = screen.first('picker shown', actions[actions.length - 1].t);
      const seen = firstStatusAfter('approval', actions[actions.length - 1].t, (x) => isMenu(x.state));
      if (drawn && seen !== null) lat.push({ kind: 'picker_from_screen', ms: Math.max(0, seen - drawn.t) });
      check('the picker is not auto-answered (still open after 1.5 s)', isMenu(s.driver.getCurrentView()?.state.id));
      act('picker_close');
      s.driver.dispatch({ kind: 'pty_write', data: '\u001b' });
      const back = await s.waitForState('idle', 5000).catch(() => null);
      check('idle after Esc closed the picker', back !== null);
      await sleep(1500);
    },
  };
  try {
    // A session that starts at a start-up gate (`ready: 'trust'`) waits for that state instead of idle.
    const first = def.ready ?? 'idle';
    const ready = await s.waitForState(first, limit.startMs).catch((e) => { check(`reaches ${first} after start`, false, String(e.message).split('\n')[0]); return null; });
    if (ready) {
      check(`reaches ${first} after start`, true);
      act(first === 'idle' ? 'ready' : `ready_${first}`);
      await sleep(cli.settleMs ?? 2000);
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
    fs.writeFileSync(path.join(path.resolve(opts.recordTo), `${def.name}.expect.json`), JSON.stringify({ description: `${def.description} (${def.cols}×${def.rows}, ${cli.cliName} ${version}, lab/${cli.id})`, ...def.expect }, null, 2) + '\n');
    writeLabels(path.resolve(opts.recordTo), def.name, { intervals: measure.intervals, source: `lab/${cli.id} ${cli.cliName} ${version}: the server's log and the lab's actions` });
  }
  // --history-to: the history trees the CLI says it keeps (`cli.historyTrees(home)`) and the server's log.
  if (opts.historyTo && cli.historyTrees) copyHistory({ trees: cli.historyTrees(home), dir: path.join(opts.historyTo, def.name), log: { cli: cli.id, version, cwd: fs.realpathSync(work), session_id: launch.id, events: server.log } });
  if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
  return { name: def.name, cols: def.cols, rows: def.rows, checks, latencies: lat, ...measure, tmp: opts.keep ? tmp : null };
}

/**
 * Runs a lab: `cli` describes the CLI (see the module doc), `args` are the lab options.
 * @returns {Promise<number>} the exit code: 0 only if every check passed.
 */
export async function runChatLab(cli, args) {
  if (args.includes('--crawl')) return crawlChatCli(cli, args);
  let opts;
  try { opts = parseLabArgs(args, cli.id, cli.pinnedVersion); } catch (err) { process.stderr.write(`${err.message}\n`); return 2; }
  const wanted = opts.scenario ? opts.scenario.split(',') : null;
  const sessions = wanted ? cli.sessions.filter((d) => wanted.includes(d.name)) : cli.sessions;
  if (!sessions.length) {
    process.stderr.write(`lab ${cli.id}: no session named ${JSON.stringify(opts.scenario)}; available: ${cli.sessions.map((d) => d.name).join(', ')}\n`);
    return 2;
  }
  const { binPath, version } = ensureCli(cli.pkg, opts.version, cli.bin);
  const liveMod = await import(pathToFileURL(path.join(repo, 'dist', 'harness', 'live-session.js')).href);
  const specMod = await import(pathToFileURL(path.join(repo, 'dist', 'catalog', 'builtin.js')).href);
  if (opts.recordTo) fs.mkdirSync(path.resolve(opts.recordTo), { recursive: true });
  const ctx = { binPath, version, liveMod, specMod, scenarios: loadChatScenarios(cli.scenariosDir), opts, modalResults: [], renderDelays: [] };
  const results = [];
  for (const def of sessions) {
    process.stdout.write(`▶ ${def.name} (${def.cols}×${def.rows}) … `);
    const r = await runSession(cli, def, ctx);
    results.push(r);
    const failed = r.checks.filter((x) => !x.ok);
    recordVerdict(def.name, failed.length === 0);
    process.stdout.write(failed.length ? 'FAIL\n' : `ok (${r.checks.length} checks)\n`);
    for (const f of failed) process.stdout.write(`   ✗ ${f.what}${f.detail ? ` — ${f.detail}` : ''}\n`);
    if (r.tmp) process.stdout.write(`   kept ${r.tmp}\n`);
  }
  if (opts.accuracy) {
    const out = writeAccuracyReport({ repo, id: cli.id, cliName: cli.cliName, pkg: cli.pkg, version, results, modalResults: ctx.modalResults, renderDelays: ctx.renderDelays, noApprovals: cli.noApprovals ?? null });
    process.stdout.write(`wrote ${path.relative(repo, out)}\n`);
  }
  const failedAll = results.flatMap((r) => r.checks.filter((x) => !x.ok));
  process.stdout.write(`${cli.id} ${version}: ${results.length} session(s), ${failedAll.length ? `${failedAll.length} check(s) failed` : 'all checks passed'}\n`);
  return failedAll.length ? 1 : 0;
}

/** `--crawl`: the crawler (lab/lib/crawl.mjs) over this CLI, each crawl session started as a lab session is. */
async function crawlChatCli(cli, args) {
  const { binPath, version } = ensureCli(cli.pkg, crawlVersion(args, cli.pinnedVersion), cli.bin);
  const liveMod = await import(pathToFileURL(path.join(repo, 'dist', 'harness', 'live-session.js')).href);
  const specMod = await import(pathToFileURL(path.join(repo, 'dist', 'catalog', 'builtin.js')).href);
  const ctx = { binPath, version, liveMod, specMod, scenarios: loadChatScenarios(cli.scenariosDir), opts: {} };
  const start = async (def, { record = null } = {}) => {
    const live = await startChatSession(cli, def, ctx, { record });
    return crawlSession(live.s, async () => { await live.server.close(); fs.rmSync(live.tmp, { recursive: true, force: true }); });
  };
  return runCrawl({ cli, version, args, start });
}
