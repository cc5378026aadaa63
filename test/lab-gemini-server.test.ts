/**
 * Tests of the Gemini CLI lab's scripted Gemini API server (lab/gemini/server.mjs) over real HTTP on
 * loopback, without the CLI: the SSE shape Gemini CLI parses, the functionCall → functionResponse
 * round trip, schema-shaped answers to side calls, token counting, model listing, unknown routes,
 * and the timestamped log the lab uses as ground truth.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fillSchema, loadScenarios, startGeminiServer, type GeminiScenario, type GeminiServer } from '../lab/gemini/server.mjs';

interface Chunk { candidates: Array<{ content: { role: string; parts: Array<Record<string, unknown>> }; finishReason?: string }>; usageMetadata: Record<string, number> }

/** The `data:` payloads of an SSE body. */
function parseSse(body: string): Chunk[] {
  return body.split(/\r?\n\r?\n/).filter((b) => b.trim()).map((b) => JSON.parse(b.replace(/^data: /, '')) as Chunk);
}

const SCENARIO: GeminiScenario = {
  name: 'unit',
  replies: [
    { match: 'create', chunks: ['On it.'], chunkDelayMs: 10, functionCall: { name: 'run_shell_command', args: { command: 'touch x' } }, afterTool: { chunks: ['Created ', 'x.'], chunkDelayMs: 10 } },
    { match: '.', chunks: ['Hello ', 'there.'], chunkDelayMs: 60 },
  ],
};

