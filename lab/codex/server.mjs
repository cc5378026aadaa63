/**
 * A scripted OpenAI **Responses API** server for the Codex CLI lab (Node built-ins only, bound to
 * 127.0.0.1). It answers `POST /v1/responses` (`stream: true` → SSE) from a scenario: a list of
 * steps, one per model request, each a streamed text answer or a function call (a shell command
 * that asks for escalated permissions, so Codex shows its approval modal). Side calls (`GET
 * /v1/models`, anything else) get harmless answers so Codex never hangs.
 *
 * Ground truth: every interesting moment is logged with a wall-clock timestamp in ms —
 * `stream_start` / `stream_end` around each streamed response, `tool_call_pending` when a function
 * call that needs approval was emitted, `tool_result` when the next request carries its
 * `function_call_output` (that is the user's permission answer reaching the model) — so the lab
 * can check the live specterm states against what the server knows.
 *
 * Scenario file (`lab/codex/scenarios/*.json`):
 * ```json
 * { "name": "hello", "description": "…",
 *   "steps": [ { "kind": "text", "text": "Hello!", "chunk_chars": 8, "chunk_delay_ms": 40, "first_delay_ms": 200 },
 *              { "kind": "function_call", "command": "touch x", "justification": "…" },
 *              { "kind": "patch", "patch": "*** Begin Patch\n*** Add File: /elsewhere/x\n+hi\n*** End Patch" },
 *              { "kind": "tool_call", "name": "request_user_input", "arguments": { "questions": [ … ] } },
 *              { "kind": "error", "status": 429, "error_type": "usage_limit_reached", "error_fields": { "resets_in_seconds": 3600 } },
 *              { "kind": "text", "text": "Done." } ] }
 * ```
 * A request that finds no step left gets `default_text` (or "OK."). A `text` step may use
 * `repeat_lines: N` to produce N numbered lines of `text` (a long answer that scrolls). In a
 * `tool_call`'s arguments `"$session_id"` is the session id of the process the last tool output
 * says is still running (for `write_stdin`).
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

/** Reads and checks a scenario file; throws naming the file, the field, the value and the fix. */
export function loadScenario(file) {
  let raw;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: cannot read the scenario (${err.message}); fix the JSON`);
  }
  return checkScenario(raw, file);
}

/** Validates a scenario object (see the module doc); returns it unchanged. */
export function checkScenario(raw, where = 'scenario') {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${where}: expected an object with "name" and "steps", got ${JSON.stringify(raw)}`);
  if (typeof raw.name !== 'string' || !raw.name) throw new Error(`${where}.name: expected a non-empty string, got ${JSON.stringify(raw.name)}`);
  if (!Array.isArray(raw.steps)) throw new Error(`${where}.steps: expected an array of steps, got ${JSON.stringify(raw.steps)}`);
  raw.steps.forEach((s, i) => {
    const at = `${where}.steps[${i}]`;
    if (!s || typeof s !== 'object') throw new Error(`${at}: expected an object, got ${JSON.stringify(s)}`);
    if (s.kind === 'text') {
      if (typeof s.text !== 'string') throw new Error(`${at}.text: expected a string, got ${JSON.stringify(s.text)}`);
    } else if (s.kind === 'function_call') {
      if (typeof s.command !== 'string' || !s.command) throw new Error(`${at}.command: expected a shell command string, got ${JSON.stringify(s.command)}`);
    } else if (s.kind === 'patch') {
      if (typeof s.patch !== 'string' || !s.patch.startsWith('*** Begin Patch')) throw new Error(`${at}.patch: expected an apply_patch body starting "*** Begin Patch", got ${JSON.stringify(s.patch)}`);
    } else if (s.kind === 'mcp_call') {
      if (typeof s.tool !== 'string' || !s.tool) throw new Error(`${at}.tool: expected the MCP tool's name (e.g. "deploy_preview"), got ${JSON.stringify(s.tool)}`);
    } else if (s.kind === 'tool_call') {
      if (typeof s.name !== 'string' || !s.name) throw new Error(`${at}.name: expected the name of a tool the request offers (e.g. "request_user_input"), got ${JSON.stringify(s.name)}`);
    } else if (s.kind === 'error') {
      if (!Number.isInteger(s.status)) throw new Error(`${at}.status: expected an HTTP status integer, got ${JSON.stringify(s.status)}`);
    } else {
      throw new Error(`${at}.kind: expected "text", "function_call", "patch", "mcp_call", "tool_call" or "error", got ${JSON.stringify(s.kind)}`);
    }
  });
  return raw;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Splits `text` into chunks of `size` characters (code points, never half a surrogate pair). */
