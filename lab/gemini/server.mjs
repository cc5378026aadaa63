/**
 * A scripted Gemini API server for the Gemini CLI lab (Node built-ins only, 127.0.0.1 only).
 *
 * Speaks the parts of the Generative Language API (`/v1beta`) that Gemini CLI calls:
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` — the turn itself, streamed as SSE
 *   `data: {candidates:[{content:{role:"model",parts:[…]}}], usageMetadata}` lines with scripted
 *   pacing; a reply may end in a `functionCall` (e.g. `run_shell_command`) which the CLI must ask
 *   the user to approve. The CLI's next request then carries the `functionResponse`.
 * - `POST …:generateContent` — side calls (routing classifier, next-speaker check, titles, loop
 *   checks): answered with JSON that satisfies the request's response schema, or a short text.
 * - `POST …:countTokens`, `GET /v1beta/models[/<model>]`, anything else → logged, harmless answer.
 *
 * Scenarios are data (`scenarios/*.json`): `{ name, replies: [{ match, chunks, chunkDelayMs,
 * firstDelayMs, functionCall, afterTool: { chunks, … } }] }`. The reply is chosen by the first
 * `match` (case-insensitive regex) that finds the latest user text of the request. A reply with
 * `error: { status, body, times }` answers its first `times` requests (all when absent) with that
 * HTTP status and JSON body instead of a stream (`api_error` in the log) — e.g. a 429 quota error.
 *
 * Ground truth: every event is logged with a wall-clock timestamp in ms (`t`), e.g.
 * `stream_start`, `stream_end`, `tool_call_pending` (a function call that needs approval was just
 * emitted), `tool_result` (the functionResponse arrived — the permission answer).
 *
 * @module
 */
import http from 'node:http';
import { readFileSync, readdirSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Loads every scenario in `lab/gemini/scenarios` (or `dir`), keyed by name. */
export function loadScenarios(dir = join(here, 'scenarios')) {
  const out = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const s = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    if (!s || typeof s.name !== 'string' || !Array.isArray(s.replies)) {
      throw new Error(`${join(dir, f)}: a scenario needs "name" (string) and "replies" (array); fix the file`);
    }
    out[s.name] = s;
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The text the user typed last: the last text part of the latest user content that has text
 * (Gemini CLI puts its `<session_context>` preamble in earlier parts of the first turn).
 */
function latestUserText(contents) {
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i];
    if (c?.role !== 'user' || !Array.isArray(c.parts)) continue;
    const texts = c.parts.filter((p) => typeof p?.text === 'string' && p.text.trim() && !p.text.startsWith('<session_context>'));
    if (texts.length) return texts[texts.length - 1].text;
  }
  return '';
}

/** The functionResponse parts of the last content (the tool result turn), or []. */
function trailingFunctionResponses(contents) {
  const last = contents[contents.length - 1];
  if (!last || !Array.isArray(last.parts)) return [];
  return last.parts.filter((p) => p && p.functionResponse).map((p) => p.functionResponse);
}

/** A value that satisfies a (JSON/OpenAPI) schema, preferring the answers that end side calls quickly. */
export function fillSchema(schema) {
  if (!schema || typeof schema !== 'object') return 'ok';
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length) {
    return schema.enum.find((v) => /flash|user/i.test(String(v))) ?? schema.enum[0];
  }
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
 * Starts the server on 127.0.0.1 (port 0 → ephemeral).
 *
 * @param {{ scenario?: object, port?: number, logFile?: string, quiet?: boolean, onRequest?: (body: object) => void }} [opts]
 *   `onRequest`: sees every streamed turn's request body before its reply is picked.
 * @returns {Promise<{ url: string, port: number, log: Array<{t: number, event: string}>,
 *   setScenario(s: object): void, waitFor(pred: (e: object) => boolean, timeoutMs: number): Promise<object>,
 *   pendingTool(): object | null, close(): Promise<void> }>}
 */
