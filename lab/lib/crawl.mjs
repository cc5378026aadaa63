/**
 * The crawler: `npm run lab -- <cli> --crawl` starts the real CLI against its scripted server,
 * reads the CLI's own list of slash commands off its command menu (typed `/`, scrolled to the
 * end — never a list we type in), opens every command and every key chord the CLI documents, and
 * looks at what specterm reports for each screen reached at 80×24, 60×20 and 200×50 (the live
 * session is resized with the screen open). Inside a menu it opens each item (up to
 * `--crawl-items`, default 6) and, if that leads to a view of its own, looks at it and comes back.
 *
 * A screen is flagged (lab/lib/crawl-oracle.mjs) when it looks like it waits for a person while
 * the spec says idle or generating, when a modal has no buttons, when the buttons differ in
 * number from the option rows drawn, or when the status flaps while the screen stands still.
 * The coverage report — commands found, opened, flagged, recorded, per size — goes to
 * docs/accuracy/crawl/<cli>.md (`--accuracy`) and the index docs/accuracy/crawl.md; with
 * `--record-to DIR` every flagged screen (with `--only`, every target named) is recorded again on its own (`crawl-<target>.cast`,
 * from start-up to the screen at each size and back) with the crawler's expectation
 * (`.expect.json`: waiting for a person while the screen stood) for a person to confirm and the
 * spec fix to make pass.
 *
 * A CLI's lab opts in with `crawl` in its description: `{ menuKey, parseCommand(row), skip,
 * chords, clearInput }` (see lab/qwen-code/lab.mjs) and a `start(def)` that launches the CLI.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from './lab-kit.mjs';
import { CRAWL_SIZES, flagsOf, observe, rejudge, screenOf, targetKeys, typedText } from './crawl-oracle.mjs';
import { crawlLabels } from './crawl-labels.mjs';
import { recordingsOfTargets, writeCrawlReport } from './crawl-report.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOME_SIZE = CRAWL_SIZES[0];
const ESC = '\u001b';

/**
 * A row of a command menu: `/name`, `name [args]` or `→ name`, inside a border or not, then two
 * spaces and its description. Returns the command's name or null.
 */
export function commandOfMenuRow(row) {
  const m = /^[\s│┃║|]{0,5}(?:[›❯>▶→➤●]\s*)?\/?([a-z][a-z0-9:_.-]*)(?: +[^ ].*?)?\s{2,}\S/.exec(row);
  return m ? m[1] : null;
}

/** The key chords most agent CLIs document; a CLI's lab adds its own (`crawl.chords`). */
export const COMMON_CHORDS = [
  { name: 'Esc Esc', keys: [ESC, ESC] },
  { name: '@', keys: ['@'] },
  { name: '!', keys: ['!'] },
  { name: '#', keys: ['#'] },
  { name: '?', keys: ['?'] },
  { name: 'Tab', keys: ['\t'] },
  { name: 'Shift+Tab', keys: ['\u001b[Z'] },
  { name: 'Ctrl+R', keys: ['\u0012'] },
  { name: 'Ctrl+T', keys: ['\u0014'] },
  { name: 'Ctrl+O', keys: ['\u000f'] },
];

/** Commands that end the CLI or the account: found and counted, never opened. */
const ENDS_THE_CLI = { quit: 'ends the CLI', exit: 'ends the CLI', q: 'ends the CLI' };

/** The CLI version a crawl runs: `--version V` in `args`, else the proven (pinned) one. */
export function crawlVersion(args, pinned) {
  const at = args.indexOf('--version');
  return at >= 0 ? args[at + 1] : pinned;
}

/**
 * The handle a lab's `start` gives the crawler for one live session `s`: whether the CLI has
 * exited yet, and `stop()` — the session ended, then the lab's own clean-up (`cleanup`).
 */
export function crawlSession(s, cleanup) {
  let exited = false;
  void s.exited.then(() => { exited = true; });
  return { s, exitedYet: async () => exited, stop: async () => { await s.stop(); await cleanup(); } };
}

