#!/usr/bin/env node
/**
 * Regenerates docs/accuracy.md: one table of the same shape for every built-in spec, computed from
 * its committed recordings (specs/<id>/recordings), then each CLI's live lab summary (the first
 * table under each `## <CLI version>` heading of docs/accuracy/<id>.md, written by
 * `npm run lab -- <cli> --accuracy`) and its prompt coverage table (docs/accuracy/prompts/<id>.md,
 * hand-written), and a per-recording table in docs/accuracy/recordings.md.
 *
 * Every recording with a `.expect.json` is replayed through the real driver in virtual time (the
 * engine of `npm test`). From it:
 * - **expectations met**: the recording's expect file passes;
 * - **buttons right** / **kinds right**: expected modals (sequence steps with `modal.buttons` /
 *   `modal.kind`) that the replay shows with exactly those buttons / that kind;
 * - **labelled time right**, **latency p50/p95 per status**: only where the lab wrote ground-truth
 *   labels beside the recording (`<name>.labels.json`: `{intervals: [{from_ms, to_ms, status}]}`
 *   from the scripted server's log and the lab's actions; lab/lib/lab-kit.mjs writeLabels). Right
 *   time samples every 20 ms of each interval; latency runs from an interval's start to the first
 *   moment the replayed status equals its status (0 when already there; a miss when never inside
 *   the interval);
 * - **flaps**: a status that lasts under 500 ms between two spans of the same other status
 *   (A→B→A), counted over every recording, labelled or not.
 *
 * Usage: npm run build && node lab/accuracy-index.mjs
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
const FLAP_MS = 500;
const SAMPLE_MS = 20;

/** The replayed status in force at `ms` (recording time). */
function statusAt(changes, ms) {
  let cur = null;
  for (const c of changes) { if (c.t * 1000 <= ms) cur = c.status; else break; }
  return cur;
}

/** Scores one replay against its labels: right/labelled ms and per-status latencies (null = missed). */
export function scoreLabels(changes, intervals) {
  let labelled = 0;
  let right = 0;
  const latency = [];
  for (const iv of intervals) {
    for (let t = iv.from_ms; t < iv.to_ms; t += SAMPLE_MS) { labelled += SAMPLE_MS; if (statusAt(changes, t) === iv.status) right += SAMPLE_MS; }
    let ms = null;
    if (statusAt(changes, iv.from_ms) === iv.status) ms = 0;
    else {
      const hit = changes.find((c) => c.t * 1000 > iv.from_ms && c.t * 1000 < iv.to_ms && c.status === iv.status);
      if (hit) ms = Math.round(hit.t * 1000 - iv.from_ms);
    }
    latency.push({ status: iv.status, ms });
  }
  return { labelled, right, latency };
}

/** A→B→A with B shorter than FLAP_MS, on the status alone (state changes within one status are not flaps). */
export function countFlaps(changes) {
  const runs = [];
  for (const c of changes) {
    if (runs.length && runs[runs.length - 1].status === c.status) continue;
    runs.push({ status: c.status, at: c.t * 1000 });
  }
  let flaps = 0;
  for (let i = 1; i + 1 < runs.length; i++) {
    if (runs[i - 1].status === runs[i + 1].status && runs[i + 1].at - runs[i].at < FLAP_MS) flaps++;
  }
  return flaps;
}

const labelsOf = (modal) => (modal?.buttons ?? []).map((b) => (typeof b === 'string' ? b : b.label));
const sameLabels = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Expected modals of an expect file and whether the replay showed each with those buttons / that kind. */
export function scoreModals(expect, changes) {
  const out = { buttons: [0, 0], kinds: [0, 0] };
  for (const step of expect.sequence ?? []) {
    const m = step.modal;
    if (!m || typeof m !== 'object') continue;
    const candidates = changes.filter((c) => c.modal && (step.state === undefined || c.state === step.state) && (m.title === undefined || c.modal.title === m.title));
    if (m.buttons) { out.buttons[1]++; if (candidates.some((c) => sameLabels(labelsOf(c.modal), labelsOf(m)))) out.buttons[0]++; }
    if (m.kind !== undefined) { out.kinds[1]++; if (candidates.some((c) => c.modal.kind === m.kind)) out.kinds[0]++; }
  }
  return out;
}