export async function startGeminiServer(opts = {}) {
  let scenario = opts.scenario ?? { name: 'empty', replies: [] };
  const log = [];
  const waiters = new Set();
  let pending = null; // the function call awaiting the user's permission
  const errorsSent = new Map(); // reply → how many scripted errors it has answered with
  const record = (event, fields = {}) => {
    const entry = { t: Date.now(), event, ...fields };
    log.push(entry);
    if (opts.logFile) appendFileSync(opts.logFile, JSON.stringify(entry) + '\n');
    for (const w of [...waiters]) w(entry);
    return entry;
  };

  const pickReply = (text) => {
    for (const r of scenario.replies) {
      if (!r.match || new RegExp(r.match, 'i').test(text)) return r;
    }
    return { chunks: [`(no scripted reply for this prompt in scenario ${scenario.name})`] };
  };

  const usage = { promptTokenCount: 120, candidatesTokenCount: 40, totalTokenCount: 160 };
  const sse = (res, parts, finish) => {
    const cand = { content: { role: 'model', parts }, index: 0 };
    if (finish) cand.finishReason = 'STOP';
    res.write(`data: ${JSON.stringify({ candidates: [cand], usageMetadata: usage, modelVersion: 'gemini-2.5-flash' })}\r\n\r\n`);
  };

  /** Streams `step` (chunks, then maybe a function call) as one SSE response. */
  const stream = async (req, res, step, model, why) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let aborted = false;
    res.on('close', () => { if (!res.writableEnded) aborted = true; });
    record('stream_start', { model, why });
    if (step.firstDelayMs) await sleep(step.firstDelayMs);
    const chunks = step.chunks ?? [];
    for (let i = 0; i < chunks.length && !aborted; i++) {
      sse(res, [{ text: chunks[i] }], false);
      if (i < chunks.length - 1 || step.functionCall) await sleep(step.chunkDelayMs ?? 100);
    }
    if (aborted) { record('stream_aborted', { model }); return; }
    if (step.functionCall) {
      sse(res, [{ functionCall: step.functionCall }], true);
      res.end();
      pending = { name: step.functionCall.name, args: step.functionCall.args };
      record('stream_end', { model, functionCall: step.functionCall.name, text: chunks.join('') });
      record('tool_call_pending', { name: step.functionCall.name, args: step.functionCall.args });
      return;
    }
    sse(res, [{ text: '' }], true);
    res.end();
    record('stream_end', { model, text: chunks.join('') });
  };

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      handle(req, res, body).catch((err) => {
        record('server_error', { message: String(err?.message ?? err) });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: 'lab server error', status: 'INTERNAL' } }));
      });
    });
  });

  const json = (res, status, obj) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };

  async function handle(req, res, body) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
    let parsed = {};
    try { parsed = body ? JSON.parse(body) : {}; } catch { parsed = {}; }
    if (req.method === 'POST' && m && m[2] === 'streamGenerateContent') {
      // Before the reply is picked: a lab may script it from what the request offers (lab/mcp-setup).
      opts.onRequest?.(parsed);
      const contents = Array.isArray(parsed.contents) ? parsed.contents : [];
      const responses = trailingFunctionResponses(contents);
      const text = latestUserText(contents);
      const reply = pickReply(text);
      if (responses.length) {
        const output = JSON.stringify(responses[0].response ?? {}).slice(0, 200);
        record('tool_result', { name: responses[0].name, output });
        pending = null;
        await stream(req, res, reply.afterTool ?? { chunks: ['Done.'] }, m[1], 'tool_result');
        return;
      }
      const tools = (parsed.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
      record('prompt', { text: text.slice(0, 120), tools });
      const err = reply.error;
      if (err && (err.times === undefined || (errorsSent.get(reply) ?? 0) < err.times)) {
        errorsSent.set(reply, (errorsSent.get(reply) ?? 0) + 1);
        record('api_error', { model: m[1], status: err.status });
        json(res, err.status, err.body ?? { error: { code: err.status, message: 'lab server: scripted error', status: 'UNKNOWN' } });
        return;
      }
      await stream(req, res, reply, m[1], 'prompt');
      return;
    }
    if (req.method === 'POST' && m && m[2] === 'generateContent') {
      const gc = parsed.generationConfig ?? {};
      const schema = gc.responseJsonSchema ?? gc.responseSchema;
      const sys = JSON.stringify(parsed.systemInstruction ?? '');
      let text;
      if (schema) text = JSON.stringify(fillSchema(schema));
      else if (/model_choice/.test(sys)) text = JSON.stringify({ reasoning: 'Simple, bounded request.', model_choice: 'flash' });
      else if (gc.responseMimeType === 'application/json') text = '{}';
      else text = 'Lab session';
      record('side_call', { model: m[1], kind: schema ? 'json' : 'text' });
      json(res, 200, { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage });
      return;
    }
    if (req.method === 'POST' && m && m[2] === 'countTokens') {
      record('count_tokens', { model: m[1] });
      json(res, 200, { totalTokens: Math.max(1, Math.round(body.length / 4)) });
      return;
    }
    if (req.method === 'POST' && m && m[2] === 'embedContent') {
      json(res, 200, { embedding: { values: [0, 0, 0] } });
      return;
    }
    if (req.method === 'GET' && /^\/v1(?:beta|alpha)?\/models\/?$/.test(url.pathname)) {
      record('list_models');
      const names = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'];
      json(res, 200, { models: names.map((n) => ({ name: `models/${n}`, displayName: n, supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] })) });
      return;
    }
    const one = /^\/v1(?:beta|alpha)?\/models\/([^/:]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      json(res, 200, { name: `models/${one[1]}`, displayName: one[1], inputTokenLimit: 1048576, outputTokenLimit: 65536 });
      return;
    }
    record('unknown_endpoint', { method: req.method, path: url.pathname });
    json(res, 404, { error: { code: 404, message: `lab server: no route for ${req.method} ${url.pathname}`, status: 'NOT_FOUND' } });
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  record('listening', { port });
  return {
    url: `http://127.0.0.1:${port}`,
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
