#!/usr/bin/env node
/**
 * How soon after a turn's idle its answer is there (issue 26, performance: ≤ 200 ms). The real
 * daemon (`scripts/start-daemon.mjs`: `specterm serve` on throw-away dirs) runs a Demo Agent
 * session with its own history (`native`: demo-jsonl) and one under a copy of its spec without
 * `native_history` (`screen`: the answer read off the screen). `--turns` (15) messages each, sent
 * with `wait: "idle"`; the event stream (SSE) is read throughout. Per turn, both measured at this
 * client from the turn's `turn.finished` event (the idle):
 *  - `event`: the `transcript.turn` event carrying the ended turn for that message arrives
 *    (0 when it came first: the history was written before the screen went idle);
 *  - `reply`: the `sendMessage` reply, which carries the answer, arrives.
 *
 * Usage: npm run build && node bench/transcript-answer.mjs [--turns 15]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoDaemon } from '../scripts/start-daemon.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const TURNS = arg('turns', 15);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };

const daemon = await startDemoDaemon();
try {
  const spec = JSON.parse(fs.readFileSync(path.join(here, '../specs/demo-agent/spec.json'), 'utf8'));
  delete spec.native_history;
  spec.spawn_args = spec.spawn_args.map((a) => a.replace('{{specDir}}', path.join(here, '../specs/demo-agent')));
  const screenSpec = path.join(daemon.work, 'demo-without-history.json');
  fs.writeFileSync(screenSpec, JSON.stringify(spec));
  for (const [mode, specRef] of [['native', 'demo-agent'], ['screen', screenSpec]]) {
    const id = (await daemon.client.call('createSession', { body: { spec: specRef, cwd: daemon.work, name: mode, cols: 100, rows: 30 } })).id;
    for (let t = Date.now(); (await daemon.client.call('getSession', { params: { id } })).state?.id !== 'idle'; await sleep(100)) {
      if (Date.now() - t > 60_000) throw new Error(`${mode}: the session did not reach idle`);
    }
    const finishedAt = [];
    const answerAt = new Map();
    const abort = new AbortController();
    const reading = (async () => {
      try {
        for await (const e of daemon.client.events({ sessionId: id, signal: abort.signal })) {
          const now = performance.now();
          if (e.type === 'turn.finished') finishedAt.push(now);
          if (e.type === 'transcript.turn' && e.turn.ended_at !== null && e.turn.user && !answerAt.has(e.turn.user.text)) answerAt.set(e.turn.user.text, now);
        }
      } catch (error) { if (!abort.signal.aborted) throw error; }
    })();
    // Ended with the daemon when a turn fails: the turn's error is the one to report.
    reading.catch(() => {});
    await sleep(300);
    const event = [];
    const reply = [];
    try {
    for (let i = 0; i < TURNS; i++) {
      const text = `hello number ${i}`;
      const before = finishedAt.length;
      const outcome = await daemon.client.call('sendMessage', { params: { id }, body: { text, wait: 'idle', timeout_ms: 60_000 } });
      const repliedAt = performance.now();
      if (!outcome.answer) throw new Error(`${mode}: turn ${i} answered without its answer (${outcome.delivery})`);
      for (let t = Date.now(); finishedAt.length === before || !answerAt.has(text); await sleep(10)) {
        if (Date.now() - t > 10_000) throw new Error(`${mode}: turn ${i}: no turn.finished or transcript.turn event`);
      }
      const idle = finishedAt[before];
      event.push(Math.max(0, answerAt.get(text) - idle));
      reply.push(Math.max(0, repliedAt - idle));
      await sleep(200);
    }
    } finally {
      abort.abort();
    }
    await reading;
    const show = (name, xs) => console.log(`transcript_answer_${mode}_${name}_p50_ms=${pct(xs, 50).toFixed(1)}\ntranscript_answer_${mode}_${name}_max_ms=${Math.max(...xs).toFixed(1)}`);
    show('event', event);
    show('reply', reply);
  }
} finally {
  await daemon.stop();
}
