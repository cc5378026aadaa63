/**
 * Tests of the scripted OpenAI Chat Completions server the Qwen Code lab drives
 * (lab/lib/openai-chat-server.mjs, with lab/qwen-code/scenarios) over real HTTP on loopback, without
 * the CLI: the SSE chunk shape OpenAI clients parse, the tool call → tool message round trip, the
 * scripted API error, an aborted stream, side calls, model listing, unknown routes, bad scenario
 * files, and the timestamped log the lab uses as ground truth.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latestUserText, loadChatScenarios, startChatServer, type ChatScenario, type ChatServer } from '../lab/lib/openai-chat-server.mjs';

interface Delta { role?: string; content?: string; tool_calls?: Array<{ index: number; id: string; type: string; function: { name: string; arguments: string } }> }
interface Chunk { object: string; choices: Array<{ index: number; delta: Delta; finish_reason: string | null }>; usage?: { total_tokens: number } }

/** The JSON `data:` payloads of an SSE body, and whether it ended with `[DONE]`. */
function parseSse(body: string): { chunks: Chunk[]; done: boolean } {
  const datas = body.split(/\n\n/).filter((b) => b.trim()).map((b) => b.replace(/^data: /, ''));
  return { chunks: datas.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Chunk), done: datas.at(-1) === '[DONE]' };
}
const text = (chunks: Chunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

const SCENARIO: ChatScenario = {
  name: 'unit',
  replies: [
    { match: 'create', chunks: ['On it.'], chunkDelayMs: 10, toolCall: { name: 'run_shell_command', arguments: { command: 'touch x' } }, afterTool: { chunks: ['Created ', 'x.'], chunkDelayMs: 10 } },
    { match: 'fail', error: { status: 400, message: 'bad request from the script' } },
    { match: 'slow', chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 150 },
    { match: '.', chunks: ['Hello ', 'there.'], chunkDelayMs: 60 },
  ],
};

let server: ChatServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function post(body: unknown): Promise<Response> {
  return fetch(`${server!.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
const user = (content: unknown) => ({ role: 'user', content });

describe('lab OpenAI Chat Completions server', () => {
  it('listens on 127.0.0.1 and gives a /v1 base URL', async () => {
    server = await startChatServer({ scenario: SCENARIO });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('streams the scripted text as chat.completion.chunk events with pacing, a usage chunk and [DONE], and logs start/end', async () => {
    server = await startChatServer({ scenario: SCENARIO });
    const before = Date.now();
    const res = await post({ model: 'lab-model', stream: true, messages: [{ role: 'system', content: 'sys' }, user('say hello')] });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const { chunks, done } = parseSse(await res.text());
    expect(done).toBe(true);
    expect(chunks[0]!.object).toBe('chat.completion.chunk');
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(text(chunks)).toBe('Hello there.');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
    const start = server.log.find((e) => e.event === 'stream_start')!;
    const end = server.log.find((e) => e.event === 'stream_end')!;
    expect(start.t).toBeGreaterThanOrEqual(before);
    expect(end.t - start.t).toBeGreaterThanOrEqual(50);
    expect(server.log.find((e) => e.event === 'prompt')!.text).toBe('say hello');
  });

  it('ends a reply with a tool call, logs it as pending, and streams afterTool once the tool message arrives', async () => {
    server = await startChatServer({ scenario: SCENARIO });
    const first = parseSse(await (await post({ model: 'm', stream: true, messages: [user([{ type: 'text', text: 'please create it' }])] })).text()).chunks;
    const call = first.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])[0]!;
    expect(call.function.name).toBe('run_shell_command');
    expect(JSON.parse(call.function.arguments)).toEqual({ command: 'touch x' });
    expect(first.find((c) => c.choices[0]?.finish_reason)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(server.pendingTool()).toEqual({ id: call.id, name: 'run_shell_command', arguments: { command: 'touch x' } });
    const second = parseSse(await (await post({
      model: 'm', stream: true,
      messages: [user('please create it'), { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'ok' }],
    })).text()).chunks;
    expect(text(second)).toBe('Created x.');
    const events = server.log.map((e) => e.event);
    expect(events.indexOf('tool_result')).toBeGreaterThan(events.indexOf('tool_call_pending'));
    expect(server.log.find((e) => e.event === 'tool_result')!.id).toBe(call.id);
    expect(server.pendingTool()).toBeNull();
  });

  it('answers a scripted error with its HTTP status and an OpenAI error body, and logs api_error', async () => {
    server = await startChatServer({ scenario: SCENARIO });
    const res = await post({ model: 'm', stream: true, messages: [user('please fail')] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'bad request from the script' } });
    expect(server.log.map((e) => e.event)).toContain('api_error');
    expect(server.log.map((e) => e.event)).not.toContain('stream_start');
  });

  it('logs stream_aborted when the client hangs up mid-stream (an interrupt)', async () => {
    server = await startChatServer({ scenario: SCENARIO });
    const ctrl = new AbortController();
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages: [user('a slow one')] }), signal: ctrl.signal });
    await res.body!.getReader().read();
    ctrl.abort();
    const aborted = await server.waitFor((e) => e.event === 'stream_aborted', 2000);
    expect(aborted.t).toBeGreaterThan(0);
    expect(server.log.map((e) => e.event)).not.toContain('stream_end');
  });

  it('answers non-streamed side calls, filling a response_format JSON schema', async () => {
    server = await startChatServer({ scenario: SCENARIO });
    const schema = { type: 'object', properties: { next_speaker: { type: 'string', enum: ['model', 'user'] }, ok: { type: 'boolean' } } };
    const body = await (await post({ model: 'm', messages: [user('x')], response_format: { type: 'json_schema', json_schema: { name: 's', schema } } })).json() as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ next_speaker: 'user', ok: false });
    expect(server.log.filter((e) => e.event === 'side_call')).toHaveLength(1);
    expect(server.log.map((e) => e.event)).not.toContain('stream_start');
  });

  it('lists its models and answers an unknown route with a 404 that names it', async () => {
    server = await startChatServer({ scenario: SCENARIO, models: ['a', 'b'] });
    const list = await (await fetch(`${server.url}/models`)).json() as { data: Array<{ id: string }> };
    expect(list.data.map((m) => m.id)).toEqual(['a', 'b']);
    const res = await fetch(`${server.url}/nothing`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect((await res.json() as { error: { message: string } }).error.message).toContain('POST /v1/nothing');
  });

  it('takes the user text from the latest user message, skipping injected context blocks', () => {
    expect(latestUserText([user('first'), { role: 'assistant', content: 'a' }, user([{ type: 'text', text: '<system-reminder>ctx</system-reminder>' }, { type: 'text', text: 'second' }])])).toBe('second');
    expect(latestUserText([{ role: 'system', content: 'x' }])).toBe('');
  });
});

describe('lab scenario files', () => {
  it('loads the Qwen Code scenario with every reply the lab sessions use', () => {
    const basic = loadChatScenarios(path.join(__dirname, '..', 'lab', 'qwen-code', 'scenarios')).basic!;
    const pick = (t: string) => basic.replies.find((r) => !r.match || new RegExp(r.match, 'i').test(t))!;
    expect(pick('please create the file').toolCall!.name).toBe('run_shell_command');
    expect(pick('write the notes').toolCall!.name).toBe('write_file');
    expect(pick('trigger an error').error!.status).toBe(400);
    expect(pick('give me a long answer').chunks!.join('').split('\n').length).toBeGreaterThan(24);
  });

  it('rejects a scenario whose tool call has no arguments, naming the file and the field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-scenarios-'));
    try {
      fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ name: 'bad', replies: [{ toolCall: { name: 'x' } }] }));
      expect(() => loadChatScenarios(dir)).toThrow(/bad\.json: replies\[0\]\.toolCall needs "name" \(string\) and "arguments" \(object\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
