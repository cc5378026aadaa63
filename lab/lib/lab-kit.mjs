/**
 * Pieces shared by the labs of the CLIs that talk to the scripted OpenAI Chat Completions server
 * (lab/lib/openai-chat-server.mjs): option parsing, a private temp dir per session, the screen
 * poll that tells the CLI's own render delay from specterm's detection delay, the driver-status
 * lookups, the ground-truth measure and the accuracy report.
 *
 * Ground truth (see measureSession): **generating** while a stream is open (until it ends, is
 * aborted or the lab pressed the stop key); **approval** from the moment the lab's screen poll saw
 * the confirmation drawn until the lab answered it (the CLI's own delay from the tool call to its
 * confirmation is reported apart: it is not ours); **picker** from 1 s after the lab opened it until
 * the lab closed it; **idle** from 1.5 s after a quiet point (ready, a turn's end, a denial, the
 * picker closed, an interrupt, an API error) until the next lab action or stream.
 *
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Parses the lab options shared by every lab; throws naming the unknown option and the fix. */
export function parseLabArgs(args, cli, pinnedVersion) {
  const o = { recordTo: null, accuracy: false, scenario: null, keep: false, version: pinnedVersion, verbose: false, historyTo: null };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--record-to') o.recordTo = args[++i];
    else if (a === '--accuracy') o.accuracy = true;
    else if (a === '--scenario') o.scenario = args[++i];
    else if (a === '--keep') o.keep = true;
    else if (a === '--version') o.version = args[++i];
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--history-to') o.historyTo = path.resolve(args[++i]);
    else throw new Error(`lab ${cli}: unknown option ${JSON.stringify(a)}; use --record-to DIR, --accuracy, --scenario NAME (comma-separated), --keep, --version V, --verbose, --history-to DIR`);
  }
  return o;
}

/** A fresh private temp dir (0700) holding `home/` and a workspace `lab/work/`. */
export function makePrivateSession(cli, name) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `specterm-lab-${cli}-${name}-`));
  fs.chmodSync(tmp, 0o700);
  const home = path.join(tmp, 'home');
  const work = path.join(tmp, 'lab', 'work');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.mkdirSync(work, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(work, 'README.md'), '# lab workspace\n');
  return { tmp, home, work };
}

/**
 * Polls the driver's screen every 20 ms and notes when each mark (a regex) appears or goes.
 * @returns {{ marks: Array<{t: number, what: string}>, stop(): void, first(what: string, since: number): {t: number} | undefined }}
 */
export function pollScreen(driver, regexes) {
  const marks = [];
  const shown = {};
  const timer = setInterval(() => {
    let text = '';
    try { text = driver.snapshot(); } catch { return; }
    for (const [k, re] of Object.entries(regexes)) {
      const now = re.test(text);
      if (now !== Boolean(shown[k])) { shown[k] = now; marks.push({ t: Date.now(), what: `${k} ${now ? 'shown' : 'gone'}` }); }
    }
  }, 20);
  return { marks, stop: () => clearInterval(timer), first: (what, since) => marks.find((m) => m.what === what && m.t >= since) };
}

/** Driver-status lookups over a live session's `changes` (times relative to `startedAt`, in s). */
export function statusLookups(changes, startedAt) {
  const statusAt = (t) => {
    let cur = null;
    for (const c of changes) { if (startedAt + c.t * 1000 <= t) cur = c; else break; }
    return cur;
  };
  /** The first time at or after `t` the driver had `status` (and `pred`), in absolute ms, or null. */
  const firstStatusAfter = (status, t, pred = () => true) => {
    const at = statusAt(t);
    if (at && at.status === status && pred(at)) return t;
    const c = changes.find((x) => startedAt + x.t * 1000 >= t && x.status === status && pred(x));
    return c ? startedAt + c.t * 1000 : null;
  };
  return { statusAt, firstStatusAfter };
}

/** Lab actions that start something (they end an idle interval). */
const STARTERS = new Set(['submit', 'picker_open', 'stream_start', 'approve', 'deny', 'stop']);
/** Moments after which the CLI must come to rest. */
const QUIET = new Set(['ready', 'gate_answered', 'turn_end', 'deny', 'picker_close', 'stop', 'api_error']);

/**
 * Labelled time from ground truth (see the module doc) and flaps (driver status changes farther
 * than 2.5 s from every ground-truth event). `actions` are the lab's own `{t, what}` records;
 * `approval_drawn` / `approve` / `deny` bound each approval.
 */
