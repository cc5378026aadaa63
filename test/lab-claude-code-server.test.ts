/**
 * Tests of the Claude Code lab's scripted Messages API server (lab/claude-code/server.mjs) over real
 * HTTP on loopback, without the CLI: the SSE shape Claude Code parses, the tool_use → tool_result
 * round trip, side calls that must not advance the scenario, probes, scripted errors, and the log
 * the lab uses as ground truth.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkScenario, fillInput, loadScenario, startServer, type LabScenario, type LabServer } from '../lab/claude-code/server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCENARIOS = path.join(here, '..', 'lab', 'claude-code', 'scenarios');

interface SseEvent { event: string; data: Record<string, unknown> }

/** Splits an SSE body into its events. */
function parseSse(body: string): SseEvent[] {
  return body.split('\n\n').filter((b) => b.trim()).map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
    const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
    return { event, data };
  });
}

const TOOLS = [{ name: 'Bash', description: 'run', input_schema: { type: 'object' } }];

function mainRequest(messages: unknown[]): Record<string, unknown> {
  return { model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true, tools: TOOLS, messages };
}

async function post(server: LabServer, p: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' }, body: JSON.stringify(body) });
}

const FAST = { chunk_chars: 5, delay_ms: 1, first_delay_ms: 0 };

let server: LabServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('lab/claude-code/server.mjs', () => {
  it('streams a text step as message_start … message_stop and logs stream_start before stream_end', async () => {
    const scenario: LabScenario = { defaults: FAST, turns: [{ match: 'say hi', steps: [{ text: 'Hello there, lab!' }] }] };
    server = await startServer({ scenario });
    const res = await post(server, '/v1/messages', mainRequest([{ role: 'user', content: [{ type: 'text', text: 'please say hi' }] }]));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    expect(events[0].event).toBe('message_start');
    expect(events.at(-1)?.event).toBe('message_stop');
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta']));
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text).join('');
    expect(text).toBe('Hello there, lab!');
    expect((events.find((e) => e.event === 'message_delta')?.data.delta as { stop_reason: string }).stop_reason).toBe('end_turn');
    const start = server.events.find((e) => e.kind === 'stream_start');
    const end = server.events.find((e) => e.kind === 'stream_end');
    expect(start && end && start.atMs <= end.atMs).toBe(true);
    expect(server.events.find((e) => e.kind === 'prompt')?.matched).toBe('say hi');
  });

  it('emits a tool_use, logs it as pending, and continues the turn when the tool_result comes back', async () => {
    const input = { command: 'touch x.txt', description: 'Create x' };
    const scenario: LabScenario = { defaults: FAST, turns: [{ match: 'make x', steps: [{ tool_use: { name: 'Bash', input } }, { text: 'Made it.' }] }] };
    server = await startServer({ scenario });
    const first = parseSse(await (await post(server, '/v1/messages', mainRequest([{ role: 'user', content: 'make x now' }]))).text());
    const block = first.find((e) => e.event === 'content_block_start')?.data.content_block as { type: string; id: string; name: string };
    expect(block.type).toBe('tool_use');
    expect(block.name).toBe('Bash');
    const json = first.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { partial_json: string }).partial_json).join('');
    expect(JSON.parse(json)).toEqual(input);
    expect((first.find((e) => e.event === 'message_delta')?.data.delta as { stop_reason: string }).stop_reason).toBe('tool_use');
    expect(server.events.find((e) => e.kind === 'tool_use_pending')?.tool_use_id).toBe(block.id);

    const second = parseSse(await (await post(server, '/v1/messages', mainRequest([
      { role: 'user', content: 'make x now' },
      { role: 'assistant', content: [{ type: 'tool_use', id: block.id, name: 'Bash', input }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: 'ok', is_error: false }] },
    ]))).text());
    const text = second.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text).join('');
    expect(text).toBe('Made it.');
    const result = server.events.find((e) => e.kind === 'tool_result');
    expect(result).toMatchObject({ tool_use_id: block.id, is_error: false });
    const pendingAt = server.events.find((e) => e.kind === 'tool_use_pending')!.atMs;
    expect(result!.atMs).toBeGreaterThanOrEqual(pendingAt);
  });

  it('logs what the orchestration lab reads: a message\'s text blocks whole, the MCP tools named (deferred ones too), a long tool_result', async () => {
    const scenario: LabScenario = { defaults: FAST, turns: [{ match: 'delegate', steps: [{ tool_use: { name: 'mcp__specterm__handoff', input: {} } }, { text: 'Done.' }] }] };
    server = await startServer({ scenario });
    // Claude Code 2.1.332 offers MCP tools as deferred names, one a line, in a system message.
    const deferred = { role: 'system', content: 'The following deferred tools are now available via ToolSearch:\nWebFetch\nmcp__specterm__assign\nmcp__specterm__handoff' };
    const reminder = { type: 'text', text: '<system-reminder>context</system-reminder>' };
    const typed = `[specterm task t_1 done by s_2] ${'Hello! '.repeat(60)}`;
    await (await post(server, '/v1/messages', mainRequest([deferred, { role: 'user', content: [reminder, { type: 'text', text: typed }] }]))).text();
    await (await post(server, '/v1/messages', mainRequest([deferred, { role: 'user', content: 'delegate it' }]))).text();
    const id = server.events.find((e) => e.kind === 'tool_use_pending')!.tool_use_id as string;
    const answer = JSON.stringify({ delivery: 'idle', answer: 'x'.repeat(1000) });
    await (await post(server, '/v1/messages', mainRequest([deferred, { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: answer }] }] }]))).text();
    const prompts = server.events.filter((e) => e.kind === 'prompt');
    expect(prompts[0]).toMatchObject({ blocks: [reminder.text, typed], mcp_tools: ['mcp__specterm__assign', 'mcp__specterm__handoff'] });
    expect(prompts[1]).toMatchObject({ blocks: ['delegate it'] });
    expect(server.events.find((e) => e.kind === 'tool_result')).toMatchObject({ content: answer, mcp_tools: ['mcp__specterm__assign', 'mcp__specterm__handoff'] });
  });

  it('puts the run\'s working directory into a tool_use input ({cwd}, nested too) and logs the filled input', async () => {
    const input = { file_path: '{cwd}/notes.txt', edits: [{ path: '{cwd}/a' }], n: 3 };
    const scenario: LabScenario = { defaults: FAST, turns: [{ match: 'write', steps: [{ tool_use: { name: 'Write', input } }] }] };
    server = await startServer({ scenario, cwd: '/tmp/w' });
    const events = parseSse(await (await post(server, '/v1/messages', mainRequest([{ role: 'user', content: 'write it' }]))).text());
    const json = events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { partial_json: string }).partial_json).join('');
    const want = { file_path: '/tmp/w/notes.txt', edits: [{ path: '/tmp/w/a' }], n: 3 };
    expect(JSON.parse(json)).toEqual(want);
    expect(server.events.find((e) => e.kind === 'tool_use_pending')?.input).toEqual(want);
    expect(fillInput(input, undefined)).toEqual(input);
  });

  it('answers side calls (no tools, max_tokens 1, non-streamed) without advancing the scenario', async () => {
    const scenario: LabScenario = { defaults: FAST, turns: [{ match: 'go', steps: [{ text: 'Main answer.' }] }] };
    server = await startServer({ scenario });
    const quota = await post(server, '/v1/messages', { model: 'claude-haiku-4-5', max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] });
    expect(quota.status).toBe(200);
    const body = (await quota.json()) as { type: string; content: Array<{ text: string }> };
    expect(body.type).toBe('message');
    expect(body.content[0].text.length).toBeGreaterThan(0);
    const title = parseSse(await (await post(server, '/v1/messages', { model: 'claude-haiku-4-5', max_tokens: 512, stream: true, system: 'Generate a short title', messages: [{ role: 'user', content: 'go' }] })).text());
    expect(title.at(-1)?.event).toBe('message_stop');
    expect(server.events.filter((e) => e.kind === 'side_call')).toHaveLength(2);
    expect(server.events.some((e) => e.kind === 'stream_start')).toBe(false);
    const main = parseSse(await (await post(server, '/v1/messages', mainRequest([{ role: 'user', content: 'go' }]))).text());
    expect(main.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text).join('')).toBe('Main answer.');
  });

  it('answers count_tokens, the model list and HEAD/GET probes, and logs unknown endpoints as 404', async () => {
    server = await startServer();
    const count = await post(server, '/v1/messages/count_tokens', { messages: [] });
    expect(await count.json()).toEqual({ input_tokens: 100 });
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.length).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const unknown = await fetch(`${server.url}/api/whatever`);
    expect(unknown.status).toBe(404);
    expect(server.events.find((e) => e.kind === 'unknown')).toMatchObject({ method: 'GET', path: '/api/whatever' });
  });

  it('answers a scripted 429 the given number of times with retry-after, then the next step', async () => {
    const scenario: LabScenario = { defaults: FAST, turns: [{ match: 'busy', steps: [{ error: 429, times: 2 }, { text: 'Finally.' }] }] };
    server = await startServer({ scenario });
    const req = mainRequest([{ role: 'user', content: 'are you busy' }]);
    for (let i = 0; i < 2; i++) {
      const r = await post(server, '/v1/messages', req);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(((await r.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
    }
    const ok = await post(server, '/v1/messages', req);
    expect(ok.status).toBe(200);
    expect(parseSse(await ok.text()).filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text).join('')).toBe('Finally.');
    expect(server.events.filter((e) => e.kind === 'error_sent')).toHaveLength(2);
  });

  it('chains error steps: each answers its own retries before the turn goes on', async () => {
    server = await startServer({ scenario: { defaults: FAST, turns: [{ match: 'x', steps: [{ error: 429 }, { error: 500 }, { text: 'ok' }] }] } });
    const req = mainRequest([{ role: 'user', content: 'x' }]);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post(server, '/v1/messages', req);
      statuses.push(r.status);
      await r.text();
    }
    expect(statuses).toEqual([429, 500, 200]);
    expect(server.events.filter((e) => e.kind === 'prompt')).toHaveLength(1);
  });

  it('answers a scripted 500 as an api_error', async () => {
    server = await startServer({ scenario: { turns: [{ match: 'x', steps: [{ error: 500 }, { text: 'ok' }] }] } });
    const r = await post(server, '/v1/messages', mainRequest([{ role: 'user', content: 'x' }]));
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: { type: string } }).error.type).toBe('api_error');
  });

  it('rejects bad scenarios with the field and the fix', () => {
    expect(checkScenario({})).toMatch(/turns must be an array/);
    expect(checkScenario({ turns: [{ match: 'a', steps: [{ text: 'x', error: 429 }] }] })).toMatch(/turns\[0\]\.steps\[0\] must have exactly one of/);
    expect(checkScenario({ turns: [{ match: 'a', steps: [{ error: 418 }] }] })).toMatch(/error must be 429, 500 or 529/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-test-'));
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{ not json');
    expect(() => loadScenario(bad)).toThrow(/bad\.json: cannot read scenario/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads every shipped scenario file', () => {
    const files = fs.readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) expect(loadScenario(path.join(SCENARIOS, f)).name).toBe(f.replace(/\.json$/, ''));
  });
});
