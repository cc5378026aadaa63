/**
 * A scripted Anthropic Messages API server for the Claude Code lab (Node built-ins only, loopback).
 *
 * The REAL `claude` CLI talks to it through `ANTHROPIC_BASE_URL`. It answers:
 * - `POST /v1/messages` with `stream: true` and a non-empty `tools` array (a main agent turn):
 *   the next step of the scenario turn whose `match` the last user prompt contains — streamed text
 *   (SSE, controllable pacing), a `tool_use` block (e.g. Bash, which needs approval), or an HTTP error
 *   (429/500). A request whose last user message carries a `tool_result` continues the current turn.
 * - every other `POST /v1/messages` (titles, topic checks, quota checks with `max_tokens: 1`):
 *   a short harmless answer, streamed or not as asked (`side_call` in the log).
 * - `POST /v1/messages/count_tokens`, `GET /v1/models`, HEAD/GET probes; unknown endpoints → logged 404.
 *
 * Every event is logged with a millisecond wall-clock timestamp (`atMs`, `Date.now()`): that log is
 * the lab's ground truth — `prompt` (a new user message: its text blocks and the MCP tools offered),
 * `stream_start`/`stream_end` (the model is generating), `tool_use_pending` (a permission prompt
 * is due) and `tool_result` (the permission was answered, or the tool ran: its content).
 *
 * Scenario file (`scenarios/*.json`), the parts the server reads:
 * ```json
 * { "defaults": { "chunk_chars": 12, "delay_ms": 40, "first_delay_ms": 300 },
 *   "turns": [ { "match": "create the marker", "steps": [
 *       { "tool_use": { "name": "Bash", "input": { "command": "touch m.txt", "description": "Create m.txt" } } },
 *       { "text": "Created it." } ] } ] }
 * ```
 * A step may also be `{ "error": 429, "times": 2 }` (answer this status `times` times, then go on) or
 * `{ "text_lines": 60, "line": "Line {n} of a long answer" }` (a generated long answer).
 * In a `tool_use` input every `{cwd}` in a string is replaced by the server's `cwd` option (the run's
 * working directory: Write and Edit take absolute paths).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

/** Default pacing: small chunks a few tens of ms apart, so "generating" is visible for a while. */
const DEFAULT_PACING = { chunk_chars: 12, delay_ms: 40, first_delay_ms: 300 };
const MODEL = 'claude-sonnet-4-5';
/** A tool result or a typed message is logged up to this long: enough for an agent's whole answer relayed through MCP. */
const LOGGED_CHARS = 4000;

/**
 * Reads and checks a scenario file.
 * @param {string} file
 * @returns {object} the scenario
 * @throws Error naming the file, the field and the fix
 */
