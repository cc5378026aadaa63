/**
 * A scripted OpenAI **Chat Completions** server for the labs of CLIs that talk to any
 * OpenAI-compatible provider (Qwen Code, pi, OpenCode, …). Node built-ins only, 127.0.0.1 only.
 *
 * - `POST <base>/chat/completions` with `stream: true` — the turn, streamed as SSE
 *   `chat.completion.chunk` lines with scripted pacing; a reply may end in a `tool_calls` delta
 *   (a shell command or a file write, so the CLI asks the user's permission). The CLI's next
 *   request then carries a `role: "tool"` message: the permission answer reaching the model.
 * - the same without `stream` — side calls (titles, next-speaker checks, JSON schemas): a short
 *   non-streamed completion whose content satisfies a `response_format` JSON schema if one is sent.
 * - `GET <base>/models` — a model list; anything else → logged, 404 JSON.
 *
 * Scenarios are data: `{ name, replies: [{ match, chunks, chunkDelayMs, firstDelayMs, toolCall,
 * afterTool, error }] }`. The reply is the first whose `match` (case-insensitive regex) finds the
 * user's latest text. `toolCall: { name, arguments }` ends the stream in a tool call; `toolCalls: [{ name,
 * arguments }, …]` ends it in several calls in one assistant message (parallel calls: OpenCode's
 * repeated-failure check needs three identical ones); `afterTool`
 * is streamed once the tool result arrives; `error: { status, message }` answers the request with
 * that HTTP error instead of a stream (an API error the CLI must show); with `error.times: N` only the
 * first N requests that pick the reply get the error, later ones stream the reply normally (a rate
 * limit or an overload the CLI retries through).
 *
 * `isSideCall(body)` (optional): a STREAMED request it accepts is a side call too (OpenCode streams
 * its session-title request): answered with a short stream and logged as `side_call`, never as a turn.
 *
 * Ground truth: every event is logged with a wall-clock timestamp in ms (`t`): `prompt`,
 * `stream_start`, `stream_end` (with `toolCall` when it ended in one), `tool_call_pending`,
 * `tool_result`, `stream_aborted` (the client hung up: an interrupt), `api_error`, `side_call`.
 *
 * @module
 */
import http from 'node:http';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Loads every scenario file in `dir`, keyed by name; throws naming the file and the fix. */
export function loadChatScenarios(dir) {
  const out = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, f);
    const s = JSON.parse(readFileSync(file, 'utf8'));
    if (!s || typeof s.name !== 'string' || !Array.isArray(s.replies)) {
      throw new Error(`${file}: a scenario needs "name" (string) and "replies" (array); fix the file`);
    }
    s.replies.forEach((r, i) => {
      if (r.toolCall && (typeof r.toolCall.name !== 'string' || typeof r.toolCall.arguments !== 'object')) {
        throw new Error(`${file}: replies[${i}].toolCall needs "name" (string) and "arguments" (object), got ${JSON.stringify(r.toolCall)}`);
      }
      if (r.toolCalls !== undefined) {
        if (r.toolCall) throw new Error(`${file}: replies[${i}] has both "toolCall" and "toolCalls"; keep one (toolCalls for several calls in one message)`);
        if (!Array.isArray(r.toolCalls) || !r.toolCalls.length) throw new Error(`${file}: replies[${i}].toolCalls must be a non-empty array of { name, arguments }, got ${JSON.stringify(r.toolCalls)}`);
        r.toolCalls.forEach((tc, j) => {
          if (typeof tc?.name !== 'string' || typeof tc?.arguments !== 'object') throw new Error(`${file}: replies[${i}].toolCalls[${j}] needs "name" (string) and "arguments" (object), got ${JSON.stringify(tc)}`);
        });
      }
      if (r.error && !Number.isInteger(r.error.status)) {
        throw new Error(`${file}: replies[${i}].error.status must be an HTTP status integer, got ${JSON.stringify(r.error.status)}`);
      }
      if (r.error?.times !== undefined && !(Number.isInteger(r.error.times) && r.error.times >= 1)) {
        throw new Error(`${file}: replies[${i}].error.times must be a whole number ≥ 1 (how many requests get the error before the reply streams), got ${JSON.stringify(r.error.times)}`);
      }
    });
    out[s.name] = s;
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The text of one message's content (a string, or an array of `{type:'text', text}` parts). */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('\n');
  return '';
}

