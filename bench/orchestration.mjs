#!/usr/bin/env node
/**
 * Agents handing work to agents (issue 28, performance), through the real `specterm mcp` (the
 * official SDK's client over stdio) and a real daemon with Demo Agent workers:
 *
 * 1. **Handoff overhead** (target p99 ≤ 100 ms): `--handoffs` (30) `handoff` calls to one idle
 *    worker. The worker's own time is its turn as the daemon saw it: from the message's keys
 *    written to its terminal (`messages.typed_at`) to the driver's idle after the turn (the
 *    `session.state` event) — it includes the spec's submit delay and the spec's "screen is
 *    still" window, which belong to the CLI's input protocol and to reading its screen. The
 *    overhead is everything else: the MCP hop, the tool's checks, the daemon's API, waiting for
 *    the worker to be ready, reading the answer and the reply. Split as `before` (call → keys
 *    written) and `after` (idle → the tool's answer at this client).
 * 2. **Concurrent tasks** (target: none lost or duplicated): `--tasks` (50) `assign` calls at
 *    once from 5 MCP servers, to `--workers` (10) Demo Agents whose scenario answers `task <n>`
 *    with `answer <n>`; every task must end `done` with its own answer, every worker's transcript
 *    must hold each of its tasks' messages once, and the daemon must list exactly that many tasks.
 *
 * Usage: npm run build && node bench/orchestration.mjs [--handoffs 30] [--tasks 50] [--workers 10]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startDemoDaemon } from '../scripts/start-daemon.mjs';

const BIN = fileURLToPath(new URL('../bin/specterm.js', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const HANDOFFS = arg('handoffs', 30);
const TASKS = arg('tasks', 50);
const WORKERS = arg('workers', 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };
const stats = (xs) => `p50 ${pct(xs, 50)} ms, p99 ${pct(xs, 99)} ms, max ${Math.max(...xs)} ms (n=${xs.length})`;

async function until(what, ms, check) {
  for (const t = Date.now(); ; await sleep(100)) {
    const value = await check();
    if (value) return value;
    if (Date.now() - t > ms) throw new Error(`bench: ${what} not within ${ms} ms`);
  }
}

const daemon = await startDemoDaemon({ args: ['--session-limit', String(WORKERS + 10)] });
const clients = [];
try {
  const mcp = async (env = {}) => {
    const client = new Client({ name: 'bench-orchestration', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { ...daemon.env, ...env }, stderr: 'inherit' }));
    clients.push(client);
    return client;
  };
  /** Calls a tool; a RATE_LIMITED refusal (the MCP server's or the daemon's token bucket) is retried after the wait it names, as an agent would. */
  let rateLimited = 0;
  const tool = async (client, name, args) => {
    for (;;) {
      const answer = await client.callTool({ name, arguments: args });
      const text = answer.content.map((c) => c.text).join('');
      if (answer.isError && text.startsWith('RATE_LIMITED')) {
        rateLimited += 1;
        const wait = /retry in (\d+) s/.exec(text)?.[1] * 1000 || Number(/wait (\d+) ms/.exec(text)?.[1]) || 1000;
        await sleep(wait);
        continue;
      }
      if (answer.isError) throw new Error(`${name}: ${text}`);
      return answer.structuredContent;
    }
  };
  const idle = (id) => until(`${id} idle`, 60_000, async () => (await daemon.client.call('getSession', { params: { id } })).state?.status === 'idle');
  const db = new Database(path.join(daemon.stateDir, 'specterm.db'), { readonly: true });

  // 1. Handoff overhead.
  const worker = (await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: daemon.work, name: 'worker', cols: 100, rows: 30 } })).id;
  await idle(worker);
  const client = await mcp();
  const typedAt = db.prepare('SELECT typed_at FROM messages WHERE session_id = ? AND text = ? ORDER BY id DESC LIMIT 1');
  const states = db.prepare("SELECT t, payload FROM events WHERE session_id = ? AND type = 'session.state' AND t >= ? ORDER BY seq");
  const overhead = [];
  const before = [];
  const after = [];
  const workerMs = [];
  for (let i = -2; i < HANDOFFS; i++) {
    const task = `hello number ${i}`;
    const t0 = Date.now();
    const answer = await tool(client, 'handoff', { session: worker, task, timeout_ms: 60_000 });
    const t1 = Date.now();
    if (!answer.answer?.startsWith("Hello! I'm Demo Agent")) throw new Error(`handoff ${i}: answered ${JSON.stringify(answer)}`);
    const typed = typedAt.get(worker, task)?.typed_at;
    let busy = false;
    let idleAt = null;
    for (const row of states.all(worker, typed)) {
      const status = JSON.parse(row.payload).state.status;
      if (status !== 'idle') busy = true;
      else if (busy) { idleAt = row.t; break; }
    }
    if (typed == null || idleAt === null) throw new Error(`handoff ${i}: no typed_at (${typed}) or idle after it (${idleAt})`);
    if (i < 0) continue; // warm-up
    workerMs.push(idleAt - typed);
    overhead.push(t1 - t0 - (idleAt - typed));
    before.push(typed - t0);
    after.push(t1 - idleAt);
  }
  console.log(`handoff overhead: ${stats(overhead)}`);
  console.log(`  before the keys (MCP hop, checks, ready, enqueue): ${stats(before)}`);
  console.log(`  after the idle (answer read, reply): ${stats(after)}`);
  console.log(`  the worker's own turn (keys written → idle): ${stats(workerMs)}`);
  await daemon.client.call('killSession', { params: { id: worker } });

  // 2. Concurrent tasks.
  const scenario = path.join(daemon.work, 'numbered.json');
  fs.writeFileSync(scenario, JSON.stringify({
    model: 'demo-sonnet',
    rules: [...Array.from({ length: TASKS }, (_, n) => ({ match: `\\btask ${n}\\b`, steps: [{ think_ms: 400 }, { say: `answer ${n}` }] })), { steps: [{ say: 'no task number' }] }],
  }));
  const workers = [];
  for (let w = 0; w < WORKERS; w++) workers.push((await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: daemon.work, name: `w${w}`, cols: 100, rows: 30, args: ['--scenario', scenario] } })).id);
  for (const id of workers) await idle(id);
  const assigners = await Promise.all(Array.from({ length: 5 }, () => mcp()));
  const started = Date.now();
  const assigned = await Promise.all(Array.from({ length: TASKS }, (_, n) => tool(assigners[n % 5], 'assign', { session: workers[n % WORKERS], task: `please do task ${n}`, timeout_ms: 600_000 })));
  const finished = await until('every task finished', 900_000, async () => {
    const { tasks } = await daemon.client.call('listTasks');
    const mine = tasks.filter((t) => assigned.some((a) => a.id === t.id));
    return mine.every((t) => ['done', 'failed', 'timed_out', 'cancelled'].includes(t.status)) ? mine : null;
  });
  const took = Date.now() - started;
  const wrong = assigned.filter((a) => {
    const t = finished.find((f) => f.id === a.id);
    const n = a.text.match(/task (\d+)/)[1];
    return t?.status !== 'done' || t.result?.text !== `answer ${n}`;
  });
  let repeated = 0;
  for (const [w, id] of workers.entries()) {
    const { transcript } = await daemon.client.call('getTranscript', { params: { id } });
    const typed = transcript.turns.map((t) => t.user?.text);
    const expected = assigned.filter((_, n) => n % WORKERS === w).map((a) => a.text);
    for (const text of expected) if (typed.filter((u) => u === text).length !== 1) repeated += 1;
  }
  const listed = (await daemon.client.call('listTasks')).tasks.length;
  console.log(`${TASKS} concurrent tasks on ${WORKERS} workers: ${TASKS - wrong.length} done with their own answer, ${wrong.length} lost or wrong, ${repeated} typed other than once, ${listed} tasks listed; all finished in ${took} ms (${rateLimited} calls slowed by RATE_LIMITED and retried)`);
  for (const w of wrong.slice(0, 5)) console.log(`  wrong: ${w.id} ${w.text} → ${JSON.stringify(finished.find((f) => f.id === w.id))}`);
  db.close();
  if (wrong.length > 0 || repeated > 0 || listed !== TASKS) process.exitCode = 1;
} finally {
  for (const c of clients) await c.close().catch(() => {});
  await daemon.stop();
}