/** Parses the crawl options (after `--crawl`); throws naming the option and the fix. */
export function parseCrawlArgs(args, cli) {
  const o = { recordTo: null, accuracy: false, only: null, items: 6, verbose: false, version: null, screensTo: null, rejudge: null };
  const valued = { '--record-to': 'recordTo', '--only': 'only', '--crawl-items': 'items', '--version': 'version', '--screens-to': 'screensTo', '--rejudge': 'rejudge' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--crawl') continue;
    if (a === '--accuracy') o.accuracy = true;
    else if (a === '--verbose') o.verbose = true;
    else if (valued[a]) {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`lab ${cli} --crawl: ${a} needs a value after it`);
      o[valued[a]] = a === '--only' ? v.split(',') : a === '--crawl-items' ? Number(v) : v;
    } else throw new Error(`lab ${cli} --crawl: unknown option ${JSON.stringify(a)}; use --accuracy, --record-to DIR, --only NAME[,NAME], --crawl-items N, --screens-to FILE, --rejudge FILE, --version V, --verbose`);
  }
  if (!Number.isInteger(o.items) || o.items < 0) throw new Error(`lab ${cli} --crawl: --crawl-items must be a whole number ≥ 0 (got ${JSON.stringify(o.items)})`);
  return o;
}

/** Waits until the screen has not changed for `quietMs` (at most `maxMs`); returns its text. */
export async function settle(s, { quietMs = 700, maxMs = 5000 } = {}) {
  const until = Date.now() + maxMs;
  let last = s.driver.snapshot();
  let since = Date.now();
  while (Date.now() < until) {
    await sleep(100);
    const now = s.driver.snapshot();
    if (now !== last) { last = now; since = Date.now(); } else if (Date.now() - since >= quietMs) break;
  }
  if (process.env.CRAWL_DEBUG) process.stderr.write(`settle ${Date.now() - (until - maxMs)} ms${Date.now() >= until ? ' (never quiet)' : ''}\n`);
  // The decision follows the screen by up to a frame and a debounce.
  await sleep(150);
  return last;
}

const write = async (s, keys, gapMs = 40) => {
  for (const ch of keys) { s.driver.dispatch({ kind: 'pty_write', data: ch }); await sleep(gapMs); }
};

/**
 * One crawling session: the live CLI plus what the crawler needs to get back to its idle prompt
 * (`baseline`: the idle screen's rows, which no flag may be raised on).
 */
class Crawler {
  constructor(cli, cfg, start, log) {
    this.cli = cli;
    this.cfg = cfg;
    this.start = start;
    this.log = log;
    this.live = null;
    this.restarts = 0;
  }

  async open() {
    if (this.live) await this.close();
    this.live = await this.start({ name: 'crawl', ...HOME_SIZE });
    await this.live.s.waitForState('idle', this.cli.limits?.startMs ?? 90_000);
    await sleep(this.cli.settleMs ?? 2000);
    await this.markBaseline();
    this.home = this.baseline;
  }

  async close() {
    const live = this.live;
    this.live = null;
    await live?.stop();
  }

  get s() { return this.live.s; }

  /**
   * True when the CLI is at its idle prompt with nothing open: idle, no modal, no waiting shape,
   * and its last rows (the input, the footer) as at the start — a popup or a typed `/` still open
   * changes them; a command's output above them does not.
   */
  async atRest() {
    const text = await settle(this.s, { quietMs: 500, maxMs: 3000 });
    const view = this.s.driver.getCurrentView();
    const rows = text.split('\n');
    return view?.state.status === 'idle' && !view.modal && !observe(rows, view, this.baseline).shape
      && sameBottom(rows, this.home);
  }

  /** The idle screen before a target: what the target draws is what differs from it. */
  async markBaseline() {
    this.baseline = (await settle(this.s)).split('\n');
  }

  /** Back to the idle prompt: Esc (twice), the CLI's clear-input keys, a redraw; a restart when that fails. */
  async rest() {
    for (const keys of [ESC, ESC, this.cfg.clearInput ?? '\u0015']) {
      if (await this.live.exitedYet()) break;
      if (await this.atRest()) return;
      await write(this.s, [keys]);
    }
    if (!(await this.live.exitedYet())) {
      if (await this.atRest()) return;
      // A TUI that diffs its frames may leave stray cells after a resize: a size nudge redraws it whole.
      this.s.driver.dispatch({ kind: 'resize', cols: HOME_SIZE.cols + 1, rows: HOME_SIZE.rows });
      await sleep(300);
      this.s.driver.dispatch({ kind: 'resize', ...HOME_SIZE });
      if (await this.atRest()) return;
    }
    this.restarts += 1;
    const view = this.s.driver.getCurrentView();
    this.log(`   (restarting the CLI: not back at its prompt — ${view?.state.id}/${view?.state.status}${view?.modal ? ' modal' : ''}, bottom ${JSON.stringify(lastRows(this.s.driver.snapshot().split('\n')))} vs ${JSON.stringify(lastRows(this.home))})`);
    await this.open();
  }
}