/** The text the user typed last: the latest user message with text (ignoring injected context blocks: Gemini's session context, system reminders, Kilo Code's environment details). */
export function latestUserText(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    const parts = Array.isArray(m.content) ? m.content.map((p) => p?.text ?? '') : [contentText(m.content)];
    const texts = parts.filter((t) => typeof t === 'string' && t.trim() && !/^<(?:session_context|system-reminder|environment_details)>/.test(t.trim()));
    if (texts.length) return texts[texts.length - 1];
  }
  return '';
}

/** The tool messages after the last assistant message (the tool results of this turn), or []. */
function trailingToolResults(messages) {
  const out = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) out.unshift(messages[i]);
  return out;
}

/** A value that satisfies a JSON schema, preferring answers that end side calls quickly. */
export function fillSchema(schema) {
  if (!schema || typeof schema !== 'object') return 'ok';
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((v) => /user/i.test(String(v))) ?? schema.enum[0];
  switch (type) {
    case 'object': {
      const o = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) o[k] = fillSchema(v);
      return o;
    }
    case 'array': return [];
    case 'boolean': return false;
    case 'number': case 'integer': return 0;
    default: return 'ok';
  }
}

/**
 * Starts the server on 127.0.0.1 (port 0 → ephemeral). `url` is the base URL to give the CLI
 * (it ends in `/v1`).
 *
 * @param {{ scenario?: object, port?: number, logFile?: string, models?: string[], isSideCall?: (body: object) => boolean, onRequest?: (body: object) => void }} [opts]
 *   `onRequest`: sees every chat completions request body before its reply is picked.
 */
