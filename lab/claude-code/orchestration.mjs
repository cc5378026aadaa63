/**
 * The orchestration scenarios of the Claude Code lab (`action: "handoff"` / `"assign"`): the real
 * Claude Code calls specterm's own MCP tools. A lab daemon (lab/lib/lab-daemon.mjs) starts Claude
 * Code through its API, so the CLI carries SPECTERM_SESSION_ID and `specterm mcp` (named in the
 * workspace's `.mcp.json`) knows who is calling; the scripted server answers the prompt with a
 * `tool_use` of `mcp__specterm__handoff` or `mcp__specterm__assign` asking a demo-agent worker for
 * a greeting, and the server's log of the NEXT request is the proof: the tool_result holding the
 * demo agent's own answer (handoff), or a new user message `[specterm task <id> done by …]`
 * holding it, typed into Claude Code by the daemon once it was idle (assign).
 *
 * The tools are pre-allowed in the workspace's `.claude/settings.local.json` (`permissions.allow`,
 * what "Yes, and don't ask again" persists): the approval prompt itself is proven by mcp-yes.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { startLabDaemon } from '../lib/lab-daemon.mjs';
import { claudeEnv, prepareHome, writeProjectMcp } from './claude-home.mjs';
import { startServer } from './server.mjs';

/** The scenario actions run here rather than under the lab's own driver. */
const ACTIONS = ['handoff', 'assign'];
/**
 * Each wait of a run (Claude Code up with its MCP server, a worker started and answering, a result
 * typed back): minutes, not seconds, since the daemon, its PTY host, Claude Code, `specterm mcp`
 * and a demo agent all start on a possibly loaded 2-core box.
 */
const WAIT_MS = Number(process.env.CLAUDE_LAB_ORCHESTRATION_WAIT_MS) || 120_000;
const POLL_MS = 200;
/** An MCP server idle this long has answered its client's start-up requests. */
const QUIET_MS = 1500;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether the lab runs `sc` here. */
export function isOrchestration(sc) {
  return ACTIONS.includes(sc.action);
}

/** The first value `probe` answers (not null/undefined) within `timeoutMs`; else throws naming `what`. */
async function waitFor(probe, what, timeoutMs = WAIT_MS) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}

/** CPU ticks `pid` has used so far (user + system), or null once it is gone. */
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * Resolves once `pid` has used no CPU for {@link QUIET_MS} (an MCP server that loaded and answered
 * what its client asked at start), or is gone, or after {@link WAIT_MS} (the check that follows
 * says what was missing).
 */
async function waitQuiet(pid) {
  let last = cpuTicks(pid);
  let since = Date.now();
  for (const until = Date.now() + WAIT_MS; Date.now() < until && last !== null && Date.now() - since < QUIET_MS; await sleep(POLL_MS)) {
    const now = cpuTicks(pid);
    if (now !== last) { last = now; since = Date.now(); }
  }
}

/** The tool_result's text as JSON (specterm mcp answers JSON text), or null when it is not JSON. */
function parseResult(content) {
  try { return JSON.parse(content); } catch { return null; }
}

/**
 * Runs one orchestration scenario at one size. Returns what the lab's summary reads (checks,
 * the Claude session's states as the daemon saw them) with no accuracy measurements: the states
 * are the spec's business, proven by the other scenarios.
 */