export function loadScenario(file) {
  let raw;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: cannot read scenario (${err.message}); fix the JSON`);
  }
  const problem = checkScenario(raw);
  if (problem) throw new Error(`${file}: ${problem}`);
  return raw;
}

/**
 * @param {unknown} s
 * @returns {string | null} the first problem, or null when the scenario is usable
 */
export function checkScenario(s) {
  if (!s || typeof s !== 'object') return 'scenario must be an object';
  if (!Array.isArray(s.turns)) return `turns must be an array, got ${JSON.stringify(s.turns)}; add "turns": [{"match": "...", "steps": [...]}]`;
  for (const [i, t] of s.turns.entries()) {
    if (!t || typeof t.match !== 'string') return `turns[${i}].match must be a string (a substring of the prompt)`;
    if (!Array.isArray(t.steps) || t.steps.length === 0) return `turns[${i}].steps must be a non-empty array`;
    for (const [j, st] of t.steps.entries()) {
      const kinds = ['text', 'text_lines', 'tool_use', 'error'].filter((k) => st && k in st);
      if (kinds.length !== 1) return `turns[${i}].steps[${j}] must have exactly one of text, text_lines, tool_use, error; got ${JSON.stringify(st)}`;
      if ('error' in st && ![429, 500, 529].includes(st.error)) return `turns[${i}].steps[${j}].error must be 429, 500 or 529, got ${JSON.stringify(st.error)}`;
      if ('tool_use' in st && (typeof st.tool_use?.name !== 'string' || typeof st.tool_use?.input !== 'object')) return `turns[${i}].steps[${j}].tool_use needs a string name and an object input`;
    }
  }
  return null;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The text of a user message's content (string or blocks), tool results excluded. */
function userText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((b) => b && b.type === 'text').map((b) => b.text).join('\n');
}

/** Each text block of a user message (a typed message, the CLI's reminders), cut at {@link LOGGED_CHARS}. */
function userBlocks(content) {
  if (typeof content === 'string') return [content.slice(0, LOGGED_CHARS)];
  if (!Array.isArray(content)) return [];
  return content.filter((b) => b && b.type === 'text').map((b) => String(b.text).slice(0, LOGGED_CHARS));
}

/**
 * Every MCP tool the request names: in its tools, or (Claude Code 2.1.332 defers MCP tools) in
 * the message listing the deferred tools ToolSearch can load.
 */
function mcpToolNames(body) {
  // No \b before the name: in the JSON text a name on its own line follows the escape `\n`.
  return [...new Set(JSON.stringify(body).match(/mcp__[A-Za-z0-9_-]+/g) ?? [])].sort();
}

function toolResults(content) {
  return Array.isArray(content) ? content.filter((b) => b && b.type === 'tool_result') : [];
}

function resultText(block) {
  if (typeof block.content === 'string') return block.content;
  if (Array.isArray(block.content)) return block.content.map((c) => c?.text ?? '').join('\n');
  return '';
}

/** Expands a step into its text (for `text_lines`, the generated lines). */
function stepText(step) {
  if ('text' in step) return String(step.text);
  const n = Number(step.text_lines) || 1;
  const line = step.line || 'Line {n} of a long answer.';
  return Array.from({ length: n }, (_, i) => line.replaceAll('{n}', String(i + 1))).join('\n');
}

/** A copy of a tool_use input with `{cwd}` replaced in every string (nested objects and arrays too). */
export function fillInput(value, cwd) {
  if (typeof value === 'string') return cwd === undefined ? value : value.replaceAll('{cwd}', cwd);
  if (Array.isArray(value)) return value.map((v) => fillInput(v, cwd));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillInput(v, cwd)]));
  return value;
}

/**
 * Starts the scripted server on 127.0.0.1.
 * @param {{ scenario?: object, port?: number, cwd?: string, onEvent?: (ev: object) => void }} [opts]
 * @returns {Promise<{ url: string, port: number, events: object[], setScenario(s: object): void, close(): Promise<void> }>}
 */
export async function startServer(opts = {}) {
  let scenario = opts.scenario ?? { turns: [] };
  const events = [];
  /** Current turn and the index of its next step; errors count down per step. */
  let current = null;
  let seq = 0;
  const log = (kind, fields = {}) => {
    const ev = { atMs: Date.now(), kind, ...fields };
    events.push(ev);
    opts.onEvent?.(ev);
    return ev;
  };

  const pacing = () => ({ ...DEFAULT_PACING, ...(scenario.defaults ?? {}) });

  /** Picks the step answering a main request. */
  const nextStep = (body) => {
    const msgs = Array.isArray(body.messages) ? body.messages : [];
    const last = [...msgs].reverse().find((m) => m.role === 'user');
    const results = last ? toolResults(last.content) : [];
    if (results.length > 0 && current) {
      for (const r of results) {
        log('tool_result', { tool_use_id: r.tool_use_id, is_error: r.is_error === true, content: resultText(r).slice(0, LOGGED_CHARS), mcp_tools: mcpToolNames(body) });
      }
      current.index += 1;
    } else if (!(current && current.retrying)) {
      const prompt = last ? userText(last.content) : '';
      const turn = scenario.turns.find((t) => prompt.includes(t.match));
      current = turn ? { turn, index: 0, errorsLeft: null, retrying: false } : null;
      log('prompt', { text: prompt.slice(-200), blocks: last ? userBlocks(last.content) : [], mcp_tools: mcpToolNames(body), matched: turn ? turn.match : null });
    }
    if (!current) return { text: 'OK.' };
    // Error steps answer `times` requests each (the CLI's retries), then hand over to the next step.
    for (;;) {
      const step = current.turn.steps[current.index];
      if (!step) return { text: 'Done.' };
      if (!('error' in step)) {
        current.retrying = false;
        return step;
      }
      if (current.errorsLeft === null) current.errorsLeft = step.times ?? 1;
      if (current.errorsLeft > 0) {
        current.errorsLeft -= 1;
        current.retrying = true;
        return step;
      }
      current.errorsLeft = null;
      current.index += 1;
    }
  };

  const sendError = (res, status) => {
    const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
    log('error_sent', { status });
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) });
    res.end(JSON.stringify({ type: 'error', error: { type, message: `lab scripted ${status}` } }));
  };

  const streamMessage = async (res, step, { kind, model }) => {
    const id = `msg_lab_${++seq}`;
    const p = { ...pacing(), ...(step.pacing ?? {}) };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_lab_${seq}` });
    const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    log(kind === 'main' ? 'stream_start' : 'side_stream_start', { id, what: 'tool_use' in step ? 'tool_use' : 'text' });
    send('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } } });
    send('ping', {});
    if (kind === 'main') await sleep(p.first_delay_ms);
    let stop = 'end_turn';
    if ('tool_use' in step) {
      const tid = `toolu_lab_${seq}`;
      const preface = step.tool_use.preface ?? '';
      let index = 0;
      if (preface) {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: preface } });
        send('content_block_stop', { index });
        index += 1;
      }
      send('content_block_start', { index, content_block: { type: 'tool_use', id: tid, name: step.tool_use.name, input: {} } });
      const input = fillInput(step.tool_use.input, opts.cwd);
      const json = JSON.stringify(input);
      for (let i = 0; i < json.length; i += 40) send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 40) } });
      send('content_block_stop', { index });
      stop = 'tool_use';
      send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 30 } });
      send('message_stop', {});
      res.end();
      log('stream_end', { id, stop_reason: stop, preface });
      log('tool_use_pending', { id, tool_use_id: tid, name: step.tool_use.name, input });
      return;
    }
    const text = stepText(step);
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    const size = Math.max(1, p.chunk_chars);
    for (let i = 0; i < text.length; i += size) {
      if (res.destroyed) break;
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: text.slice(i, i + size) } });
      if (kind === 'main' && p.delay_ms > 0) await sleep(p.delay_ms);
    }
    send('content_block_stop', { index: 0 });
    send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: Math.ceil(text.length / 4) } });
    send('message_stop', {});
    res.end();
    log(kind === 'main' ? 'stream_end' : 'side_stream_end', { id, stop_reason: stop, chars: text.length, ...(kind === 'main' ? { text } : {}) });
  };

  const sideText = (body) => {
    const sys = JSON.stringify(body.system ?? '');
    if (/isNewTopic/i.test(sys)) return '{"isNewTopic": false, "title": null}';
    if (/title/i.test(sys)) return 'Lab session';
    return 'OK';
  };

  const handle = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks = [];
    for await (const c of req) chunks.push(c);
    let body = {};
    if (chunks.length) {
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { body = {}; }
    }
    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      log('count_tokens');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 100 }));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/v1/messages') {
      const model = typeof body.model === 'string' ? body.model : MODEL;
      const isMain = body.stream === true && Array.isArray(body.tools) && body.tools.length > 0 && (body.max_tokens ?? 2) > 1;
      if (!isMain) {
        log('side_call', { model, stream: body.stream === true, max_tokens: body.max_tokens });
        const text = sideText(body);
        if (body.stream === true) { await streamMessage(res, { text }, { kind: 'side', model }); return; }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `msg_lab_side_${++seq}`, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 2 } }));
        return;
      }
      const step = nextStep(body);
      if ('error' in step) { sendError(res, step.error); return; }
      await streamMessage(res, step, { kind: 'main', model });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      log('models');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ type: 'model', id: MODEL, display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' }], has_more: false, first_id: MODEL, last_id: MODEL }));
      return;
    }
    if (req.method === 'HEAD' || (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/health'))) {
      log('probe', { method: req.method, path: url.pathname });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : 'ok');
      return;
    }
    log('unknown', { method: req.method, path: url.pathname });
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `lab server: no ${req.method} ${url.pathname}` } }));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      log('server_error', { message: String(err?.message ?? err) });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    events,
    setScenario(s) { scenario = s; current = null; },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
