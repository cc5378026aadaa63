/**
 * The MCP set-up lab: `npm run lab -- mcp-setup [--cli codex,gemini,…] [--runs N] [--verbose]`.
 *
 * Proves docs/mcp.md's "Set-up per CLI" with the real CLIs (Codex, Gemini CLI, Qwen Code,
 * OpenCode, Kilo Code; pi has no MCP support). Per CLI and run: a real `specterm serve` in temp
 * dirs (lab/lib/lab-daemon.mjs) and an `input`-scoped device token; the CLI's scripted model
 * server and private HOME as its own lab has them (clis.mjs); `specterm` added to the CLI's
 * config file exactly as the doc says (lab/lib/mcp-setup.mjs), SPECTERM_TOKEN in its env; the
 * CLI started as a session of that daemon. Then two turns, each a call of one of specterm's
 * tools the model server scripts under the name the CLI offers it:
 *   1. `list_sessions` — its result must reach the model holding `"sessions"`, and `you` must be
 *      the CLI's own session id (the daemon sets SPECTERM_SESSION_ID; the MCP server must get it);
 *   2. `handoff` of "hello" to a new demo-agent worker — the worker's answer must come back.
 * A consent prompt the CLI raises for a tool is answered "yes, once" through the daemon's
 * approvals API, as a person on the dashboard would. The report: per CLI and run, the tool names
 * offered, whether consent was asked, each turn's verdict, the duration. Exit 0 only if all passed.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCli, recordVerdict } from '../lib/install-cli.mjs';
import { startLabDaemon } from '../lib/lab-daemon.mjs';
import { findTool, offeredTools, SERVER_NAME, toolResults, writeMcpServer } from '../lib/mcp-setup.mjs';
import { CLIS } from './clis.mjs';
import { endProcessesOf } from './sweep.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** specterm's tools (docs/mcp.md "Tools"): the names looked for in what a CLI offers. */
const SPECTERM_TOOLS = ['list_sessions', 'start_session', 'stop_session', 'send_message', 'read_screen', 'list_approvals', 'answer_approval', 'assign', 'task_status', 'list_tasks', 'read_transcript', 'handoff'];
/** Generous: a CLI starts in 15–60 s on a loaded 2-core box, and a handoff starts a worker. */
const LIMIT = { idleMs: 180_000, turnMs: 240_000 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function parseArgs(args) {
  const o = { clis: CLIS.map((c) => c.id), runs: 1, verbose: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => { const v = args[++i]; if (v === undefined) throw new Error(`${a} needs a value`); return v; };
    if (a === '--cli') o.clis = value().split(',');
    else if (a === '--runs') o.runs = Number(value());
    else if (a === '--verbose') o.verbose = true;
    else throw new Error(`unknown option ${JSON.stringify(a)} (options: --cli ${CLIS.map((c) => c.id).join(',')}, --runs N, --verbose)`);
  }
  const unknown = o.clis.filter((id) => !CLIS.some((c) => c.id === id));
  if (unknown.length) throw new Error(`--cli: no MCP set-up for ${unknown.join(', ')}; pick from ${CLIS.map((c) => c.id).join(', ')} (pi has no MCP support)`);
  if (!(Number.isInteger(o.runs) && o.runs >= 1)) throw new Error(`--runs: a whole number ≥ 1, got ${JSON.stringify(o.runs)}`);
  return o;
}

/** The lab's two turns: what is typed, the tool the model calls, with what, and what its result must hold. */
const turnsFor = (workerCwd) => [
  { name: 'list_sessions', match: 'list the sessions', prompt: 'please list the sessions', tool: 'list_sessions', arguments: {}, expect: /\\?"sessions\\?"/, done: 'Listed the sessions.' },
  { name: 'handoff', match: 'hand the greeting', prompt: 'please hand the greeting to a demo agent', tool: 'handoff', arguments: { spec: 'demo-agent', cwd: workerCwd, task: 'hello', timeout_ms: 120_000 }, expect: /Hello! I.m Demo Agent/, done: 'The demo agent answered.' },
];

/** The caller's id as list_sessions answered it (the result's JSON may be quoted once more inside the CLI's envelope). */
const youIn = (text) => /\\*"you\\*"\s*:\s*(?:\\*"([^"\\]+)|null)/.exec(text)?.[1] ?? null;