/** The last non-blank rows, digits aside (a footer's clock or token count moves by itself). */
const lastRows = (rows, n = 4) => rows.filter((r) => r.trim() !== '').slice(-n).map((r) => r.replace(/\d+/g, '0').trimEnd());
/**
 * The idle screen's last rows are all among the screen's last ones: a popup or a typed `/` covers
 * or pushes them away, a stray row a TUI left unerased beside them does not count.
 */
const sameBottom = (rows, home) => { const now = lastRows(rows, 7); return lastRows(home).every((r) => now.includes(r)); };

/** Reads the command menu: the rows the menu key adds, scrolled with ↓ until nothing new appears. */
async function discoverCommands(cr) {
  const { cfg } = cr;
  // A name counts once two frames showed it: a frame caught mid-paint can cut a row short.
  const seen = new Map();
  const names = [];
  const add = (text) => {
    for (const row of new Set(text.split('\n'))) {
      if (cr.baseline.includes(row)) continue;
      const name = cfg.parseCommand(row);
      if (!name) continue;
      seen.set(name, (seen.get(name) ?? 0) + 1);
      if (seen.get(name) === 2) names.push(name);
    }
  };
  await write(cr.s, [cfg.menuKey ?? '/']);
  add(await settle(cr.s, { quietMs: 500 }));
  // A popup moves its highlight through the rows it shows before it scrolls: stop only after
  // more presses than rows seen bring nothing new.
  for (let stale = 0, presses = 0; stale < names.length + 4 && presses < 400; presses++) {
    const before = names.length;
    await write(cr.s, [cfg.nextKey ?? '\u001b[B'], 0);
    add(await settle(cr.s, { quietMs: 150, maxMs: 1500 }));
    stale = names.length === before ? stale + 1 : 0;
  }
  await cr.rest();
  return names;
}

/** Opens a target from the idle prompt. */
async function openTarget(cr, target) {
  if (target.command) {
    // Typed as a person would: a CLI filters its command popup per key and takes Enter as the
    // popup's choice, so Enter waits for the popup to settle on the command.
    await write(cr.s, [...`/${target.command}`], 80);
    await settle(cr.s, { quietMs: 500, maxMs: 3000 });
    await write(cr.s, ['\r']);
  } else {
    await write(cr.s, target.keys, 150);
  }
}

/** Looks at the open screen at every size: one observation per size (the home size first and last). */
async function lookAtSizes(cr, target, path_) {
  const out = [];
  for (const size of CRAWL_SIZES) {
    if (size !== HOME_SIZE) cr.s.driver.dispatch({ kind: 'resize', ...size });
    const text = await settle(cr.s);
    // A flap: the status moved while the screen stood still (a second look after a quiet second).
    const changes = cr.s.changes.length;
    await sleep(1000);
    const again = cr.s.driver.snapshot();
    const view = cr.s.driver.getCurrentView();
    const statuses = [view?.state.status, ...cr.s.changes.slice(changes).map((c) => c.status)];
    const obs = observe(text.split('\n'), view, cr.baseline, typedText(target));
    const flapped = again === text && cr.s.changes.length > changes && new Set(statuses).size > 1;
    out.push({ target: target.label, path: path_, size: `${size.cols}×${size.rows}`, ...obs, flapped, flags: flagsOf(obs, { flapped }), screen: screenOf(text, view, cr.baseline) });
  }
  cr.s.driver.dispatch({ kind: 'resize', ...HOME_SIZE });
  await settle(cr.s, { quietMs: 400 });
  return out;
}

/** Opens one target, looks at it, and (for a menu) at each item's view; returns the observations. */
async function crawlTarget(cr, target, opts) {
  await cr.rest();
  await cr.markBaseline();
  await openTarget(cr, target);
  const first = await lookAtSizes(cr, target, []);
  const home = first[0];
  const items = home.menuRows ?? 0;
  const obs = [...first];
  if (home.changed && items > 1 && opts.items > 0) {
    for (let i = 0; i < Math.min(items, opts.items); i++) {
      await cr.rest();
      await openTarget(cr, target);
      await settle(cr.s);
      for (let k = 0; k < i; k++) await write(cr.s, ['\u001b[B'], 80);
      await write(cr.s, ['\r']);
      const text = await settle(cr.s);
      const view = cr.s.driver.getCurrentView();
      const o = observe(text.split('\n'), view, cr.baseline, typedText(target));
      // Only a view of its own counts: the menu gone to the prompt, or the same menu, is not one.
      if (!o.changed || o.title === home.title && o.menuRows === home.menuRows) continue;
      obs.push({ target: target.label, path: [`item ${i + 1}`], size: `${HOME_SIZE.cols}×${HOME_SIZE.rows}`, ...o, flapped: false, flags: flagsOf(o, { flapped: false }), screen: screenOf(text, view, cr.baseline) });
    }
  }
  await cr.rest();
  return obs;
}

