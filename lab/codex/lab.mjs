/**
 * The Codex CLI conformance lab: `npm run lab -- codex [options]`.
 *
 * Installs a pinned `@openai/codex` into the lab cache (outside the repo), starts the scripted
 * Responses API server (`server.mjs`), runs the REAL Codex CLI in a real PTY under specterm with
 * the built-in `codex` spec (recording on), drives each scenario of `scenarios/*.json` and checks
 * the live states against the server's ground truth:
 *   - generating while the server streams a turn,
 *   - approval (with the exact buttons) while a function call awaits permission,
 *   - idle promptly after the turn's last stream ended,
 *   - no state change that no ground-truth change explains (flaps).
 *
 * Options: --version X (default the pinned version), --scenario NAME (repeatable),
 * --record-to DIR (write <name>.cast + <name>.expect.json, checked by replay first),
 * --accuracy (write docs/accuracy/codex.md), --keep (keep the temp dirs), --verbose,
 * --history-to DIR (copy the rollout files Codex wrote, CODEX_HOME/sessions, into DIR/<scenario>/
 * with the server's log as server-log.json: the transcript parser's fixtures and their ground truth),
 * --crawl (the crawler instead of the scenarios: crawl-start.mjs, lab/lib/crawl.mjs).
 * Exit code 0 only when every check passed.
 *
 * Privacy: every run gets a fresh HOME and CODEX_HOME (mode 0700) under the OS temp dir; the
 * dummy API key is only in the child's ENVIRONMENT (variable LAB_CODEX_KEY), never on a command
 * line or in a log.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCli, recordVerdict } from '../lib/install-cli.mjs';
import { pollScreen, writeLabels } from '../lib/lab-kit.mjs';
import { checkKeys, keyLabels, mergeLabels, runKeys } from './key-script.mjs';
import { checkRequirements } from './managed-requirements.mjs';
import { loadScenario } from './server.mjs';
import { endDaemons, SPEC_PATH, startCodexSession } from './session.mjs';
import { checkUpdateNotice, verifyUpdateNotice } from './update-notice.mjs';
import { crawlCodex } from './crawl-start.mjs';
import { copyHistory as copyHistoryTrees } from '../lib/copy-history.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
/** The version the spec is proven on; `--version` tries another one. */
export const PINNED_VERSION = '0.171.0';
/** The provider config, for lab/mcp-setup (it lives with the session start). */
export { writeCodexConfig } from './session.mjs';

/** Live-check bounds (generous: a real PTY on a shared machine). The accuracy report shows the real figures. */
const BOUNDS = { generatingMs: 1000, approvalMs: 1500, idleMs: 2500, flapWindowMs: 2500 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function parseArgs(args) {
  const o = { version: PINNED_VERSION, scenarios: [], recordTo: null, historyTo: null, accuracy: false, keep: false, verbose: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--version') o.version = value();
    else if (a === '--scenario') o.scenarios.push(value());
    else if (a === '--record-to') o.recordTo = resolve(value());
    else if (a === '--accuracy') o.accuracy = true;
    else if (a === '--keep') o.keep = true;
    else if (a === '--history-to') o.historyTo = resolve(value());
    else if (a === '--verbose') o.verbose = true;
    else throw new Error(`unknown option ${JSON.stringify(a)} (options: --version X, --scenario NAME, --record-to DIR, --history-to DIR, --accuracy, --keep, --verbose)`);
  }
  return o;
}

/** All scenario files, by name. */
function listScenarios() {
  const dir = join(here, 'scenarios');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const sc = loadScenario(join(dir, f));
    if (sc.keys) checkKeys(sc.keys, join(dir, f));
    if (sc.requirements !== undefined) checkRequirements(sc.requirements, join(dir, f));
    if (sc.update_notice !== undefined) checkUpdateNotice(sc.update_notice, join(dir, f));
    return sc;
  });
}

