/**
 * `specterm mcp` driven by the official MCP SDK's client over real stdio, against a real daemon
 * and the real Demo Agent: the tools, the refusals an agent can act on, an agent that may not
 * target its own session, and a flood that is slowed while the daemon keeps serving.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
const BIN = path.resolve('bin/specterm.js');
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let worker: string;
const clients: Client[] = [];

async function connect(env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'specterm-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { ...dirs.env, ...env } as Record<string, string>, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: any };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => await client.callTool({ name, arguments: args }) as ToolAnswer;
const text = (answer: ToolAnswer) => answer.content.map((c) => c.text ?? '').join('');

beforeAll(async () => {
  dirs = makeDirs();
  daemon = await startDaemon(dirs);
  worker = (await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30, name: 'worker' } })).id;
  await waitFor(async () => (await daemon.client.call('getSession', { params: { id: worker } })).state?.id === 'idle', WAIT_MS, 'idle');
}, 90_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await stopAll();
}, 60_000);

describe('specterm mcp', () => {
  it('offers its tools and drives another session: list, send and wait, read the screen, answer its prompt', async () => {
    const mcp = await connect();
    expect((await mcp.listTools()).tools.map((t) => t.name).sort()).toEqual(['answer_approval', 'assign', 'handoff', 'list_approvals', 'list_sessions', 'list_tasks', 'read_screen', 'read_transcript', 'send_message', 'start_session', 'stop_session', 'task_status']);
    const listed = await call(mcp, 'list_sessions');
    expect(listed.structuredContent.sessions).toEqual([expect.objectContaining({ id: worker, name: 'worker', spec: 'demo-agent', state: { id: 'idle', status: 'idle' } })]);
    const hello = await call(mcp, 'send_message', { session: 'worker', text: 'hello', wait: 'idle', timeout_ms: 45_000 });
    expect(hello.isError, text(hello)).toBeFalsy();
    expect(hello.structuredContent.delivery).toBe('idle');
    expect(text(await call(mcp, 'read_screen', { session: worker }))).toContain('Demo Agent');
    const blocked = await call(mcp, 'send_message', { session: worker, text: 'run the tests', wait: 'idle', timeout_ms: 45_000 });
    expect(blocked.structuredContent).toMatchObject({ delivery: 'blocked', blocked_by: { kind: 'approval' } });
    const approvals = (await call(mcp, 'list_approvals')).structuredContent.approvals;
    expect(approvals).toEqual([expect.objectContaining({ session_id: worker, kind: 'approval', yours: false })]);
    const answered = await call(mcp, 'answer_approval', { approval_id: approvals[0].id, button: approvals[0].buttons[0].index });
    expect(answered.isError, text(answered)).toBeFalsy();
    await waitFor(async () => (await daemon.client.call('listApprovals')).approvals.length === 0, WAIT_MS, 'the approval answered');
  }, 180_000);

  it('refuses what an agent can fix, in words that say how, and never its own session', async () => {
    const mcp = await connect({ SPECTERM_SESSION_ID: worker });
    const unknown = await call(mcp, 'send_message', { session: 'nobody', text: 'hi' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/^SESSION_NOT_FOUND: no session has id or name "nobody"/);
    const self = await call(mcp, 'send_message', { session: 'worker', text: 'hi' });
    expect(text(self)).toMatch(/^SELF_TARGET: typing into 'worker' is your own session/);
    expect(text(await call(mcp, 'stop_session', { session: worker }))).toMatch(/^SELF_TARGET: /);
    const badArgs = await call(mcp, 'send_message', { session: 'worker', text: 42 }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    expect(badArgs.isError).toBe(true);
    expect(text(badArgs)).toContain('text');
    const huge = await call(mcp, 'send_message', { session: 'nobody', text: 'x'.repeat(10 * 1024 * 1024) }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    expect(huge.isError).toBe(true);
    expect(text(huge)).toContain('at most 4194304 are read');
    const noTool = await mcp.callTool({ name: 'format_disk', arguments: {} }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] })) as ToolAnswer;
    expect(noTool.isError).toBe(true);
    expect(text(noTool)).toContain('format_disk');
    expect((await daemon.client.call('getSession', { params: { id: worker } })).lifecycle).toBe('running');
  }, 120_000);

  it('slows a flood of calls with RATE_LIMITED while the daemon keeps serving everyone else', async () => {
    const mcp = await connect();
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(mcp, 'list_sessions')));
    const limited = answers.filter((a) => a.isError && text(a).startsWith('RATE_LIMITED: too many tool calls'));
    expect(limited.length).toBeGreaterThan(100);
    expect(answers.length - limited.length).toBeGreaterThan(0);
    expect((await daemon.client.call('health')).status).toBe('ok');
  }, 120_000);

  it('hands a task to a new session and answers with what it said; a prompt for a person waits for the person', async () => {
    const mcp = await connect();
    const first = await call(mcp, 'handoff', { spec: 'demo-agent', cwd: dirs.work, task: 'hello', timeout_ms: 90_000 });
    expect(first.isError, text(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ delivery: 'idle', waited_for_person: false, answer: expect.stringMatching(/^Hello! I'm Demo Agent/) });
    const child = first.structuredContent.session_id as string;
    // The worker asks a person: the handoff waits while a person (here the test) answers.
    const pending = call(mcp, 'handoff', { session: child, task: 'run the tests', timeout_ms: 90_000 });
    const approval = await waitFor(async () => (await daemon.client.call('listApprovals')).approvals.find((a) => a.session_id === child), WAIT_MS, 'the worker\'s approval');
    await daemon.client.call('answerApproval', { params: { id: approval.id }, body: { button: approval.buttons[0]!.index, fingerprint: approval.fingerprint } });
    const second = await pending;
    expect(second.isError, text(second)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ delivery: 'idle', waited_for_person: true, tool_calls: [expect.objectContaining({ status: 'ok' })] });
  }, 240_000);

  it('keeps agents that start agents bounded: not itself, no cycle, not too deep', async () => {
    // A chain worker → d1 → d2 → d3: the daemon counts each one's depth from its parent.
    const chain: string[] = [worker];
    for (let i = 0; i < 3; i++) chain.push((await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, labels: { 'specterm.parent': chain.at(-1)! } } })).id);
    const deep = chain.at(-1)!;
    expect((await daemon.client.call('getSession', { params: { id: deep } })).labels['specterm.depth']).toBe('3');
    const fromDeep = await connect({ SPECTERM_SESSION_ID: deep });
    expect(text(await call(fromDeep, 'handoff', { spec: 'demo-agent', cwd: dirs.work, task: 'hello' }))).toMatch(/^HANDOFF_TOO_DEEP: session \S+ is already 3 handoffs deep and at most 3 are allowed/);
    expect(text(await call(fromDeep, 'start_session', { spec: 'demo-agent', cwd: dirs.work }))).toMatch(/^HANDOFF_TOO_DEEP: /);
    expect(text(await call(fromDeep, 'handoff', { session: deep, task: 'hello' }))).toMatch(/^SELF_TARGET: /);
    const fromChild = await connect({ SPECTERM_SESSION_ID: chain[1]! });
    expect(text(await call(fromChild, 'handoff', { session: worker, task: 'hello' }))).toMatch(/^HANDOFF_CYCLE: session .* handed work down to you/);
    expect(text(await call(fromChild, 'assign', { session: worker, task: 'hello' }))).toMatch(/^HANDOFF_CYCLE: /);
    for (const id of chain.slice(1).reverse()) await daemon.client.call('removeSession', { params: { id }, query: { force: 'true' } });
  }, 120_000);

  it('assigns a task: answers at once, runs it in the daemon, types the result into the caller; a worker that dies fails its task', async () => {
    const boss = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'boss', cols: 100, rows: 30 } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: boss.id } })).state?.id === 'idle', WAIT_MS, 'the boss idle');
    const mcp = await connect({ SPECTERM_SESSION_ID: boss.id });
    const assigned = await call(mcp, 'assign', { spec: 'demo-agent', cwd: dirs.work, task: 'hello' });
    expect(assigned.isError, text(assigned)).toBeFalsy();
    expect(assigned.structuredContent).toMatchObject({ status: 'queued', parent_session_id: boss.id });
    const id = assigned.structuredContent.id as string;
    await waitFor(async () => (await daemon.client.call('getTask', { params: { id } })).status === 'done', WAIT_MS, 'the task done');
    const done = (await call(mcp, 'task_status', { task_id: id })).structuredContent;
    expect(done.result.text).toMatch(/^Hello! I'm Demo Agent/);
    const typed = await waitFor(async () => {
      const { transcript } = await daemon.client.call('getTranscript', { params: { id: boss.id } });
      return transcript?.turns.find((t) => t.user?.text.startsWith(`[specterm task ${id} done by`));
    }, WAIT_MS, 'the result typed into the boss');
    expect(typed.user!.text).toContain("Hello! I'm Demo Agent");
    expect((await call(mcp, 'list_tasks')).structuredContent.tasks[0]).toMatchObject({ id, yours: true, status: 'done' });

    const worker2 = (await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30 } })).id;
    const doomed = (await call(mcp, 'assign', { session: worker2, task: 'run the tests' })).structuredContent.id as string;
    await waitFor(async () => (await daemon.client.call('getTask', { params: { id: doomed } })).status === 'waiting_for_person', WAIT_MS, 'the task waiting for a person');
    await daemon.client.call('killSession', { params: { id: worker2 } });
    const failed = await waitFor(async () => {
      const t = await daemon.client.call('getTask', { params: { id: doomed } });
      return t.status === 'failed' ? t : undefined;
    }, WAIT_MS, 'the task failed');
    expect(failed.reason).toBe(`the worker session ${worker2} ended while it waited for a person`);
    expect(text(await call(mcp, 'assign', { session: boss.id, task: 'hello' }))).toMatch(/^SELF_TARGET: /);
  }, 240_000);
});