async function waitFor(what, fn, timeoutMs, pollMs = 500) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(pollMs);
  }
}

/** The first "yes, this once" button of an approval (never one that widens the grant). */
const onceButton = (buttons) => buttons.find((b) => /^(yes|allow|approve|proceed)\b/i.test(b.label) && !/always|session|server|don.t ask/i.test(b.label)) ?? buttons[0];

/** One run of one CLI; answers its record. Everything it starts is ended before it returns. */
async function runOnce(cli, binPath, run, opts) {
  const startedAt = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `specterm-mcp-${cli.id}-`));
  const record = { cli: cli.id, run, tools: [], consent: [], retries: 0, turns: {}, you: null, sessionId: null, ms: 0, error: null };
  const requests = [];
  const say = (line) => { if (opts.verbose) process.stderr.write(`  ${cli.id}#${run} ${line}\n`); };
  let daemon = null;
  let server = null;
  let home = null;
  try {
    const turns = turnsFor(tmp);
    server = await cli.startServer({
      turns,
      onRequest: (body) => {
        const tools = offeredTools(body);
        if (!requests.length) say(`first request offers ${tools.length} tools: ${tools.join(' ')}`);
        requests.push({ t: Date.now(), tools, results: toolResults(body) });
      },
    });
    const dirs = cli.prepare({ tmp, serverUrl: server.url });
    home = dirs.home;
    // The daemon runs with the person's HOME, as `specterm serve` does: the spec's pre_launch_trust
    // is written there (a session's own HOME in its env is not where the daemon writes it).
    fs.mkdirSync(path.join(tmp, 'd'), { mode: 0o700 });
    daemon = await startLabDaemon({ root: path.join(tmp, 'd'), env: { HOME: home } });
    const { token } = await daemon.call('POST', '/api/v1/tokens', { name: `${cli.id}-mcp-lab-${run}`, scope: 'input' });
    // As docs/mcp.md says: the server's command, and the token in its env (here with the lab daemon's dirs).
    const file = writeMcpServer(cli.id, dirs, { ...daemon.mcpServer, env: { ...daemon.mcpServer.env, SPECTERM_TOKEN: token } });
    say(`config ${file}`);
    const spec = { ...JSON.parse(fs.readFileSync(path.join(repo, 'specs', cli.id, 'spec.json'), 'utf8')), binary: binPath };
    const specFile = path.join(tmp, 'spec.json');
    fs.writeFileSync(specFile, JSON.stringify(spec), { mode: 0o600 });
    const session = await daemon.call('POST', '/api/v1/sessions', {
      spec: specFile, cwd: dirs.work, cols: 120, rows: 40, name: `${cli.id}-mcp`,
      env: { TERM: 'xterm-256color', COLORTERM: 'truecolor', NO_BROWSER: '1', NPM_CONFIG_PREFIX: path.join(tmp, 'npm-global'), ...dirs.env },
    });
    record.sessionId = session.id;
    const detail = () => daemon.call('GET', `/api/v1/sessions/${session.id}`);
    const screen = async () => (await daemon.call('GET', `/api/v1/sessions/${session.id}/screen`)).content.replace(/\s+$/gm, '');
    const alive = async () => { const d = await detail(); if (d.lifecycle === 'exited' || d.lifecycle === 'failed') throw new Error(`the CLI ${d.lifecycle}; screen:\n${await screen()}`); return d; };
    await waitFor('the CLI idle', async () => (await alive()).state?.status === 'idle', LIMIT.idleMs);
    say('idle');
    for (const turn of turns) {
      const since = Date.now();
      const type = async () => {
        await daemon.call('POST', `/api/v1/sessions/${session.id}/messages`, { text: turn.prompt });
        say(`typed "${turn.prompt}"`);
        return Date.now();
      };
      let typedAt = await type();
      let result = null;
      try {
        result = await waitFor(`the ${turn.tool} result back at the model`, async () => {
          const d = await alive();
          // A CLI still connecting its MCP servers answers without them: the turn ends with no call; type it again.
          const asked = requests.filter((r) => r.t >= typedAt);
          if (asked.length && asked.every((r) => !findTool(r.tools, turn.tool)) && d.state?.status === 'idle' && Date.now() - asked.at(-1).t > 5000 && record.retries < 3) {
            record.retries++;
            typedAt = await type();
          }
          const pending = (await daemon.call('GET', '/api/v1/approvals')).approvals.filter((a) => a.session_id === session.id && a.kind === 'approval');
          for (const a of pending) {
            const button = onceButton(a.buttons);
            record.consent.push({ turn: turn.name, title: a.title, buttons: a.buttons.map((b) => b.label), pressed: button.label });
            say(`consent "${a.title}" → ${button.label}`);
            await daemon.call('POST', `/api/v1/approvals/${a.id}`, { button: button.index, fingerprint: a.fingerprint }).catch((err) => say(`answer refused: ${err.message}`));
          }
          return requests.filter((r) => r.t >= since).flatMap((r) => r.results).find((text) => turn.expect.test(text)) ?? null;
        }, LIMIT.turnMs);
      } catch (err) {
        record.turns[turn.name] = { ok: false, why: `${err.message}; screen:\n${await screen().catch(() => '?')}` };
        continue;
      }
      record.turns[turn.name] = { ok: true, result: result.slice(0, 300) };
      if (turn.name === 'list_sessions') record.you = youIn(result);
      say(`${turn.name} result ${result.slice(0, 160)}`);
      await waitFor('the CLI idle after the turn', async () => (await alive()).state?.status === 'idle', LIMIT.idleMs).catch(() => null);
    }
  } catch (err) {
    record.error = String(err?.message ?? err);
  } finally {
    // Prefixed names only: a CLI's own tool may share a bare name (Qwen Code's send_message).
    record.tools = [...new Set(requests.flatMap((r) => r.tools).filter((n) => n.includes(SERVER_NAME) && SPECTERM_TOOLS.some((t) => findTool([n], t))))];
    await daemon?.stop().catch(() => {});
    if (home) await endProcessesOf(home);
    await server?.close().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
    record.ms = Date.now() - startedAt;
  }
  return record;
}