const KEY_NAMES = { '?': 'question-mark', '@': 'at', '!': 'bang', '#': 'hash', '/': 'slash', '_': 'underscore', ',': 'comma', '.': 'dot' };

/** A file name for a target: `/add-dir` → `add-dir`, `Ctrl+R` → `ctrl-r`, `?` → `question-mark`. */
export function slugOf(label) {
  if (label.length === 1) return KEY_NAMES[label] ?? 'key';
  const word = (ch) => (/[A-Za-z0-9]/.test(ch) ? ch.toLowerCase() : /[-+ ]/.test(ch) ? '-' : `-${KEY_NAMES[ch] ?? 'key'}-`);
  return [...label.replace(/^\//, '')].map(word).join('').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'key';
}

/**
 * What a recording of a target is expected to replay to at each size: the spec's modal as it was
 * read (kind, title, buttons), or — where the spec saw none — a wait for a person. Sizes that
 * read alike are one step.
 */
function expectedAtSizes(seen) {
  const steps = seen.map((o) => (o.modal
    ? { state: o.state, status: o.status, modal: { title: o.modal.title, kind: o.modal.kind, buttons: o.modal.buttons } }
    : { status: 'approval' }));
  return steps.filter((step, i) => i === 0 || JSON.stringify(step) !== JSON.stringify(steps[i - 1]));
}

/** Records one flagged target on its own, from start-up to its screen at every size and back. */
async function recordTarget(cli, version, cfg, start, target, dir) {
  const name = `crawl-${slugOf(target.label)}`;
  const record = path.join(dir, `${name}.cast`);
  const cr = new Crawler(cli, cfg, (def) => start({ ...def, name }, { record }), () => {});
  await cr.open();
  await openTarget(cr, target);
  const seen = await lookAtSizes(cr, target, []);
  await write(cr.s, [ESC]);
  await settle(cr.s);
  await cr.close();
  const flagged = seen.filter((o) => o.flags.length);
  const expect = {
    description: `crawler: ${target.label} at ${seen.map((o) => o.size).join(', ')}, resized while open, then Esc (${cli.cliName} ${version}; npm run lab -- ${cli.id} --crawl --only ${target.label} --record-to DIR); flagged ${[...new Set(flagged.flatMap((o) => o.flags))].join(', ') || 'nothing'}. Expected: what the spec said at each size where it saw a modal, and a wait for a person where it did not — for a person to confirm against the screen`,
    sequence: [{ state: 'starting' }, { state: 'idle' }, ...expectedAtSizes(seen), { status: 'idle', modal: null }],
    final: { status: 'idle' },
  };
  fs.writeFileSync(path.join(dir, `${name}.expect.json`), JSON.stringify(expect, null, 2) + '\n');
  const labels = crawlLabels(fs.readFileSync(record, 'utf8'), `lab/${cli.id} ${cli.cliName} ${version}`, targetKeys(target));
  if (labels) fs.writeFileSync(path.join(dir, `${name}.labels.json`), JSON.stringify(labels, null, 2) + '\n');
  return name;
}

/**
 * Crawls one CLI. `start(def, { record })` launches it (`def`: `{ name, cols, rows }`) and resolves
 * to `{ s, stop(), exitedYet() }`.
 * @returns {Promise<number>} the exit code: 0 when the crawl ran (flags are findings, not failures).
 */
export async function runCrawl({ cli, version, args, start }) {
  let opts;
  try { opts = parseCrawlArgs(args, cli.id); } catch (err) { process.stderr.write(`${err.message}\n`); return 2; }
  if (opts.rejudge) return rejudgeSaved(opts);
  const own = cli.crawl ?? {};
  const cfg = { parseCommand: commandOfMenuRow, ...own, skip: { ...ENDS_THE_CLI, ...own.skip }, chords: [...COMMON_CHORDS, ...(own.chords ?? [])] };
  const log = (line) => process.stdout.write(`${line}\n`);
  const cr = new Crawler(cli, cfg, (def) => start(def, {}), log);
  const started = Date.now();
  await cr.open();
  const commands = await discoverCommands(cr);
  log(`${cli.id} ${version}: ${commands.length} commands in its menu: ${commands.map((c) => `/${c}`).join(' ')}`);
  const targets = [
    ...commands.map((c) => ({ label: `/${c}`, command: c, skip: cfg.skip?.[c] ?? null })),
    ...(cfg.chords ?? []).map((k) => ({ label: k.name, keys: k.keys, skip: null })),
  ].filter((t) => !opts.only || opts.only.includes(t.label));
  const observations = [];
  for (const target of targets) {
    if (target.skip) { log(`· ${target.label}: not opened (${target.skip})`); continue; }
    const obs = await crawlTarget(cr, target, opts);
    observations.push(...obs);
    const flagged = obs.filter((o) => o.flags.length);
    log(`${flagged.length ? '⚑' : '✓'} ${target.label}: ${obs.length} screen(s)${flagged.length ? ` — ${flagged.map((o) => `${o.path.join('/') || 'itself'} ${o.size} ${o.flags.join('+')} (${o.state}/${o.status}${o.title ? ` "${o.title}"` : ''})`).join('; ')}` : ''}`);
    if (opts.verbose) for (const o of obs) log(`    ${o.path.join('/') || 'itself'} ${o.size}: ${o.state}/${o.status} modal=${JSON.stringify(o.modal)} shape=${o.shape ?? '-'} menuRows=${o.menuRows}`);
  }
  await cr.close();
  const recorded = [];
  if (opts.recordTo) {
    const dir = path.resolve(opts.recordTo);
    fs.mkdirSync(dir, { recursive: true });
    // The flagged targets; with --only, every target named (a fix's recordings, flagged or not).
    const wanted = (t) => !t.skip && (opts.only || observations.some((o) => o.target === t.label && o.flags.length && o.path.length === 0));
    for (const target of targets.filter(wanted)) {
      recorded.push({ target: target.label, name: await recordTarget(cli, version, cfg, start, target, dir) });
      log(`recorded ${target.label} → ${path.join(opts.recordTo, recorded.at(-1).name)}.cast`);
    }
  }
  const summary = { cli: cli.id, cliName: cli.cliName, version, commands, targets, observations, recorded, restarts: cr.restarts, minutes: (Date.now() - started) / 60000 };
  if (opts.screensTo) {
    fs.mkdirSync(path.dirname(path.resolve(opts.screensTo)), { recursive: true });
    fs.writeFileSync(opts.screensTo, JSON.stringify(summary) + '\n');
    log(`wrote ${opts.screensTo} (every screen, for --rejudge)`);
  }
  finish(summary, opts, log);
  return 0;
}

/** The report (with `--accuracy`) and the closing line of a crawl, live or judged again. */
function finish(summary, opts, log) {
  if (opts.accuracy) for (const f of writeCrawlReport(repo, summary)) log(`wrote ${path.relative(repo, f)}`);
  const flagged = new Set(summary.observations.filter((o) => o.flags.length).map((o) => o.target));
  const recordings = recordingsOfTargets(repo, summary.cli, summary.targets);
  const recorded = [...flagged].filter((t) => recordings.has(t) || summary.recorded.some((r) => r.target === t)).length;
  const minutes = summary.minutes === undefined ? '' : `, ${summary.minutes.toFixed(1)} min`;
  log(`${summary.cli} ${summary.version}: ${summary.commands.length} commands found, ${summary.targets.filter((t) => !t.skip).length} targets opened, ${flagged.size} flagged, ${recorded} of them recorded, ${summary.restarts} restarts${minutes}`);
}

/**
 * Two saved crawls as one: the later one's targets (an `--only` crawl after a fix) in place of
 * the earlier's, the earlier's figures otherwise.
 */
export function laterCrawl(earlier, later) {
  const again = new Set(later.observations.map((o) => o.target));
  return {
    ...earlier,
    version: later.version,
    observations: [...earlier.observations.filter((o) => !again.has(o.target)), ...later.observations],
    recorded: [...earlier.recorded, ...later.recorded],
    recrawled: [...(earlier.recrawled ?? []), ...again],
  };
}

/**
 * `--rejudge FILE[,FILE]`: crawls saved with `--screens-to`, judged again without starting the
 * CLI; a later file's targets replace the earlier's (see laterCrawl).
 */
function rejudgeSaved(opts) {
  const log = (line) => process.stdout.write(`${line}\n`);
  const saved = [];
  for (const file of opts.rejudge.split(',')) {
    try { saved.push(JSON.parse(fs.readFileSync(file, 'utf8'))); } catch (err) {
      process.stderr.write(`--rejudge ${file}: cannot read a saved crawl (${err.message}); write one with --screens-to FILE\n`);
      return 2;
    }
  }
  const summary = rejudge(saved.reduce(laterCrawl));
  for (const o of summary.observations.filter((x) => x.flags.length)) log(`⚑ ${o.target} ${o.path.join('/') || 'itself'} ${o.size} ${o.flags.join('+')} (${o.state}/${o.status}, ${o.buttons} buttons, ${o.menuRows} rows)`);
  finish(summary, opts, log);
  return 0;
}
