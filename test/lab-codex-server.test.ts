/**
 * The Codex lab's scripted Responses API server, over real HTTP on loopback, without the CLI:
 * streamed SSE text, an escalated function call and its ground-truth log, the title side call,
 * model list, unknown endpoints and bad scenarios.
 */
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs lab tooling without type declarations.
import { buildCall, checkScenario, startCodexServer } from '../lab/codex/server.mjs';

interface LogEntry { t: number; event: string; [k: string]: unknown }
interface LabServer { url: string; log: LogEntry[]; close(): Promise<void>; pendingCalls(): string[] }

const servers: LabServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(scenario: unknown): Promise<LabServer> {
  const s = (await startCodexServer({ scenario })) as LabServer;
  servers.push(s);
  return s;
}

const execTool = { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: {}, sandbox_permissions: {}, justification: {} } } };

async function postResponses(url: string, body: unknown): Promise<Array<{ type: string; [k: string]: unknown }>> {
  const res = await fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text();
  return text.split('\n\n').filter((b) => b.trim()).map((b) => JSON.parse(b.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
}

describe('lab codex server', () => {
  it('streams a text step as Responses SSE events and logs stream start and end', async () => {
    const s = await start({ name: 't', steps: [{ kind: 'text', text: 'Hello there, lab.', chunk_chars: 5, chunk_delay_ms: 1 }] });
    const events = await postResponses(s.url, { model: 'm', stream: true, tools: [execTool], input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.completed');
    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
    expect(text).toBe('Hello there, lab.');
    const done = events.find((e) => e.type === 'response.output_item.done') as unknown as { item: { type: string; content: Array<{ text: string }> } };
    expect(done.item.type).toBe('message');
    expect(done.item.content[0]!.text).toBe('Hello there, lab.');
    const names = s.log.map((e) => e.event);
    expect(names.indexOf('stream_start')).toBeLessThan(names.indexOf('stream_end'));
  });

  it('emits an escalated exec_command call, logs it pending and logs the tool result of the next request', async () => {
    const s = await start({ name: 't', steps: [{ kind: 'function_call', command: 'touch x', justification: 'Create x?' }, { kind: 'text', text: 'Done.' }] });
    const events = await postResponses(s.url, { stream: true, tools: [execTool], input: [] });
    const call = (events.find((e) => e.type === 'response.output_item.done') as unknown as { item: { type: string; name: string; call_id: string; arguments: string } }).item;
    expect(call.type).toBe('function_call');
    expect(call.name).toBe('exec_command');
    expect(JSON.parse(call.arguments)).toEqual({ cmd: 'touch x', sandbox_permissions: 'require_escalated', justification: 'Create x?' });
    expect(s.pendingCalls()).toEqual([call.call_id]);
    expect(s.log.some((e) => e.event === 'tool_call_pending' && e.call_id === call.call_id)).toBe(true);

    await postResponses(s.url, { stream: true, tools: [execTool], input: [{ type: 'function_call_output', call_id: call.call_id, output: 'exit 0' }] });
    expect(s.pendingCalls()).toEqual([]);
    const result = s.log.find((e) => e.event === 'tool_result');
    expect(result).toMatchObject({ call_id: call.call_id, output: 'exit 0' });
    const pendingAt = s.log.find((e) => e.event === 'tool_call_pending')!.t;
    expect(result!.t).toBeGreaterThanOrEqual(pendingAt);
  });

  it('answers the tool-less title side call without consuming a scenario step', async () => {
    const s = await start({ name: 't', steps: [{ kind: 'text', text: 'The real answer.', chunk_delay_ms: 0 }] });
    await postResponses(s.url, { stream: true, tools: [], input: [] });
    expect(s.log.some((e) => e.event === 'side_call')).toBe(true);
    const events = await postResponses(s.url, { stream: true, tools: [execTool], input: [] });
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('The real answer.');
  });

  it('lists models, 404s unknown endpoints (logged) and rejects a non-JSON body', async () => {
    const s = await start({ name: 't', steps: [] });
    const models = await fetch(`${s.url}/models`);
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const unknown = await fetch(`${s.url}/nope`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(s.log.some((e) => e.event === 'unknown_endpoint' && e.path === '/v1/nope')).toBe(true);
    const bad = await fetch(`${s.url}/responses`, { method: 'POST', body: 'not json' });
    expect(bad.status).toBe(400);
  });

  it('emits a patch as an apply_patch heredoc through exec_command, without escalation, and logs it pending', async () => {
    const patch = '*** Begin Patch\n*** Add File: /elsewhere/note.txt\n+lab note\n*** End Patch';
    const s = await start({ name: 't', steps: [{ kind: 'patch', patch }] });
    const events = await postResponses(s.url, { stream: true, tools: [execTool], input: [] });
    const call = (events.find((e) => e.type === 'response.output_item.done') as unknown as { item: { name: string; call_id: string; arguments: string } }).item;
    expect(call.name).toBe('exec_command');
    expect(JSON.parse(call.arguments)).toEqual({ cmd: `apply_patch <<'PATCH'\n${patch}\nPATCH` });
    expect(s.log.find((e) => e.event === 'tool_call_pending')).toMatchObject({ call_id: call.call_id, patch: true });
  });

  it('calls an MCP tool inside the namespace Codex offers it in (the call names the function and its namespace) and logs it pending', async () => {
    const mcpNamespace = { type: 'namespace', name: 'mcp__lab_tools', tools: [{ type: 'function', name: 'lookup_ticket' }, { type: 'function', name: 'deploy_preview' }] };
    const s = await start({ name: 't', steps: [{ kind: 'mcp_call', tool: 'deploy_preview', arguments: { target: 'staging' } }] });
    const events = await postResponses(s.url, { stream: true, tools: [execTool, mcpNamespace], input: [] });
    const call = (events.find((e) => e.type === 'response.output_item.done') as unknown as { item: { name: string; namespace?: string; call_id: string; arguments: string } }).item;
    expect(call).toMatchObject({ name: 'deploy_preview', namespace: 'mcp__lab_tools' });
    expect(JSON.parse(call.arguments)).toEqual({ target: 'staging' });
    expect(s.log.find((e) => e.event === 'tool_call_pending')).toMatchObject({ call_id: call.call_id, mcp: true });
  });

  it('answers an error step with its status and an OpenAI error body carrying the scripted type and fields', async () => {
    const s = await start({ name: 't', steps: [{ kind: 'error', status: 429, error_type: 'usage_limit_reached', message: 'limit', error_fields: { resets_in_seconds: 60 } }] });
    const res = await fetch(`${s.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, tools: [execTool], input: [] }) });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: { message: 'limit', type: 'usage_limit_reached', code: null, resets_in_seconds: 60 } });
    expect(s.log.find((e) => e.event === 'error_reply')).toMatchObject({ status: 429, type: 'usage_limit_reached' });
  });

  it('rejects a bad scenario naming the field, the value and the fix', () => {
    expect(() => checkScenario({ name: 'x', steps: [{ kind: 'speak' }] }, 'bad.json')).toThrow(/bad\.json\.steps\[0\]\.kind: expected "text", "function_call", "patch", "mcp_call", "tool_call" or "error", got "speak"/);
    expect(() => checkScenario({ name: 'x', steps: [{ kind: 'mcp_call' }] }, 'bad.json')).toThrow(/steps\[0\]\.tool: expected the MCP tool's name/);
    expect(() => checkScenario({ name: 'x', steps: [{ kind: 'tool_call' }] }, 'bad.json')).toThrow(/steps\[0\]\.name: expected the name of a tool the request offers/);
    expect(() => checkScenario({ name: 'x', steps: [{ kind: 'patch', patch: 'add a file' }] }, 'bad.json')).toThrow(/steps\[0\]\.patch: expected an apply_patch body starting "\*\*\* Begin Patch", got "add a file"/);
    expect(() => checkScenario({ name: 'x', steps: [{ kind: 'function_call' }] }, 'bad.json')).toThrow(/steps\[0\]\.command/);
    expect(() => checkScenario({ steps: [] }, 'bad.json')).toThrow(/bad\.json\.name/);
  });

  it('puts the session id the last tool output names into a tool_call\'s "$session_id" (write_stdin reaches the running process)', () => {
    const step = { kind: 'tool_call', name: 'write_stdin', arguments: { session_id: '$session_id', chars: 'hello\n' } };
    const body = {
      input: [
        { type: 'function_call_output', call_id: 'call_1', output: 'Chunk ID: 1\nProcess running with session ID 11111\nOutput:\n' },
        { type: 'function_call_output', call_id: 'call_2', output: 'Chunk ID: 2\nProcess running with session ID 52847\nOutput:\n' },
      ],
    };
    expect(buildCall(step, body)).toEqual({ name: 'write_stdin', args: { session_id: 52847, chars: 'hello\n' } });
    // No running process named: the placeholder stays, and Codex answers "Unknown process id".
    expect(buildCall(step, { input: [] })).toEqual({ name: 'write_stdin', args: { session_id: '$session_id', chars: 'hello\n' } });
  });

  it('every shipped scenario file is valid', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    // @ts-expect-error: plain .mjs lab tooling without type declarations.
    const { loadScenario } = await import('../lab/codex/server.mjs');
    const dir = path.join(import.meta.dirname, '..', 'lab', 'codex', 'scenarios');
    const files = fs.readdirSync(dir).filter((f: string) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) expect(() => loadScenario(path.join(dir, f))).not.toThrow();
  });
});