export async function startChatServer(opts = {}) {
  let scenario = opts.scenario ?? { name: 'empty', replies: [] };
  const models = opts.models ?? ['lab-model', 'lab-model-large'];
  const log = [];
  const waiters = new Set();
  let pending = null;
  let seq = 0;
  /** How many times each reply has answered with its error (for `error.times`). */
  const errorsSent = new Map();
  const record = (event, fields = {}) => {
    const entry = { t: Date.now(), event, ...fields };
    log.push(entry);
    if (opts.logFile) appendFileSync(opts.logFile, JSON.stringify(entry) + '\n', { mode: 0o600 });
    for (const w of [...waiters]) w(entry);
    return entry;
  };
  const pickReply = (text) => scenario.replies.find((r) => !r.match || new RegExp(r.match, 'i').test(text))
    ?? { chunks: [`(no scripted reply for this prompt in scenario ${scenario.name})`] };

  const json = (res, status, obj) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };

  /** Streams `step` (text chunks, then maybe a tool call) as one SSE response. */
  const stream = async (res, step, model, why, quiet = false) => {
    const id = `chatcmpl-lab-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta, finish = null) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let aborted = false;
    res.on('close', () => { if (!res.writableEnded) aborted = true; });
    if (!quiet) record('stream_start', { model, why });
    chunk({ role: 'assistant', content: '' });
    if (step.firstDelayMs) await sleep(step.firstDelayMs);
    const chunks = step.chunks ?? [];
    let sent = 0;
    for (let i = 0; i < chunks.length && !aborted; i++) {
      chunk({ content: chunks[i] });
      sent = i + 1;
      if (i < chunks.length - 1 || step.toolCall) await sleep(step.chunkDelayMs ?? 100);
    }
    if (aborted) { if (!quiet) record('stream_aborted', { model, text: chunks.slice(0, sent).join('') }); return; }
    const usage = { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 };
    const finish = (reason) => {
      chunk({}, reason);
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
      res.write('data: [DONE]\n\n');
      res.end();
    };
    // One call (`toolCall`) or several in one message (`toolCalls`): each its own index and id, in order.
    const calls = step.toolCalls ?? (step.toolCall ? [step.toolCall] : []);
    if (calls.length) {
      const ids = calls.map((_, i) => `call_lab_${seq}${calls.length > 1 ? `_${i + 1}` : ''}`);
      calls.forEach((tc, i) => {
        chunk({ tool_calls: [{ index: i, id: ids[i], type: 'function', function: { name: tc.name, arguments: JSON.stringify(tc.arguments) } }] });
      });
      finish('tool_calls');
      pending = { id: ids[0], name: calls[0].name, arguments: calls[0].arguments, ...(calls.length > 1 ? { calls: calls.map((tc, i) => ({ id: ids[i], ...tc })) } : {}) };
      // The text and the calls as sent: the ground truth a parsed history is checked against.
      record('stream_end', { model, text: chunks.join(''), toolCall: calls[0].name, ...(calls.length > 1 ? { toolCalls: calls.length } : {}) });
      record('tool_call_pending', { name: calls[0].name, call_id: ids[0], arguments: calls[0].arguments, ...(calls.length > 1 ? { count: calls.length } : {}) });
      return;
    }
    finish('stop');
    if (!quiet) record('stream_end', { model, text: chunks.join('') });
  };

  async function handle(req, res, body) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let parsed = {};
    try { parsed = body ? JSON.parse(body) : {}; } catch { parsed = {}; }
    if (req.method === 'POST' && /\/chat\/completions$/.test(url.pathname)) {
      // Before the reply is picked: a lab may script it from what the request offers (lab/mcp-setup).
      opts.onRequest?.(parsed);
      const messages = Array.isArray(parsed.messages) ? parsed.messages : [];
      const model = String(parsed.model ?? models[0]);
      if (!parsed.stream) {
        const schema = parsed.response_format?.json_schema?.schema;
        const content = schema ? JSON.stringify(fillSchema(schema)) : parsed.response_format?.type === 'json_object' ? '{}' : 'Lab session';
        record('side_call', { model, kind: schema ? 'json' : 'text' });
        json(res, 200, { id: `chatcmpl-lab-${++seq}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
        return;
      }
      if (opts.isSideCall?.(parsed)) {
        record('side_call', { model, kind: 'stream' });
        await stream(res, { chunks: ['Lab session'] }, model, 'side_call', true);
        return;
      }
      const results = trailingToolResults(messages);
      const text = latestUserText(messages);
      const reply = pickReply(text);
      if (results.length) {
        record('tool_result', { id: results[0].tool_call_id, output: contentText(results[0].content).slice(0, 200), ...(results.length > 1 ? { count: results.length } : {}) });
        pending = null;
        await stream(res, reply.afterTool ?? { chunks: ['Done.'] }, model, 'tool_result');
        return;
      }
      record('prompt', { text: text.slice(0, 120), messages: messages.length, tools: Array.isArray(parsed.tools) ? parsed.tools.length : 0, system: contentText(messages.find((m) => m?.role === 'system')?.content).slice(0, 80) });
      const sent = errorsSent.get(reply) ?? 0;
      if (reply.error && (reply.error.times === undefined || sent < reply.error.times)) {
        errorsSent.set(reply, sent + 1);
        record('api_error', { status: reply.error.status, attempt: sent + 1 });
        json(res, reply.error.status, { error: { message: reply.error.message ?? 'lab server: scripted error', type: reply.error.type ?? 'server_error', code: reply.error.code ?? null } });
        return;
      }
      await stream(res, reply, model, 'prompt');
      return;
    }
    if (req.method === 'GET' && /\/models\/?$/.test(url.pathname)) {
      record('list_models');
      json(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'lab' })) });
      return;
    }
    record('unknown_endpoint', { method: req.method, path: url.pathname });
    json(res, 404, { error: { message: `lab server: no route for ${req.method} ${url.pathname}`, type: 'not_found' } });
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      handle(req, res, body).catch((err) => {
        record('server_error', { message: String(err?.message ?? err) });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'lab server error', type: 'server_error' } }));
      });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  record('listening', { port });
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    log,
    setScenario(s) { scenario = s; },
    pendingTool: () => pending,
    waitFor(pred, timeoutMs) {
      const hit = log.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = (e) => { if (pred(e)) { clearTimeout(timer); waiters.delete(w); resolve(e); } };
        const timer = setTimeout(() => { waiters.delete(w); reject(new Error(`lab server: no matching log event within ${timeoutMs} ms; last events: ${JSON.stringify(log.slice(-5))}`)); }, timeoutMs);
        waiters.add(w);
      });
    },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