/** Replaces "$key" strings in an expectation by the scenario's fields (e.g. "$expect_modal"). */
function expandExpect(value, scenario) {
  if (typeof value === 'string' && value.startsWith('$')) return scenario[value.slice(1)];
  if (Array.isArray(value)) return value.map((v) => expandExpect(v, scenario));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandExpect(v, scenario)]));
  return value;
}

function percentile(values, p) {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** The driver's status at absolute time `t` from the change list (absolute ms). */
function statusAt(changes, t) {
  let cur = null;
  for (const c of changes) {
    if (c.at <= t) cur = c;
    else break;
  }
  return cur;
}

/**
 * Runs one scenario against the real CLI. Returns the checks, the measurements and the paths.
 */
async function runScenario(scenario, ctx) {
  const { verbose } = ctx;
  // A denial ends the turn (Codex aborts it), except where Codex hands the denial to the model
  // as the tool's result (`deny_continues`: Cancel on an MCP tool call) and the turn goes on.
  const endsTurn = Boolean(scenario.answer && scenario.answer !== 1 && !scenario.deny_continues);
  const marks = []; // lab actions with absolute times
  const mark = (what, extra = {}) => marks.push({ t: Date.now(), what, ...extra });
  const checks = [];
  const check = (ok, what) => {
    checks.push({ ok: !!ok, what });
    if (verbose || !ok) process.stderr.write(`  ${ok ? 'ok  ' : 'FAIL'} ${scenario.name}: ${what}\n`);
  };

  const { s, root, server, mcpLog, update, castPath } = await startCodexSession(scenario, ctx);
  const sessionStart = Date.now() - s.elapsedMs();
  mark('spawn');
  // When the approval is on screen: its label starts there, as in lab/lib/lab-kit.mjs (Codex's own draw time is not ours).
  const screen = pollScreen(s.driver, { approval: /Press enter to confirm or esc to cancel/ });
  const fail = (err) => check(false, `driving the CLI: ${String(err?.message ?? err).split('\n').slice(0, 40).join('\n')}`);
  try {
    if (scenario.no_provider) {
      await s.waitForState('picker', 30_000);
    } else if (scenario.trust_gate) {
      await s.waitForState('trust', 30_000);
      mark('ready_trust');
      await sleep(1500); // a human reads the gate
      mark('gate_answered');
      s.driver.dispatch({ kind: 'click_modal_button', index: 1, label: s.driver.getCurrentView()?.modal?.buttons?.[0]?.label });
      await s.waitForState('idle', 30_000);
    } else {
      await s.waitForState(scenario.start_state ?? 'idle', 30_000);
    }
    mark('ready');
    if (scenario.prompt || scenario.picker || (scenario.keys && !scenario.start_state)) {
      // Codex draws its composer long before it reads input (on a loaded machine 10 s and more);
      // it sets the window title when its start-up is done. Typing earlier shows "Waiting for
      // startup" and loses Enters, so wait for the title, as a person waits for the prompt.
      const deadline = Date.now() + 60_000;
      while (!s.driver.screen.windowTitle && Date.now() < deadline) await sleep(50);
      mark('input_ready');
    }
    if (scenario.prompt) {
      // Codex 0.171 draws its composer ~1 s after start but may not read input for a few more
      // seconds (its start-up blocks the input loop; Enters typed then are lost). So type the
      // prompt, wait until Codex has echoed it, then press Enter.
      // Typing during Codex's start-up shows its "Waiting for startup · esc cancel" row (busy).
      mark('typed');
      s.driver.dispatch({ kind: 'pty_write', data: scenario.prompt });
      await s.waitForScreen(new RegExp(`› ${scenario.prompt}`), 20_000);
      await sleep(300);
      s.driver.dispatch({ kind: 'pty_write', data: '\r' });
      mark('prompt');
      const callStep = scenario.steps.find((st) => ['function_call', 'patch', 'mcp_call'].includes(st.kind));
      if (callStep && scenario.answer) {
        await s.waitForState('approval', 30_000);
        await sleep(1200); // a human reads the prompt
        const modal = s.driver.getCurrentView()?.modal;
        const button = modal?.buttons?.find((b) => b.index === scenario.answer);
        mark('answer', { index: scenario.answer });
        const clicked = s.driver.dispatch({ kind: 'click_modal_button', index: scenario.answer, label: button?.label });
        if (clicked && clicked.ok === false) check(false, `answering button ${scenario.answer}: ${clicked.code} ${clicked.reason}`);
      }
      // The turn is over once the server streamed every step (or the deny ended it) and the
      // driver settled; wait for idle, then let the tail show that it stays idle.
      const deadline = Date.now() + 40_000;
      while (Date.now() < deadline) {
        const streamed = server.log.filter((e) => e.event === 'stream_end' || e.event === 'error_reply').length;
        const denied = endsTurn && marks.some((m) => m.what === 'answer');
        if (streamed >= scenario.steps.length || (denied && Date.now() - marks.at(-1).t > 1500)) break;
        await sleep(100);
      }
      await s.waitForState('idle', 15_000);
      await sleep(2500);
    } else if (scenario.picker) {
      await sleep(800);
      mark('picker_open');
      // Typed key by key: Codex treats a burst of bytes as a paste and would not open the popup.
      // The first key waits for Codex to read input at all (see the prompt case above).
      mark('typed');
      s.driver.dispatch({ kind: 'pty_write', data: scenario.picker[0] });
      await s.waitForScreen(/(?:^|\n)› \//, 20_000);
      await sleep(1000);
      for (const ch of scenario.picker.slice(1)) {
        s.driver.dispatch({ kind: 'pty_write', data: ch });
        await sleep(60);
      }
      await sleep(250);
      mark('picker_enter');
      s.driver.dispatch({ kind: 'pty_write', data: '\r' });
      await s.waitForState('picker', 10_000);
      await sleep(1500);
      mark('picker_close');
      s.driver.dispatch({ kind: 'pty_write', data: '\x1b' });
      await s.waitForState('idle', 10_000);
      await sleep(2000);
    } else if (scenario.keys) {
      await sleep(800);
      await runKeys(s, scenario.keys, { mark, check });
    } else {
      await sleep(3000);
    }
  } catch (err) {
    fail(err);
  }
  mark('stop');
  screen.stop();
  await s.stop();
  await server.close();
  endDaemons(root);

  // ── Checks against the server's ground truth ───────────────────────────────
  const requested = server.log.filter((e) => e.event === 'request').length;
  const needed = endsTurn ? scenario.steps.length - 1 : scenario.steps.length;
  check(requested >= needed, `the server served every scripted step (${requested} model requests, ${needed} needed)`);
  const buttonsRight = [];
  const changes = s.changes.map((c) => ({ ...c, at: sessionStart + Math.round(c.t * 1000) }));
  if (update) buttonsRight.push(verifyUpdateNotice(update, scenario, changes, check));
  const log = server.log;
  const streams = [];
  for (const e of log) {
    if (e.event === 'stream_start') streams.push({ id: e.id, step: e.step, start: e.t, end: null });
    if (e.event === 'stream_end') {
      const st = streams.find((x) => x.id === e.id);
      if (st) st.end = e.t;
    }
  }
  const pendingAt = log.find((e) => e.event === 'tool_call_pending')?.t ?? null;
  const resultAt = log.find((e) => e.event === 'tool_result')?.t ?? null;
  const answerAt = marks.find((m) => m.what === 'answer')?.t ?? null;
  const firstChangeAfter = (t, pred) => changes.find((c) => c.at >= t && pred(c)) ?? null;
  const latencies = { generating: [], approval: [], idle: [] };
  /** Labelled intervals [from, to) with the status the driver should show. */
  const labels = [];

  const textStreams = streams.filter((x) => x.step === 'text' && x.end);
  for (const st of textStreams) {
    labels.push({ from: st.start, to: st.end, status: 'generating' });
    const c = statusAt(changes, st.start)?.status === 'generating' ? { at: st.start } : firstChangeAfter(st.start, (x) => x.status === 'generating');
    if (c) latencies.generating.push(Math.max(0, c.at - st.start));
    check(c && c.at - st.start <= BOUNDS.generatingMs, `generating within ${BOUNDS.generatingMs} ms of stream ${st.id} starting (${c ? `${Math.max(0, c.at - st.start)} ms` : 'never'})`);
    if (st.end - st.start > 800) {
      const bad = changes.filter((x) => x.at > st.start + BOUNDS.generatingMs && x.at < st.end && x.status !== 'generating');
      check(bad.length === 0, `stays generating while stream ${st.id} streams (${bad.map((b) => `${b.state}@${b.at - st.start}ms`).join(', ') || 'no other state'})`);
    }
  }
  if (pendingAt) {
    const until = answerAt ?? resultAt ?? marks.at(-1).t;
    labels.push({ from: Math.min(screen.first('approval shown', pendingAt)?.t ?? pendingAt, until), to: until, status: 'approval' });
    const c = firstChangeAfter(pendingAt, (x) => x.status === 'approval');
    if (c) latencies.approval.push(c.at - pendingAt);
    check(c && c.at - pendingAt <= BOUNDS.approvalMs, `approval within ${BOUNDS.approvalMs} ms of the tool call awaiting permission (${c ? `${c.at - pendingAt} ms` : 'never'})`);
    const during = changes.filter((x) => x.at >= (c?.at ?? pendingAt) && x.at < until);
    const flips = during.filter((x) => x.status !== 'approval');
    check(flips.length === 0, `stays in approval until answered (${flips.map((b) => b.state).join(', ') || 'yes'})`);
    const want = scenario.expect_modal?.buttons;
    if (want && c) {
      const got = (c.modal?.buttons ?? []).map((b) => b.label);
      const ok = JSON.stringify(got) === JSON.stringify(want) && c.modal?.title === scenario.expect_modal.title;
      buttonsRight.push(ok);
      check(ok, `approval modal buttons exact: ${JSON.stringify(c.modal)}`);
    } else if (c) {
      buttonsRight.push((c.modal?.buttons?.length ?? 0) >= 2);
      check((c.modal?.buttons?.length ?? 0) >= 2, `approval modal has buttons: ${JSON.stringify(c.modal)}`);
    }
    if (scenario.answer === 1) check(resultAt, 'the approved tool result reached the server');
    if (scenario.mcp) {
      // The MCP server's own log is the proof of what the answer did: a call only once allowed.
      const calls = existsSync(mcpLog) ? readFileSync(mcpLog, 'utf8').split('\n').filter((l) => l.includes('"method":"tools/call"')).length : 0;
      if (scenario.answer === 1) check(calls === 1, `the MCP server got the allowed tools/call (${calls} calls)`);
      else check(calls === 0, `the MCP server got no tools/call after the denial (${calls} calls)`);
    }
  }
  // The turn's end: the last stream's end, or the deny (Codex aborts the turn without a request).
  const lastStreamEnd = streams.filter((x) => x.end).map((x) => x.end).at(-1) ?? null;
  // An API error ends the turn when Codex gets it (it does not retry a 400 or a usage limit).
  const errorAt = log.filter((e) => e.event === 'error_reply').map((e) => e.t).at(-1) ?? null;
  let turnEnd = null;
  if (scenario.prompt) turnEnd = endsTurn ? answerAt : (errorAt ?? lastStreamEnd);
  if (turnEnd) {
    const stopAt = marks.find((m) => m.what === 'stop').t;
    labels.push({ from: turnEnd + 1500, to: stopAt, status: 'idle' });
    const c = firstChangeAfter(turnEnd, (x) => x.status === 'idle');
    if (c) latencies.idle.push(c.at - turnEnd);
    check(c && c.at - turnEnd <= BOUNDS.idleMs, `idle within ${BOUNDS.idleMs} ms of the turn's end (${c ? `${c.at - turnEnd} ms` : 'never'})`);
    const last = changes.at(-1);
    check(last?.status === 'idle', `ends idle (last state ${last?.state})`);
  }
  if (scenario.picker) {
    const open = marks.find((m) => m.what === 'picker_open')?.t ?? sessionStart;
    const close = marks.find((m) => m.what === 'picker_close')?.t ?? marks.at(-1).t;
    const p = firstChangeAfter(open, (x) => x.state === 'picker');
    check(p && p.modal?.kind === 'picker', `picker (kind picker) after ${scenario.picker}: ${JSON.stringify(p?.modal ?? null)}`);
    const entered = marks.find((m) => m.what === 'picker_enter')?.t ?? open;
    labels.push({ from: entered + 1000, to: close, status: 'approval' });
    const back = firstChangeAfter(close, (x) => x.state === 'idle');
    check(back, 'idle after Esc closed the picker');
    if (back) latencies.idle.push(back.at - close);
    labels.push({ from: close + 1500, to: marks.find((m) => m.what === 'stop').t, status: 'idle' });
    const want = scenario.expect.sequence.find((st) => st.state === 'picker')?.modal;
    if (want?.buttons && p) {
      const ok = JSON.stringify(p.modal?.buttons?.map((b) => b.label)) === JSON.stringify(want.buttons) && p.modal?.title === want.title;
      buttonsRight.push(ok);
      check(ok, `picker title and buttons exact: ${JSON.stringify(p.modal)}`);
    }
    check(!s.events.some((e) => e.event.kind === 'command_refused'), 'no command refused');
  }
  if (scenario.trust_gate) {
    const shown = marks.find((m) => m.what === 'ready_trust')?.t ?? null;
    const answered = marks.find((m) => m.what === 'gate_answered')?.t ?? null;
    const gate = changes.find((x) => x.state === 'trust');
    const want = scenario.expect.sequence.find((st) => st.state === 'trust').modal;
    const ok = gate && gate.modal?.kind === 'confirm' && gate.modal?.title === want.title && JSON.stringify(gate.modal.buttons.map((b) => b.label)) === JSON.stringify(want.buttons);
    buttonsRight.push(Boolean(ok));
    check(ok, `the trust gate is kind confirm with its title and buttons: ${JSON.stringify(gate?.modal ?? null)}`);
    if (shown && answered) labels.push({ from: shown, to: answered, status: 'approval' });
    const back = answered ? firstChangeAfter(answered, (x) => x.status === 'idle') : null;
    check(back, 'idle once the folder is trusted');
    if (back) {
      latencies.idle.push(back.at - answered);
      labels.push({ from: answered + 1500, to: marks.find((m) => m.what === 'stop').t, status: 'idle' });
    }
  }
  if (scenario.no_provider) {
    const p = changes.find((x) => x.state === 'picker');
    check(p && p.modal?.kind === 'picker', `sign-in chooser read as a picker: ${JSON.stringify(p?.modal ?? null)}`);
    const want = scenario.expect.sequence.at(-1).modal.buttons;
    check(p && JSON.stringify(p.modal.buttons.map((b) => b.label)) === JSON.stringify(want), 'sign-in chooser buttons exact');
  }
  if (scenario.keys) {
    const stopAt = marks.find((m) => m.what === 'stop').t;
    // A start-up menu (the resume picker) is on screen from the first read until the first key.
    const ready = marks.find((m) => m.what === 'ready')?.t;
    const firstKey = marks.find((m) => m.what === 'key')?.t;
    if (scenario.start_state && ready && firstKey) labels.push({ from: ready, to: firstKey, status: 'approval' });
    labels.push(...keyLabels(marks, stopAt, textStreams));
    // The answer to a question reaches the model as the tool's output: the server's log proves it.
    if (scenario.expect_tool_result) {
      // Any tool's output: the answered prompt may follow an earlier call (terminal-input).
      const outs = log.filter((e) => e.event === 'tool_result').map((e) => e.output);
      const out = outs.find((o) => o?.includes(scenario.expect_tool_result)) ?? outs.at(-1) ?? null;
      check(out?.includes(scenario.expect_tool_result), `the answer reached the model: ${out}`);
    }
    check(changes.at(-1)?.state === scenario.keys.at(-1).state, `ends ${scenario.keys.at(-1).state} (changes: ${changes.map((c) => c.state).join(' → ')})`);
    check(!s.events.some((e) => e.event.kind === 'command_refused'), 'no command refused');
  }
  if (!scenario.prompt && !scenario.picker && !scenario.no_provider && !scenario.trust_gate && !scenario.keys) {
    check(changes.at(-1)?.state === 'idle', `start → idle (changes: ${changes.map((c) => c.state).join(' → ')})`);
    const ready = marks.find((m) => m.what === 'ready')?.t;
    if (ready) labels.push({ from: ready + 1500, to: marks.find((m) => m.what === 'stop').t, status: 'idle' });
  }
  // Flaps: a committed change with no ground-truth change (server event or lab action) in the
  // window before it. Startup changes are explained by the spawn.
  const truths = [...log.filter((e) => ['stream_start', 'stream_end', 'tool_call_pending', 'tool_result', 'error_reply'].includes(e.event)).map((e) => e.t), ...marks.map((m) => m.t)];
  // The way to the first ready state is the start-up itself (its length is Codex's, not a flap).
  const readyAt = marks.find((m) => m.what === 'ready')?.t ?? 0;
  const flaps = changes.slice(1).filter((c) => c.at > readyAt && !truths.some((t) => t <= c.at && c.at - t <= BOUNDS.flapWindowMs));
  const startupFlaps = scenario.allow_startup_idle ? flaps.filter((f) => f.state === 'picker' && !changes.some((c) => c.state === 'picker' && c.at < f.at)) : [];
  check(flaps.length - startupFlaps.length === 0, `no flaps${startupFlaps.length ? ' (besides the documented start-up idle before the sign-in chooser)' : ''} (${flaps.map((f) => `${f.state}@${((f.at - sessionStart) / 1000).toFixed(2)}s`).join(', ') || 'none'})`);

  // Fraction of labelled time with the right status (sampled every 10 ms).
  let labelled = 0;
  let right = 0;
  const merged = mergeLabels(labels);
  for (const l of merged) {
    for (let t = l.from; t < l.to; t += 10) {
      labelled += 10;
      if (statusAt(changes, t)?.status === l.status) right += 10;
    }
  }

  return {
    scenario,
    root,
    sessionStart,
    labels: merged,
    castPath,
    checks,
    changes: s.changes,
    serverLog: log,
    latencies,
    labelledMs: labelled,
    rightMs: right,
    buttonsRight,
    flaps: flaps.length,
  };
}

/** Copies the rollout files of a run (CODEX_HOME/sessions, layout kept) and the server's log into `dir`. */
function copyHistory(result, dir) {
  const log = { cli: 'codex', version: result.version, cwd: join(result.root, 'project'), events: result.serverLog };
  copyHistoryTrees({ trees: [{ from: join(result.root, 'home', '.codex', 'sessions'), as: 'sessions' }], dir, log });
  process.stderr.write(`  history → ${dir}\n`);
}

/** Copies a recording into DIR with its expectation and checks that it replays to the expectation. */
async function writeRecording(result, dir, specTest) {
  mkdirSync(dir, { recursive: true });
  const { scenario } = result;
  const cast = join(dir, `${scenario.name}.cast`);
  const expectPath = join(dir, `${scenario.name}.expect.json`);
  const expect = { description: `${scenario.description} (Codex CLI ${result.version}, lab/codex)`, ...expandExpect(scenario.expect, scenario) };
  const tmpExpect = join(result.root, `${scenario.name}.expect.json`);
  writeFileSync(tmpExpect, `${JSON.stringify(expect, null, 2)}\n`);
  const r = specTest.runSpecTestCase({ name: `codex/${scenario.name}`, specId: 'codex', specPath: SPEC_PATH, castPath: result.castPath, expectPath: tmpExpect });
  if (!r.ok) return { ok: false, report: r.report };
  copyFileSync(result.castPath, cast);
  writeFileSync(expectPath, `${JSON.stringify(expect, null, 2)}\n`);
  writeLabels(dir, scenario.name, {
    intervals: result.labels.map((l) => ({ from: l.from - result.sessionStart, to: l.to - result.sessionStart, status: l.status })),
    source: `lab/codex Codex CLI ${result.version}: the server's log and the lab's actions`,
  });
  return { ok: true };
}

function fmtMs(v) {
  return v === null || v === undefined ? '–' : `${Math.round(v)} ms`;
}

/** Writes docs/accuracy/codex.md from the results of one run. */
function writeAccuracy(results, version) {
  const all = { generating: [], approval: [], idle: [] };
  let labelled = 0;
  let right = 0;
  const buttons = [];
  let flaps = 0;
  for (const r of results) {
    for (const k of Object.keys(all)) all[k].push(...r.latencies[k]);
    labelled += r.labelledMs;
    right += r.rightMs;
    buttons.push(...r.buttonsRight);
    flaps += r.flaps;
  }
  const rows = results.map((r) => `| ${r.scenario.name} | ${r.scenario.cols}×${r.scenario.rows} | ${r.labelledMs ? `${((100 * r.rightMs) / r.labelledMs).toFixed(1)} %` : '–'} | ${r.buttonsRight.map((b) => (b ? 'yes' : 'no')).join(', ') || '–'} | ${r.latencies.generating.map(fmtMs).join(', ') || '–'} | ${r.latencies.approval.map(fmtMs).join(', ') || '–'} | ${r.latencies.idle.map(fmtMs).join(', ') || '–'} | ${r.flaps} | ${r.checks.every((c) => c.ok) ? 'pass' : 'FAIL'} |`);
  const text = `# Accuracy: \`codex\` spec (OpenAI Codex CLI)

Generated by \`npm run lab -- codex --accuracy\` on ${new Date().toISOString().slice(0, 10)} — do not edit by hand.
The lab runs the real \`@openai/codex\` CLI in a real PTY under specterm against a scripted Responses
API server on loopback; the server's log is the ground truth (stream start/end, tool call awaiting
permission, tool result back). Latencies run from the ground-truth change to the driver's committed
state change (generating: stream start; approval: the function call emitted — includes Codex's own
time to draw the modal; idle: the last stream's end, the deny key, or Esc on a picker). Labelled time
(as lab/lib/lab-kit.mjs defines it, and as the \`.labels.json\` beside each recording holds it):
generating while a text stream runs, approval from when the lab's screen poll saw the approval drawn
(or 1 s after a picker was opened) until it is answered, idle from 1.5 s after the turn's end (an API
error, a denial, Esc on a picker, the trust gate answered) until the session stops. Flaps:
committed changes with no ground-truth change in the ${BOUNDS.flapWindowMs} ms before them.

## Codex CLI ${version}

| Measure | Value |
|---|---|
| Labelled time with the right status | ${labelled ? `${((100 * right) / labelled).toFixed(1)} %` : '–'} (${(labelled / 1000).toFixed(1)} s labelled) |
| Modal buttons right | ${buttons.filter(Boolean).length}/${buttons.length} approvals |
| Generating latency p50 / p95 | ${fmtMs(percentile(all.generating, 50))} / ${fmtMs(percentile(all.generating, 95))} (n=${all.generating.length}) |
| Approval latency p50 / p95 | ${fmtMs(percentile(all.approval, 50))} / ${fmtMs(percentile(all.approval, 95))} (n=${all.approval.length}) |
| Idle latency p50 / p95 | ${fmtMs(percentile(all.idle, 50))} / ${fmtMs(percentile(all.idle, 95))} (n=${all.idle.length}) |
| Flaps | ${flaps} |
| Scenarios passed | ${results.filter((r) => r.checks.every((c) => c.ok)).length}/${results.length} |

| Scenario | Size | Right status | Buttons right | Generating | Approval | Idle | Flaps | Checks |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
  const out = join(repo, 'docs', 'accuracy', 'codex.md');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  return out;
}

/**
 * Entry point for `npm run lab -- codex`.
 * @param {string[]} args
 * @returns {Promise<number>} exit code: 0 when every check passed, 1 on a failed check, 2 on bad input
 */
export async function main(args) {
  if (args.includes('--crawl')) return crawlCodex(args, PINNED_VERSION);
  let opts;
  try {
    opts = parseArgs(args);
  } catch (err) {
    process.stderr.write(`lab codex: ${err.message}\n`);
    return 2;
  }
  const distLive = join(repo, 'dist', 'harness', 'live-session.js');
  if (!existsSync(distLive)) {
    process.stderr.write(`lab codex: ${distLive} is missing; run npm run build first (npm run lab does)\n`);
    return 2;
  }
  const live = await import(distLive);
  const specTest = await import(join(repo, 'dist', 'harness', 'spec-test.js'));
  let scenarios = listScenarios();
  if (opts.scenarios.length) {
    const unknown = opts.scenarios.filter((n) => !scenarios.some((s) => s.name === n));
    if (unknown.length) {
      process.stderr.write(`lab codex: unknown scenario ${unknown.join(', ')} (known: ${scenarios.map((s) => s.name).join(', ')})\n`);
      return 2;
    }
    scenarios = scenarios.filter((s) => opts.scenarios.includes(s.name));
  }
  const { binPath, version } = ensureCli('@openai/codex', opts.version, 'codex');
  process.stderr.write(`lab codex: Codex CLI ${version} (${binPath})\n`);
  const results = [];
  let ok = true;
  for (const sc of scenarios) {
    process.stderr.write(`lab codex: scenario ${sc.name} (${sc.cols}×${sc.rows})\n`);
    const r = await runScenario(sc, { binPath, live, verbose: opts.verbose });
    r.version = version;
    results.push(r);
    const passed = r.checks.every((c) => c.ok);
    ok &&= passed;
    recordVerdict(sc.name, passed);
    process.stderr.write(`  ${passed ? 'pass' : 'FAIL'}: ${r.changes.map((c) => `${c.t.toFixed(2)} ${c.state}`).join(' → ')}\n`);
    if (opts.recordTo) {
      if (passed) {
        const w = await writeRecording(r, opts.recordTo, specTest);
        if (!w.ok) {
          ok = false;
          process.stderr.write(`  FAIL ${sc.name}: the recording does not replay to the expectation, not written:\n${w.report}\n`);
        } else process.stderr.write(`  recorded ${join(opts.recordTo, `${sc.name}.cast`)}\n`);
      } else process.stderr.write(`  not recorded (live checks failed)\n`);
    }
    if (opts.historyTo) copyHistory(r, join(opts.historyTo, sc.name));
    if (opts.keep) process.stderr.write(`  kept ${r.root}\n`);
    else {
      // Codex may still be writing its state files while it exits: retry, never fail the run on cleanup.
      try { rmSync(r.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); } catch (err) { process.stderr.write(`  could not remove ${r.root}: ${err.code}\n`); }
    }
  }
  if (opts.accuracy) process.stderr.write(`lab codex: wrote ${writeAccuracy(results, version)}\n`);
  process.stderr.write(`lab codex: ${results.filter((r) => r.checks.every((c) => c.ok)).length}/${results.length} scenarios passed\n`);
  return ok ? 0 : 1;
}
