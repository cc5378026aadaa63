#!/usr/bin/env node
/**
 * Transcript search (issue 26, performance): a store holding `--sessions` (1,000) sessions of
 * `--turns` (200) turns each — a person's message, an answer, one tool call with its output,
 * words drawn from a fixed vocabulary plus a few rare ones — then `search()` for common words,
 * rare words and a prefix, each run `--runs` times. Reports the p50/p95/max per query and the
 * time to fill the store. Goal: ≤ 50 ms per search.
 *
 * Usage: npm run build && node bench/transcript-search.mjs [--sessions 1000] [--turns 200] [--runs 20]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../dist/store/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SESSIONS = arg('sessions', 1000);
const TURNS = arg('turns', 200);
const RUNS = arg('runs', 20);
const WORDS = 'the test suite passes fails parser config file error build run fix change refactor function module import export type value string number array object server client request response token cache queue worker thread process memory disk network socket timeout retry'.split(' ');

let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const sentence = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');

const dir = mkdtempSync(path.join(os.tmpdir(), 'st-bench-search-'));
try {
  const store = openStore(path.join(dir, 'state.db'));
  const t0 = performance.now();
  const meta = { source: { kind: 'native', format: 'demo-jsonl' }, native_session_ids: ['n'], usage: null, warnings: [] };
  for (let s = 0; s < SESSIONS; s++) {
    const id = `s${s}`;
    store.sessions.insert({ id, cwd: '/work', createdAt: s });
    const turns = [];
    for (let t = 0; t < TURNS; t++) {
      const rare = t === 7 && s % 100 === 0 ? ' zanzibar' : '';
      turns.push({
        index: t, native_session_id: 'n', user: { text: sentence(12) + rare, at: t }, model: null, usage: null, started_at: t, ended_at: t,
        items: [
          { kind: 'text', text: sentence(60), at: t },
          { kind: 'tool_call', id: `c${t}`, name: 'Bash', input: { command: sentence(4) }, output: sentence(40), status: 'ok', at: t, duration_ms: 1, edits: [] },
        ],
      });
    }
    store.transcripts.append(id, meta, turns, s);
  }
  const fillMs = performance.now() - t0;
  const results = {};
  for (const q of ['parser', 'timeout retry', 'zanzibar', 'refac', 'worker thread memory']) {
    const times = [];
    let hits = 0;
    for (let i = 0; i < RUNS; i++) {
      const a = performance.now();
      hits = store.transcripts.search(q, 50).length;
      times.push(performance.now() - a);
    }
    times.sort((x, y) => x - y);
    results[q] = { hits, p50: times[Math.floor(times.length / 2)], p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)], max: times[times.length - 1] };
  }
  store.close();
  const mb = statSync(path.join(dir, 'state.db')).size / 1e6;
  process.stdout.write(`transcript search: ${SESSIONS} sessions × ${TURNS} turns, filled in ${(fillMs / 1000).toFixed(1)} s, database ${mb.toFixed(0)} MB\n`);
  for (const [q, r] of Object.entries(results)) process.stdout.write(`  ${JSON.stringify(q).padEnd(24)} ${String(r.hits).padStart(3)} hits  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  max ${r.max.toFixed(1)} ms\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