export function measureSession({ startedAt, endedAt, changes, log, actions }) {
  const intervals = [];
  const stops = actions.filter((a) => a.what === 'stop').map((a) => a.t);
  let open = null;
  for (const e of log) {
    if (e.event === 'stream_start') open = e.t;
    if ((e.event === 'stream_end' || e.event === 'stream_aborted') && open !== null) {
      const stop = stops.find((t) => t >= open && t <= e.t);
      intervals.push({ from: open, to: stop ?? e.t, status: 'generating' });
      open = null;
    }
  }
  for (const drawn of actions.filter((a) => a.what === 'approval_drawn')) {
    const answer = actions.find((a) => (a.what === 'approve' || a.what === 'deny') && a.t >= drawn.t);
    intervals.push({ from: drawn.t, to: answer ? answer.t : endedAt, status: 'approval' });
  }
  // A start-up gate (folder trust) is labelled approval (its status) from when the lab saw it until it answered.
  const gateShown = actions.find((a) => a.what.startsWith('ready_'));
  const gateAnswered = actions.find((a) => a.what === 'gate_answered');
  if (gateShown && gateAnswered) intervals.push({ from: gateShown.t, to: gateAnswered.t, status: 'approval' });
  const pickerOpen = actions.find((a) => a.what === 'picker_open');
  const pickerClose = actions.find((a) => a.what === 'picker_close');
  if (pickerOpen && pickerClose) intervals.push({ from: pickerOpen.t + 1000, to: pickerClose.t, status: 'approval' });
  const events = [
    ...log.map((e) => ({ t: e.t, what: e.event === 'stream_end' && !e.toolCall ? 'turn_end' : e.event })),
    ...actions.map((a) => ({ t: a.t, what: a.what })),
  ].sort((a, b) => a.t - b.t);
  // An API error the CLI retries (its next request follows with no lab action between: a 429 or a
  // 5xx under backoff) does not end the turn: the CLI is still working, generating from the turn's
  // first request to the error it gives up on. A single error (the scripted 400) is unchanged.
  const retriedAt = new Set();
  const actionKinds = new Set(actions.map((a) => a.what));
  let chainFrom = null;
  events.forEach((q, i) => {
    if (q.what !== 'api_error') return;
    const next = events.slice(i + 1).find((e) => e.what === 'prompt' || actionKinds.has(e.what));
    if (next?.what === 'prompt') {
      retriedAt.add(q.t);
      chainFrom ??= events.slice(0, i).reverse().find((e) => e.what === 'prompt')?.t ?? q.t;
      return;
    }
    if (chainFrom !== null) intervals.push({ from: chainFrom, to: q.t, status: 'generating' });
    chainFrom = null;
  });
  events.forEach((q, i) => {
    if (!QUIET.has(q.what) || (q.what === 'api_error' && retriedAt.has(q.t))) return;
    const from = q.what === 'ready' ? q.t : q.t + 1500;
    const next = events.slice(i + 1).find((e) => STARTERS.has(e.what));
    const to = next ? next.t : endedAt;
    if (to > from) intervals.push({ from, to, status: 'idle' });
  });
  const { statusAt } = statusLookups(changes, startedAt);
  let labelled = 0;
  let right = 0;
  for (const iv of intervals) {
    for (let t = iv.from; t < iv.to; t += 20) { labelled += 20; if (statusAt(t)?.status === iv.status) right += 20; }
  }
  const truth = [startedAt, ...events.map((e) => e.t)];
  let flaps = 0;
  let prev = null;
  for (const c of changes) {
    const at = startedAt + c.t * 1000;
    if (prev !== null && c.status !== prev && !truth.some((t) => at >= t - 1000 && at <= t + 2500)) flaps++;
    prev = c.status;
  }
  return { labelledMs: labelled, rightMs: right, flaps, intervals: intervals.map((iv) => ({ ...iv, from: iv.from - startedAt, to: iv.to - startedAt })) };
}

export function percentile(values, p) {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)];
}

/** Detection targets of the accuracy issue (the hard check limits of each lab are looser). */
export const TARGET = { generatingMs: 300, approvalMs: 300, idleMs: 1500 };

/**
 * Writes docs/accuracy/<id>.md in the table format of the other reports: a summary table under
 * `## <CLI name> <version>` (what lab/accuracy-index.mjs copies), then one row per session.
 * `noApprovals` (a reason) replaces the approval rows for a CLI that never asks permission.
 */