const verdict = (r) => !r.error && r.turns.list_sessions?.ok && r.sessionId !== null && r.you === r.sessionId && r.turns.handoff?.ok;

function report(records) {
  const lines = ['| CLI | run | specterm tools offered as | consent asked | list_sessions | you = own session | handoff | prompts typed again | duration |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of records) {
    const tools = r.tools.filter((n) => /list_sessions|handoff/.test(n)).join(', ') || '(none)';
    const consent = r.consent.length ? r.consent.map((c) => `${c.turn}: "${c.title}" → ${c.pressed}`).join('; ') : 'no';
    const ok = (t) => (r.turns[t]?.ok ? 'pass' : 'FAIL');
    lines.push(`| ${r.cli} | ${r.run} | ${tools} (${r.tools.length} of ${SPECTERM_TOOLS.length}) | ${consent} | ${ok('list_sessions')} | ${r.sessionId && r.you === r.sessionId ? 'yes' : `no (${r.you})`} | ${ok('handoff')} | ${r.retries} | ${(r.ms / 1000).toFixed(1)} s |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Entry point for lab/run.mjs. */
export async function main(args) {
  const opts = parseArgs(args);
  const records = [];
  for (const cli of CLIS.filter((c) => opts.clis.includes(c.id))) {
    const { binPath, version } = ensureCli(cli.pkg, cli.version, cli.bin);
    for (let run = 1; run <= opts.runs; run++) {
      process.stderr.write(`mcp-setup: ${cli.name} ${version}, run ${run}\n`);
      const r = await runOnce(cli, binPath, run, opts);
      records.push({ ...r, version });
      recordVerdict(`${cli.id}#${run}`, Boolean(verdict(r)));
      if (!verdict(r)) process.stderr.write(`mcp-setup: ${cli.id} run ${run} failed: ${JSON.stringify({ error: r.error, turns: r.turns, you: r.you, session: r.sessionId }, null, 2)}\n`);
    }
  }
  process.stdout.write(report(records));
  return records.every(verdict) ? 0 : 1;
}