let server: GeminiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function post(route: string, body: unknown): Promise<Response> {
  return fetch(`${server!.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const userTurn = (text: string) => ({ role: 'user', parts: [{ text: '<session_context>\nThis is the Gemini CLI.' }, { text }] });

describe('lab/gemini server', () => {
  it('streams the scripted text as SSE candidates with pacing, ends with STOP, and logs start/end', async () => {
    server = await startGeminiServer({ scenario: SCENARIO });
    const before = Date.now();
    const res = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [userTurn('say hello')] });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const chunks = parseSse(await res.text());
    expect(chunks.map((c) => c.candidates[0]!.content.parts[0]!.text).join('')).toBe('Hello there.');
    expect(chunks.at(-1)!.candidates[0]!.finishReason).toBe('STOP');
    expect(chunks[0]!.usageMetadata.totalTokenCount).toBeGreaterThan(0);
    const start = server.log.find((e) => e.event === 'stream_start')!;
    const end = server.log.find((e) => e.event === 'stream_end')!;
    expect(start.t).toBeGreaterThanOrEqual(before);
    expect(end.t - start.t).toBeGreaterThanOrEqual(50);
    expect(server.log.find((e) => e.event === 'prompt')!.text).toBe('say hello');
  });

  it('ends a reply with a functionCall, logs it as pending, and streams afterTool once the functionResponse arrives', async () => {
    server = await startGeminiServer({ scenario: SCENARIO });
    const first = parseSse(await (await post('/v1beta/models/m:streamGenerateContent?alt=sse', { contents: [userTurn('please create it')] })).text());
    const call = first.at(-1)!.candidates[0]!.content.parts[0]!.functionCall as { name: string; args: Record<string, unknown> };
    expect(call).toEqual({ name: 'run_shell_command', args: { command: 'touch x' } });
    expect(server.pendingTool()).toEqual({ name: 'run_shell_command', args: { command: 'touch x' } });
    expect(server.log.map((e) => e.event)).toContain('tool_call_pending');
    const second = parseSse(await (await post('/v1beta/models/m:streamGenerateContent?alt=sse', {
      contents: [userTurn('please create it'), { role: 'model', parts: [{ functionCall: call }] }, { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'ok' } } }] }],
    })).text());
    expect(second.map((c) => c.candidates[0]!.content.parts[0]!.text ?? '').join('')).toBe('Created x.');
    const events = server.log.map((e) => e.event);
    expect(events.indexOf('tool_result')).toBeGreaterThan(events.indexOf('tool_call_pending'));
    expect(server.pendingTool()).toBeNull();
  });

  it('answers a reply\'s scripted error (e.g. a 429 quota error) the given number of times, then streams it, and logs the tools a prompt offered', async () => {
    const quota = { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED', details: [] } };
    server = await startGeminiServer({ scenario: { name: 'quota', replies: [{ match: '.', error: { status: 429, body: quota, times: 1 }, chunks: ['Back.'], chunkDelayMs: 5 }] } });
    const body = { contents: [userTurn('go')], tools: [{ functionDeclarations: [{ name: 'run_shell_command' }, { name: 'mcp_lab-tools_deploy_preview' }] }] };
    const first = await post('/v1beta/models/m:streamGenerateContent?alt=sse', body);
    expect(first.status).toBe(429);
    expect(await first.json()).toEqual(quota);
    const second = parseSse(await (await post('/v1beta/models/m:streamGenerateContent?alt=sse', body)).text());
    expect(second.map((c) => c.candidates[0]!.content.parts[0]!.text ?? '').join('')).toBe('Back.');
    expect(server.log.filter((e) => e.event === 'api_error').map((e) => e.status)).toEqual([429]);
    expect(server.log.find((e) => e.event === 'prompt')!.tools).toEqual(['run_shell_command', 'mcp_lab-tools_deploy_preview']);
  });

  it('answers generateContent side calls with JSON that satisfies the request schema', async () => {
    server = await startGeminiServer({ scenario: SCENARIO });
    const schema = { type: 'object', properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['model', 'user'] } }, required: ['reasoning', 'next_speaker'] };
    const body = await (await post('/v1beta/models/gemini-2.5-flash-lite:generateContent', { contents: [userTurn('x')], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema } })).json() as Chunk;
    expect(JSON.parse(body.candidates[0]!.content.parts[0]!.text as string)).toEqual({ reasoning: 'ok', next_speaker: 'user' });
    const plain = await (await post('/v1beta/models/m:generateContent', { contents: [userTurn('title?')] })).json() as Chunk;
    expect(typeof plain.candidates[0]!.content.parts[0]!.text).toBe('string');
    expect(server.log.filter((e) => e.event === 'side_call')).toHaveLength(2);
    expect(server.log.some((e) => e.event === 'stream_start')).toBe(false);
  });

  it('prefers the flash model and the user as next speaker when filling enums', () => {
    expect(fillSchema({ type: 'object', properties: { model_choice: { type: 'string', enum: ['pro', 'flash'] }, n: { type: 'integer' }, ok: { type: 'boolean' }, l: { type: 'array' } } })).toEqual({ model_choice: 'flash', n: 0, ok: false, l: [] });
  });

  it('counts tokens, lists models, and answers unknown routes with a logged 404', async () => {
    server = await startGeminiServer({ scenario: SCENARIO });
    const count = await (await post('/v1beta/models/m:countTokens', { contents: [userTurn('hello')] })).json() as { totalTokens: number };
    expect(count.totalTokens).toBeGreaterThan(0);
    const list = await (await fetch(`${server.url}/v1beta/models`)).json() as { models: Array<{ name: string }> };
    expect(list.models.map((m) => m.name)).toContain('models/gemini-2.5-flash');
    const miss = await fetch(`${server.url}/v1beta/nothing/here`);
    expect(miss.status).toBe(404);
    expect(server.log.find((e) => e.event === 'unknown_endpoint')).toMatchObject({ method: 'GET', path: '/v1beta/nothing/here' });
  });

  it('listens on 127.0.0.1 only and appends every log entry to the log file as JSON lines', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-gemini-test-'));
    try {
      const logFile = path.join(dir, 'server.log');
      server = await startGeminiServer({ scenario: SCENARIO, logFile });
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await (await post('/v1beta/models/m:streamGenerateContent?alt=sse', { contents: [userTurn('hi')] })).text();
      const lines = fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; t: number });
      expect(lines.map((l) => l.event)).toEqual(server.log.map((e) => e.event));
      expect(lines.every((l) => Number.isInteger(l.t))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads the shipped scenarios, and names the file and the fix for a malformed one', () => {
    const shipped = loadScenarios();
    expect(Object.keys(shipped)).toContain('basic');
    expect(shipped.basic!.replies.some((r) => r.functionCall?.name === 'run_shell_command')).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-gemini-scn-'));
    try {
      fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ name: 'bad' }));
      expect(() => loadScenarios(dir)).toThrow(/bad\.json: a scenario needs "name" \(string\) and "replies" \(array\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