export function writeAccuracyReport({ repo, id, cliName, pkg, version, results, modalResults, renderDelays, noApprovals = null }) {
  const all = (k) => results.flatMap((r) => r.latencies.filter((l) => l.kind === k).map((l) => l.ms));
  const labelled = results.reduce((a, r) => a + r.labelledMs, 0);
  const right = results.reduce((a, r) => a + r.rightMs, 0);
  const flaps = results.reduce((a, r) => a + r.flaps, 0);
  const fmt = (x) => (x === null ? 'n/a' : `${Math.round(x)} ms`);
  const lines = [
    `# Accuracy: ${id} (${cliName})`, '',
    `Generated by \`npm run lab -- ${id} --accuracy\` (lab/${id}/lab.mjs) against the real \`${pkg}\` and the scripted OpenAI Chat Completions server (lab/lib/openai-chat-server.mjs) on loopback. Do not edit by hand.`, '',
    'Ground truth is the server\'s log and the lab\'s own actions: **generating** while a stream is open (until it ends or the lab pressed the stop key), **approval** from when the lab\'s 20 ms screen poll saw the confirmation drawn until the lab answered it, **picker** from 1 s after `/model` until Esc, **idle** from 1.5 s after a turn ended (or a denial, an interrupt, an API error, the picker closed) until the next action. Latency runs from the ground-truth change to the driver\'s state change (0 when the driver was already there); the "from the screen" rows start when the screen poll first saw the spinner / confirmation / picker appear or the spinner disappear, which separates the CLI\'s own render delay from specterm\'s detection delay. A flap is a driver status change more than 2.5 s away from every ground-truth event.', '',
    `## ${cliName} ${version}`, '',
    '| measure | value | target |', '|---|---|---|',
    `| labelled time with the right status | ${labelled ? ((100 * right) / labelled).toFixed(1) : 'n/a'} % (${(right / 1000).toFixed(1)} s of ${(labelled / 1000).toFixed(1)} s) | — |`,
    noApprovals
      ? `| approval modals | none: ${noApprovals} | — |`
      : `| approval modals with the right title and buttons | ${modalResults.filter((m) => m.ok).length} / ${modalResults.length} (${modalResults.map((m) => `${m.session}: ${m.ok ? 'yes' : 'no'}`).join(', ')}) | all |`,
  ];
  for (const [k, target] of [['generating', TARGET.generatingMs], ...(noApprovals ? [] : [['approval', TARGET.approvalMs]]), ['idle', TARGET.idleMs]]) {
    const v = all(k);
    lines.push(`| ${k} detection latency p50 / p95 from the server's change (n=${v.length}) | ${fmt(percentile(v, 50))} / ${fmt(percentile(v, 95))} | ≤ ${target} ms |`);
    const w = all(`${k}_from_screen`);
    lines.push(`| ${k} detection latency p50 / p95 from the screen showing it (n=${w.length}) | ${fmt(percentile(w, 50))} / ${fmt(percentile(w, 95))} | ≤ ${target} ms |`);
  }
  const pk = all('picker_from_screen');
  lines.push(`| picker detection latency p50 / p95 from the screen showing it (n=${pk.length}) | ${fmt(percentile(pk, 50))} / ${fmt(percentile(pk, 95))} | ≤ ${TARGET.approvalMs} ms |`);
  if (!noApprovals) lines.push(`| ${cliName}'s own delay from the tool call to its confirmation on screen, p50 / p95 (n=${renderDelays.length}) | ${fmt(percentile(renderDelays, 50))} / ${fmt(percentile(renderDelays, 95))} | (not ours) |`);
  lines.push(`| flaps | ${flaps} | 0 |`, '');
  lines.push('| session | terminal | checks passed | right status | flaps |', '|---|---|---|---|---|');
  for (const r of results) {
    lines.push(`| ${r.name} | ${r.cols}×${r.rows} | ${r.checks.filter((c) => c.ok).length} / ${r.checks.length} | ${r.labelledMs ? ((100 * r.rightMs) / r.labelledMs).toFixed(1) : 'n/a'} % | ${r.flaps} |`);
  }
  lines.push('');
  const out = path.join(repo, 'docs', 'accuracy', `${id}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, lines.join('\n'));
  return out;
}

/**
 * Writes `<dir>/<name>.labels.json` beside a recording: the session's ground-truth intervals
 * (`{from_ms, to_ms, status}`, ms from the recording's start — the lab starts its clock as it
 * starts the recorder) from the lab's measure. lab/accuracy-index.mjs replays the recording and
 * scores it against these labels, so the figures come from the committed recordings themselves.
 */
export function writeLabels(dir, name, { intervals, source }) {
  const labels = {
    source,
    intervals: intervals
      .map((iv) => ({ from_ms: Math.round(iv.from), to_ms: Math.round(iv.to), status: iv.status }))
      .filter((iv) => iv.to_ms > iv.from_ms)
      .sort((a, b) => a.from_ms - b.from_ms),
  };
  const file = path.join(dir, `${name}.labels.json`);
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(labels, null, 2) + '\n');
  fs.renameSync(tmp, file);
  return file;
}