function percentile(values, p) {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)];
}

const pct = (right, of) => (of ? `${((100 * right) / of).toFixed(1)} %` : 'n/a');
const ratio = ([a, b]) => (b ? `${a}/${b}` : '—');
function latencyCell(lat) {
  const hits = lat.filter((l) => l.ms !== null).map((l) => l.ms);
  if (!lat.length) return '—';
  const missed = lat.length - hits.length;
  const p = hits.length ? `${percentile(hits, 50)} / ${percentile(hits, 95)}` : 'n/a';
  return `${p} (n=${lat.length}${missed ? `, ${missed} missed` : ''})`;
}

/**
 * The CLI version a recording was made with, from its expect file's description: the lab ends it
 * with `(<CLI> <version>, lab/<cli>)`, so the last version there (a description may name another
 * first, e.g. the `latest_version 0.999.0` an update-notice scenario fakes); null when none.
 * @param {string | undefined} description
 */
export function recordedVersion(description) {
  const all = [...(description ?? '').matchAll(/\b(\d+\.\d+\.\d+)\b/g)];
  return all.at(-1)?.[1] ?? null;
}

/** Replays every recording of every built-in spec; returns per-spec and per-recording figures. */
export async function collectFigures() {
  const { discoverSpecTests, runSpecTestCase } = await import(dist('harness/spec-test.js'));
  const { cases, errors } = discoverSpecTests();
  if (errors.length) throw new Error(`accuracy-index: ${errors.join('; ')}`);
  const specs = new Map();
  for (const c of cases) {
    const expect = JSON.parse(readFileSync(c.expectPath, 'utf8'));
    const r = runSpecTestCase(c);
    const labelsPath = c.castPath.replace(/\.cast$/, '.labels.json');
    const labels = existsSync(labelsPath) ? JSON.parse(readFileSync(labelsPath, 'utf8')) : null;
    const scored = labels ? scoreLabels(r.changes, labels.intervals) : null;
    const rec = {
      name: c.name, ok: r.ok, labelled: scored !== null, labelledMs: scored?.labelled ?? 0, rightMs: scored?.right ?? 0,
      latency: scored?.latency ?? [], flaps: countFlaps(r.changes), ...scoreModals(expect, r.changes),
      version: recordedVersion(expect.description),
    };
    if (!specs.has(c.specId)) {
      const spec = JSON.parse(readFileSync(c.specPath, 'utf8'));
      specs.set(c.specId, { id: c.specId, name: spec.name ?? c.specId, range: spec.cli_version_range ?? null, recordings: [] });
    }
    specs.get(c.specId).recordings.push(rec);
  }
  return [...specs.values()].sort((a, b) => a.id.localeCompare(b.id));
}

const SUMMARY_HEAD = [
  '| CLI | versions | recordings (expectations met) | labelled time right | buttons right | kinds right | generating p50 / p95 ms | approval p50 / p95 ms | idle p50 / p95 ms | flaps |',
  '|---|---|---|---|---|---|---|---|---|---|',
];

function summaryRow(s) {
  const r = s.recordings;
  const sum = (k) => r.reduce((a, x) => a + x[k], 0);
  const pair = (k) => [r.reduce((a, x) => a + x[k][0], 0), r.reduce((a, x) => a + x[k][1], 0)];
  const versions = [...new Set(r.map((x) => x.version).filter(Boolean))].sort().join(', ') || (s.range ? `range ${s.range}` : '—');
  const labelledN = r.filter((x) => x.labelled).length;
  const lat = (status) => latencyCell(r.flatMap((x) => x.latency.filter((l) => l.status === status)));
  return `| ${s.id} (${s.name}) | ${versions} | ${r.length} (${r.filter((x) => x.ok).length}) | ${pct(sum('rightMs'), sum('labelledMs'))} (${(sum('labelledMs') / 1000).toFixed(1)} s, ${labelledN} of ${r.length} labelled) | ${ratio(pair('buttons'))} | ${ratio(pair('kinds'))} | ${lat('generating')} | ${lat('approval')} | ${lat('idle')} | ${sum('flaps')} |`;
}