function chunk(text, size) {
  const cps = Array.from(text);
  const out = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

/** The answer text of a text step, `repeat_lines` expanded. */
export function stepText(step) {
  if (!step.repeat_lines) return step.text;
  const lines = [];
  for (let i = 1; i <= step.repeat_lines; i++) lines.push(`${i}. ${step.text}`);
  return lines.join('\n');
}

/** The shell command of a function_call step: `command_lines: N` repeats `command` N times, `{i}` = 1..N. */
export function stepCommand(step) {
  if (!step.command_lines) return step.command;
  const lines = [];
  for (let i = 1; i <= step.command_lines; i++) lines.push(step.command.replaceAll('{i}', String(i)));
  return lines.join('\n');
}

/** The function_call_output items of a Responses request body (the tool results it carries). */
function toolOutputs(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  return input.filter((it) => it && (it.type === 'function_call_output' || it.type === 'custom_tool_call_output'));
}

/**
 * A side call: Codex's thread-title request offers no tools (a model turn always offers at
 * least its shell tool) and asks not to answer the prompt.
 */
export function isSideCall(body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.length === 0;
}

/** Names of the tools a request offers, for the log (the pinned version's tool schema). */
function toolNames(body) {
  return (Array.isArray(body?.tools) ? body.tools : []).map((t) => t?.name ?? t?.type ?? '?');
}

/** The last user message text of a request (for the log). */
function lastUserText(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  for (let i = input.length - 1; i >= 0; i--) {
    const it = input[i];
    if (it?.role === 'user' && Array.isArray(it.content)) {
      return it.content.map((c) => c?.text ?? '').join('').slice(-200);
    }
  }
  return null;
}

/**
 * A `"$session_id"` value in a tool_call's arguments becomes the unified-exec session id the last
 * tool output names (`Process running with session ID 15968`: Codex picks it at random), so a
 * scripted `write_stdin` reaches the process an earlier `exec_command` left running. Without such
 * an output the placeholder stays (Codex then answers `Unknown process id`).
 */
function withSessionId(args, body) {
  const last = toolOutputs(body).at(-1);
  const text = typeof last?.output === 'string' ? last.output : JSON.stringify(last?.output ?? '');
  const id = /session ID (\d+)/.exec(text)?.[1];
  return JSON.parse(JSON.stringify(args), (_k, v) => (v === '$session_id' && id ? Number(id) : v));
}

/**
 * Builds the function_call arguments for the tool the request offers. Codex has offered `shell`
 * (`command: string[]`) and `exec_command` (`cmd: string`); both accept the escalation fields, and
 * we send the one its schema names (`sandbox_permissions` on new versions,
 * `with_escalated_permissions` on older ones).
 */
export function buildCall(step, body) {
  if (step.kind === 'patch') return buildPatchCall(step, body);
  if (step.kind === 'mcp_call') return buildMcpCall(step, body);
  // Any other tool Codex offers, by name, with the scenario's arguments (e.g. request_user_input in Plan mode).
  if (step.kind === 'tool_call') return { name: step.name, args: withSessionId(step.arguments ?? {}, body) };
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  const byName = (n) => tools.find((t) => t?.name === n);
  const tool = byName('shell') ?? byName('exec_command') ?? byName('shell_command') ?? null;
  const name = tool?.name ?? 'shell';
  const props = tool?.parameters?.properties ?? {};
  const args = {};
  const command = stepCommand(step);
  if (name === 'exec_command') args.cmd = command;
  else if (name === 'shell_command') args.command = command;
  else args.command = ['bash', '-lc', command];
  if ('workdir' in props && step.workdir) args.workdir = step.workdir;
  if ('sandbox_permissions' in props) args.sandbox_permissions = 'require_escalated';
  else args.with_escalated_permissions = true;
  args.justification = step.justification ?? `Run ${command.split('\n')[0]}?`;
  return { name, args };
}

/**
 * A file edit the way Codex 0.171 offers it to this provider: no `apply_patch` tool, so the model
 * runs `apply_patch` through the shell tool as a heredoc, which Codex intercepts and turns into
 * its patch approval ("Would you like to make the following edits?") when the edit leaves the
 * writable roots. No escalation fields: the patch, not the command, is what is approved.
 */
function buildPatchCall(step, body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  const name = tools.find((t) => t?.name === 'exec_command') ? 'exec_command' : 'shell';
  const script = `apply_patch <<'PATCH'\n${step.patch}\nPATCH`;
  const args = name === 'exec_command' ? { cmd: script } : { command: ['bash', '-lc', script] };
  return { name, args };
}

/**
 * A call of an MCP server's tool: Codex 0.171 offers an MCP server's tools as a `namespace` tool
 * (`mcp__lab_tools`, its `tools` the server's functions), and a call names the function and its
 * namespace. Older versions offered flat `mcp__<server>__<tool>` functions; both are handled.
 */
function buildMcpCall(step, body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  const ns = tools.find((t) => t?.type === 'namespace' && Array.isArray(t.tools) && t.tools.some((f) => f?.name === step.tool));
  if (ns) return { name: step.tool, namespace: ns.name, args: step.arguments ?? {} };
  const flat = tools.find((t) => typeof t?.name === 'string' && t.name.endsWith(`__${step.tool}`));
  return { name: flat?.name ?? `mcp__lab_tools__${step.tool}`, args: step.arguments ?? {} };
}

/** The JSON body of a scripted error reply: OpenAI's `{error: {...}}` shape, plus any `error_fields` (e.g. `resets_in_seconds`). */
export function errorBody(step) {
  return { error: { message: step.message ?? 'scripted error', type: step.error_type ?? 'server_error', code: step.code ?? null, ...(step.error_fields ?? {}) } };
}

/**
 * Starts the server. `scenario` may be replaced later with `setScenario` (each lab scenario runs
 * in its own Codex session, but one server can serve several).
 *
 * @param {{ scenario?: object, port?: number, now?: () => number, onLog?: (entry: object) => void }} [opts]
 * @returns {Promise<{ port: number, url: string, log: object[], setScenario: (s: object) => void,
 *   pendingCalls: () => string[], close: () => Promise<void> }>}
 */
export async function startCodexServer(opts = {}) {
  const now = opts.now ?? (() => Date.now());
  const log = [];
  const note = (event, fields = {}) => {
    const entry = { t: now(), event, ...fields };
    log.push(entry);
    opts.onLog?.(entry);
    return entry;
  };
  let scenario = opts.scenario ? checkScenario(opts.scenario) : { name: 'default', steps: [] };
  let next = 0;
  let seq = 0;
  /** call_id → { emittedAt } for function calls whose output has not come back. */
  const pending = new Map();

  const sendJson = (res, status, obj) => {
    const body = JSON.stringify(obj);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const sse = (res, type, data) => {
    if (res.destroyed) return false;
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    return true;
  };

  async function streamStep(req, res, body, step, side = false) {
    const respId = `resp_${++seq}`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    res.on('close', () => { closed = true; });
    if (!side) note('stream_start', { id: respId, step: step.kind, scenario: scenario.name });
    sse(res, 'response.created', { response: { id: respId, object: 'response', status: 'in_progress', output: [] } });
    if (step.first_delay_ms) await sleep(step.first_delay_ms);
    if (step.kind === 'text') {
      const itemId = `msg_${seq}`;
      const text = stepText(step);
      sse(res, 'response.output_item.added', { output_index: 0, item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] } });
      sse(res, 'response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const piece of chunk(text, step.chunk_chars ?? 12)) {
        if (closed) break;
        sse(res, 'response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: piece });
        await sleep(step.chunk_delay_ms ?? 30);
      }
      sse(res, 'response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text });
      sse(res, 'response.output_item.done', { output_index: 0, item: { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] } });
    } else {
      const callId = `call_${seq}`;
      const { name, namespace, args } = buildCall(step, body);
      const item = { type: 'function_call', id: `fc_${seq}`, call_id: callId, name, ...(namespace ? { namespace } : {}), arguments: JSON.stringify(args), status: 'completed' };
      sse(res, 'response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
      sse(res, 'response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: item.arguments });
      sse(res, 'response.output_item.done', { output_index: 0, item });
      pending.set(callId, { name });
      note('tool_call_pending', { id: respId, call_id: callId, tool: name, command: step.command ?? null, patch: step.kind === 'patch', mcp: step.kind === 'mcp_call', arguments: item.arguments });
    }
    sse(res, 'response.completed', {
      response: { id: respId, object: 'response', status: 'completed', output: [], usage: { input_tokens: 120, input_tokens_details: { cached_tokens: 0 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 160 } },
    });
    res.end();
    if (!side) note('stream_end', { id: respId, step: step.kind, aborted: closed, ...(step.kind === 'text' ? { text: stepText(step) } : {}) });
  }

  async function handleResponses(req, res, body) {
    opts.onRequest?.(body);
    for (const out of toolOutputs(body)) {
      if (!pending.has(out.call_id)) continue;
      pending.delete(out.call_id);
      const text = typeof out.output === 'string' ? out.output : JSON.stringify(out.output);
      note('tool_result', { call_id: out.call_id, output: String(text).slice(0, 300) });
    }
    if (isSideCall(body)) {
      // Codex asks the same endpoint for a thread title (a request without tools): answer it
      // without consuming a scenario step, so the scripted turn stays in step.
      note('side_call', { path: '/v1/responses', kind: 'title', stream: body?.stream === true });
      const step = { kind: 'text', text: scenario.title ?? 'Lab session', chunk_delay_ms: 0 };
      if (body?.stream === false) return sendJson(res, 200, { id: `resp_${++seq}`, object: 'response', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: step.text }] }] });
      return streamStep(req, res, body, step, true);
    }
    note('request', { path: '/v1/responses', stream: body?.stream === true, model: body?.model ?? null, tools: toolNames(body), user: lastUserText(body), step: next < scenario.steps.length ? next : null });
    const step = next < scenario.steps.length ? scenario.steps[next++] : { kind: 'text', text: scenario.default_text ?? 'OK.' };
    if (step.kind === 'error') {
      note('error_reply', { status: step.status, type: step.error_type ?? 'server_error' });
      return sendJson(res, step.status, errorBody(step));
    }
    if (body?.stream === false) {
      // A non-streamed side call: answer with a plain completed response.
      const text = step.kind === 'text' ? stepText(step) : 'OK.';
      return sendJson(res, 200, { id: `resp_${++seq}`, object: 'response', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }] });
    }
    await streamStep(req, res, body, step);
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      if (raw) {
        try { body = JSON.parse(raw); } catch { body = null; }
      }
      const url = (req.url ?? '/').split('?')[0];
      if (req.method === 'POST' && /\/responses$/.test(url)) {
        if (!body) {
          note('bad_request', { path: url, bytes: raw.length });
          return sendJson(res, 400, { error: { message: 'request body must be JSON', type: 'invalid_request_error' } });
        }
        handleResponses(req, res, body).catch((err) => {
          note('server_error', { message: String(err?.message ?? err) });
          if (!res.headersSent) sendJson(res, 500, { error: { message: 'lab server error', type: 'server_error' } });
          else res.end();
        });
        return;
      }
      if (req.method === 'GET' && /\/models$/.test(url)) {
        note('side_call', { method: req.method, path: url });
        return sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-5-codex', object: 'model', created: 0, owned_by: 'lab' }, { id: 'gpt-5', object: 'model', created: 0, owned_by: 'lab' }], models: [] });
      }
      note('unknown_endpoint', { method: req.method, path: url });
      sendJson(res, 404, { error: { message: `no such endpoint in the lab server: ${req.method} ${url}`, type: 'not_found' } });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  note('listening', { port });
  return {
    port,
    url: `http://127.0.0.1:${port}/v1`,
    log,
    setScenario(s) {
      scenario = checkScenario(s);
      next = 0;
      note('scenario', { name: scenario.name });
    },
    pendingCalls: () => [...pending.keys()],
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
