/**
 * The scripted chat server as the OpenCode lab drives it (lab/opencode): OpenCode streams its
 * session-title request beside the turn, and the lab's `isSideCall` makes that a side call — a
 * short stream logged as `side_call`, with no `prompt`/`stream_start` and no tool call — so the
 * turn's tool call is scripted once, for the real request. Real HTTP on loopback, no CLI.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadChatScenarios, startChatServer, type ChatServer } from '../lab/lib/openai-chat-server.mjs';
import { OPENCODE } from '../lab/opencode/lab.mjs';

let server: ChatServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const scenario = loadChatScenarios(path.join(import.meta.dirname, '..', 'lab', 'opencode', 'scenarios')).basic!;
const post = (body: unknown) => fetch(`${server!.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const titleRequest = { model: 'lab-model', stream: true, messages: [{ role: 'system', content: 'You are a title generator. You output ONLY a thread title.' }, { role: 'user', content: 'please create the file' }] };
const turnRequest = { model: 'lab-model', stream: true, tools: [{ type: 'function', function: { name: 'bash' } }], messages: [{ role: 'system', content: 'You are opencode, an interactive CLI tool' }, { role: 'user', content: 'please create the file' }] };

describe('lab chat server with the OpenCode side-call rule', () => {
  it('answers the streamed title request as a side call: no turn events, no tool call', async () => {
    server = await startChatServer({ scenario, isSideCall: OPENCODE.isSideCall });
    const body = await (await post(titleRequest)).text();
    expect(body).toContain('Lab session');
    expect(body).not.toContain('tool_calls');
    expect(server.log.map((e) => e.event)).toEqual(['listening', 'side_call']);
    expect(server.pendingTool()).toBeNull();
  });

  it('scripts the bash tool call for the real turn (it has tools), once', async () => {
    server = await startChatServer({ scenario, isSideCall: OPENCODE.isSideCall });
    await (await post(titleRequest)).text();
    const body = await (await post(turnRequest)).text();
    expect(body).toContain('"name":"bash"');
    expect(server.log.filter((e) => e.event === 'tool_call_pending')).toHaveLength(1);
    expect(server.pendingTool()?.arguments).toEqual({ command: 'mkdir -p build && touch build/out.txt', description: 'Create build/out.txt' });
  });

  it('without the rule the same title request is taken for the turn (why the lab needs it)', async () => {
    server = await startChatServer({ scenario });
    const body = await (await post(titleRequest)).text();
    expect(body).toContain('"name":"bash"');
    expect(server.log.some((e) => e.event === 'side_call')).toBe(false);
  });

  it('error.times: the rate-limit reply answers 429 twice, then streams (the retry OpenCode makes goes through)', async () => {
    server = await startChatServer({ scenario, isSideCall: OPENCODE.isSideCall });
    const req = { ...turnRequest, messages: [turnRequest.messages[0], { role: 'user', content: 'please answer through a rate limit' }] };
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(req);
      statuses.push(res.status);
      await res.text();
    }
    expect(statuses).toEqual([429, 429, 200]);
    expect(server.log.filter((e) => e.event === 'api_error').map((e) => e.attempt)).toEqual([1, 2]);
    expect(server.log.filter((e) => e.event === 'stream_end')).toHaveLength(1);
  });

  it('error.times is checked when the scenario loads: a bad count names the field, the value and the fix', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-scenario-'));
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ name: 'bad', replies: [{ error: { status: 429, times: 0 } }] }));
    expect(() => loadChatScenarios(dir)).toThrow(/replies\[0\]\.error\.times must be a whole number ≥ 1.*got 0/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('toolCalls: three identical calls stream in one message (indexes 0-2, distinct ids); the results of all three come back as one turn', async () => {
    server = await startChatServer({ scenario, isSideCall: OPENCODE.isSideCall });
    const req = { ...turnRequest, messages: [turnRequest.messages[0], { role: 'user', content: 'please keep reading the missing file' }] };
    const body = await (await post(req)).text();
    const deltas = body.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)))
      .flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []);
    expect(deltas.map((d: { index: number }) => d.index)).toEqual([0, 1, 2]);
    const ids = deltas.map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(3);
    expect(new Set(deltas.map((d: { function: { arguments: string } }) => d.function.arguments)).size).toBe(1);
    expect(body).toContain('"finish_reason":"tool_calls"');
    expect(server.log.filter((e) => e.event === 'tool_call_pending')).toEqual([expect.objectContaining({ name: 'read', count: 3 })]);
    const results = ids.map((id: string) => ({ role: 'tool', tool_call_id: id, content: 'File not found' }));
    const after = await (await post({ ...req, messages: [...req.messages, { role: 'assistant', tool_calls: deltas }, ...results] })).text();
    expect(after).toContain('still missing');
    expect(server.log.filter((e) => e.event === 'tool_result')).toEqual([expect.objectContaining({ id: ids[0], count: 3 })]);
  });

  it('toolCalls is checked when the scenario loads: not beside toolCall, each call with a name and arguments', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-scenario-'));
    const call = { name: 'read', arguments: {} };
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ name: 'bad', replies: [{ toolCall: call, toolCalls: [call] }] }));
    expect(() => loadChatScenarios(dir)).toThrow(/replies\[0\] has both "toolCall" and "toolCalls"/);
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ name: 'bad', replies: [{ toolCalls: [call, { name: 'read' }] }] }));
    expect(() => loadChatScenarios(dir)).toThrow(/replies\[0\]\.toolCalls\[1\] needs "name" \(string\) and "arguments" \(object\)/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