/** The first table under each `## <CLI version>` heading of a lab report: its live summary. */
function labSummaries(text) {
  const out = [];
  let current = null;
  for (const line of text.split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) { current = { version: h[1], table: [], done: false }; out.push(current); continue; }
    if (!current || current.done) continue;
    if (line.startsWith('|')) current.table.push(line);
    else if (current.table.length > 0) current.done = true;
  }
  return out.filter((s) => s.table.length > 0);
}

function writeAtomic(file, text) {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

async function main() {
  const specs = await collectFigures();
  const dir = join(root, 'docs', 'accuracy');
  const out = [
    '# Accuracy of the built-in specs',
    '',
    'Generated by `node lab/accuracy-index.mjs` (after `npm run build`); do not edit by hand. Sources: every',
    'recording of every built-in spec (`specs/<id>/recordings`, the same replays `npm test` runs), each',
    'CLI\'s live lab report (`npm run lab -- <cli> --accuracy` → docs/accuracy/<id>.md) and its prompt',
    'coverage table (docs/accuracy/prompts/<id>.md). Per-recording figures: [docs/accuracy/recordings.md](accuracy/recordings.md).',
    'What the crawler found by opening every command and key chord of each CLI (`npm run lab -- <cli> --crawl',
    '--accuracy`): [docs/accuracy/crawl.md](accuracy/crawl.md).',
    '',
    '## All CLIs, from the committed recordings',
    '',
    '* **recordings (expectations met)**: recordings with an expect file, and how many replay to it.',
    '* **labelled time right**: over the recordings whose lab wrote ground-truth labels beside them',
    '  (`<name>.labels.json`, from the scripted server\'s log and the lab\'s actions), the share of',
    '  labelled time the replayed status was the labelled one.',
    '* **buttons right** / **kinds right**: expected modals shown with exactly the expected buttons / kind.',
    '* **p50 / p95 ms**: from a labelled interval\'s start to the replayed status reaching it (0 = already',
    '  there); "missed" = never inside the interval.',
    `* **flaps**: a status lasting under ${FLAP_MS} ms between two spans of the same other status, over all recordings.`,
    '',
    ...SUMMARY_HEAD,
    ...specs.map(summaryRow),
    '',
  ];
  for (const s of specs) {
    const report = join(dir, `${s.id}.md`);
    const coverage = join(dir, 'prompts', `${s.id}.md`);
    if (!existsSync(report) && !existsSync(coverage)) continue;
    out.push(`## ${s.id} — ${s.name}`, '');
    if (existsSync(report)) {
      for (const l of labSummaries(readFileSync(report, 'utf8'))) {
        // A per-run table keeps only its header and its "all" row.
        const rows = l.table.some((x) => /\*\*all\*\*/.test(x)) ? [l.table[0], l.table[1], ...l.table.filter((x) => /\*\*all\*\*/.test(x))] : l.table;
        out.push(`Live lab, ${l.version} — details: [docs/accuracy/${s.id}.md](accuracy/${s.id}.md)`, '', ...rows, '');
      }
    }
    if (existsSync(coverage)) out.push(readFileSync(coverage, 'utf8').trim().replace(/^# .*\n+/, '### Prompt coverage\n\n'), '');
  }
  writeAtomic(join(root, 'docs', 'accuracy.md'), out.join('\n'));
  const rec = [
    '# Accuracy per recording',
    '',
    'Generated by `node lab/accuracy-index.mjs`; definitions in [docs/accuracy.md](../accuracy.md).',
    '',
    '| recording | expectations met | labelled time right | buttons right | kinds right | flaps |',
    '|---|---|---|---|---|---|',
    ...specs.flatMap((s) => s.recordings.map((r) => `| ${r.name} | ${r.ok ? 'yes' : '**no**'} | ${r.labelled ? `${pct(r.rightMs, r.labelledMs)} of ${(r.labelledMs / 1000).toFixed(1)} s` : 'not labelled'} | ${ratio(r.buttons)} | ${ratio(r.kinds)} | ${r.flaps} |`)),
    '',
  ];
  writeAtomic(join(dir, 'recordings.md'), rec.join('\n'));
  console.log(`docs/accuracy.md: ${specs.length} spec(s), ${specs.reduce((a, s) => a + s.recordings.length, 0)} recording(s)`);
  for (const s of specs) console.log(summaryRow(s));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => { process.stderr.write(`${err.stack ?? err}\n`); process.exitCode = 1; });
}