export async function runOrchestration(sc, size, ctx) {
  const tag = `${sc.name}@${size.cols}x${size.rows}`;
  const tmp = mkdtempSync(join(os.tmpdir(), 'ccl-'));
  const cwd = join(tmp, 'w');
  mkdirSync(cwd, { mode: 0o700 });
  const realCwd = realpathSync(cwd);
  const key = `sk-ant-lab-${randomBytes(24).toString('hex')}`;
  const { home, configDir } = prepareHome(tmp, key, ctx.version);
  const checks = [];
  const check = (ok, what) => { checks.push({ ok: Boolean(ok), what }); return Boolean(ok); };
  const server = await startServer({ scenario: sc, cwd: realCwd });
  const startAbs = Date.now();
  let daemon = null;
  let claude = null;
  let timeline = [];
  let error = null;
  try {
    // The daemon's environment is Claude Code's (every agent it starts inherits it; HOME keeps
    // the demo agent's trust file private too) with the cached `claude` first on PATH: the daemon
    // resolves the built-in spec's binary there. The root lives in the run's temp dir, so a
    // failed run keeps the daemon's database and logs.
    daemon = await startLabDaemon({
      root: join(tmp, 'd'),
      env: { ...claudeEnv({ home, configDir, key, serverUrl: server.url }), PATH: `${dirname(ctx.spec.binary)}:${process.env.PATH ?? ''}` },
    });
    writeProjectMcp(realCwd, { specterm: daemon.mcpServer }, { approved: true, allow: ['mcp__specterm__handoff', 'mcp__specterm__assign'] });
    const session = (id) => daemon.call('GET', `/api/v1/sessions/${id}`);
    const idle = (id, what) => waitFor(async () => {
      const s = await session(id);
      if (s.lifecycle === 'exited' || s.lifecycle === 'failed') throw new Error(`${what}: the session ended (${JSON.stringify(s.exit)})`);
      return s.state?.status === 'idle' && !s.modal ? s : null;
    }, what);
    const logged = (pred, what) => waitFor(() => server.events.find(pred), `server never logged ${what}`);

    // Started by the daemon, with the spec's own spawn args and pre-launch trust (CLAUDE_CONFIG_DIR).
    claude = await daemon.call('POST', '/api/v1/sessions', { spec: 'claude-code', cwd: realCwd, cols: size.cols, rows: size.rows });
    await idle(claude.id, 'Claude Code idle after start');
    check(true, 'the daemon started Claude Code → idle');
    // Claude Code connects its MCP servers in the background: a prompt sent before `specterm mcp`
    // answered its tools/list is sent without them (seen on a loaded box).
    await waitFor(() => daemon.processes(`specterm.js\0mcp`)[0], 'Claude Code never started specterm mcp');
    await waitQuiet(daemon.processes(`specterm.js\0mcp`)[0]);
    await daemon.call('POST', `/api/v1/sessions/${claude.id}/messages`, { text: sc.prompt, wait: 'accepted' });
    const prompt = await logged((e) => e.kind === 'prompt' && e.matched === sc.turns[0].match, 'the prompt');
    const tool = sc.turns[0].steps[0].tool_use.name;
    check(prompt.mcp_tools.includes(tool), `the request offers ${tool} (specterm mcp is connected; got ${prompt.mcp_tools.join(', ') || 'no MCP tool'})`);
    const pending = await logged((e) => e.kind === 'tool_use_pending' && e.name === tool, `a tool_use of ${tool}`);
    const res = await logged((e) => e.kind === 'tool_result' && e.tool_use_id === pending.tool_use_id, `the tool_result of ${tool}`);
    check(res.is_error === false, `${tool}: the tool_result is a success (got is_error ${res.is_error}: ${res.content.slice(0, 300)})`);
    const answer = parseResult(res.content);

    if (sc.action === 'handoff') {
      check(answer?.delivery === 'idle' && typeof answer.answer === 'string' && answer.answer.startsWith(sc.expect_answer),
        `handoff: the tool_result holds the demo agent's answer "${sc.expect_answer}" (got ${res.content.slice(0, 400)})`);
      await logged((e) => e.kind === 'stream_end' && e.stop_reason === 'end_turn', 'the end of the answer (stream_end end_turn)');
      const worker = await session(answer?.session_id ?? 'none').catch(() => null);
      check(worker?.spec?.id === 'demo-agent' && worker.labels['specterm.parent'] === claude.id,
        `handoff: the worker is a demo-agent session labelled with Claude Code's session as its parent (got ${JSON.stringify(worker && { spec: worker.spec, labels: worker.labels })})`);
    } else {
      check(answer?.status === 'queued' && /^t_/.test(answer.id ?? '') && answer.parent_session_id === claude.id,
        `assign: the tool_result holds a queued task whose parent is Claude Code's session (got ${res.content.slice(0, 400)})`);
      await logged((e) => e.kind === 'stream_end' && e.stop_reason === 'end_turn', 'the end of the first turn (stream_end end_turn)');
      const head = `[specterm task ${answer?.id} done by `;
      const report = await logged((e) => e.kind === 'prompt' && e.blocks.some((b) => b.startsWith(head)), `a new user message starting "${head}"`);
      const typed = report.blocks.find((b) => b.startsWith(head));
      check(typed.includes(sc.expect_answer), `assign: the typed-in message holds the demo agent's answer (got ${JSON.stringify(typed.slice(0, 400))})`);
      await waitFor(() => server.events.filter((e) => e.kind === 'stream_end' && e.stop_reason === 'end_turn').at(1), 'server never logged the end of the answer to the result');
      const { tasks } = await daemon.call('GET', '/api/v1/tasks');
      const task = tasks.find((t) => t.id === answer?.id);
      check(task?.status === 'done' && task.parent_session_id === claude.id && (task.result?.text ?? '').startsWith(sc.expect_answer),
        `assign: GET /api/v1/tasks has the task done, parent Claude Code's session, result the answer (got ${JSON.stringify(task && { status: task.status, parent_session_id: task.parent_session_id, result: task.result })})`);
    }
    await idle(claude.id, 'Claude Code idle at the end');
    check(true, 'ends idle');
  } catch (err) {
    error = err;
    let screen = '';
    if (claude) screen = await daemon.call('GET', `/api/v1/sessions/${claude.id}/screen`).then((s) => `\n    Claude Code's screen:\n${s.content}`, () => '');
    check(false, `scenario ran to the end: ${String(err?.message ?? err).split('\n').slice(0, 30).join('\n    ')}${screen}`);
  } finally {
    if (claude) {
      const { entries } = await daemon.call('GET', `/api/v1/sessions/${claude.id}/history?limit=500`).catch(() => ({ entries: [] }));
      timeline = entries.reverse().map((e) => ({ atAbs: e.at, t: (e.at - startAbs) / 1000, state: e.state.id, status: e.state.status }));
    }
    if (daemon) {
      await daemon.stop();
      const left = daemon.processes();
      check(left.length === 0, `stop: no daemon, host, agent or MCP server process is left (got pids ${left.join(', ') || 'none'})`);
    }
    await server.close();
  }
  if (!error) {
    // The daemon's own reading of Claude Code: every turn the server served, nothing more (a
    // startup gate never showed; the typed-in result of `assign` is a turn of its own).
    const got = timeline.map((c) => c.state).filter((id, i) => i === 0 || id !== 'starting').filter((id, i, all) => i === 0 || all[i - 1] !== id);
    check(JSON.stringify(got) === JSON.stringify(sc.expect_states), `states: exactly ${sc.expect_states.join(' → ')} (got ${got.join(' → ')})`);
  }
  const metrics = { labelledMs: 0, rightMs: 0, latencies: [], flaps: 0, flapped: [] };
  return { sc, size, variant: null, tag, tmp, castPath: null, checks, timeline, marks: [], metrics, serverEvents: server.events, startAbs, realCwd, error, version: ctx.version };
}
