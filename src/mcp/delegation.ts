/**
 * Agents handing work to agents: `handoff` (synchronous: the worker's answer) and `assign` with
 * `task_status` / `list_tasks` (asynchronous: a task the daemon runs, its result typed into the
 * caller's session), with the limits that keep a chain of agents bounded (docs/mcp.md).
 * @module
 */
import { z } from 'zod';
import type { SessionDetail } from '../protocol/index.js';
import { notSelf, SessionRef, tool, ToolRefusal, type DaemonCaller, type McpCaller } from './tools.js';

/** The label the daemon puts on a session an agent starts: who asked (src/daemon/orchestration.ts). */
const PARENT_LABEL = 'specterm.parent';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` answers a value or the deadline passes (then null). */
async function until<T>(deadline: number, done: () => Promise<T | null | undefined>): Promise<T | null> {
  for (;;) {
    const value = await done();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) return null;
    await sleep(250);
  }
}

/**
 * The session a handoff works in: an existing one (never the caller or its ancestors) or a new
 * child of the caller — the daemon labels it and refuses it past the depth and fan-out limits.
 */
async function handoffTarget(client: DaemonCaller, caller: McpCaller, input: { session?: string; spec?: string; cwd?: string }): Promise<SessionDetail> {
  if (input.session) {
    const sessions = (await client.call('listSessions')).sessions;
    const self = caller.sessionId === null ? undefined : sessions.find((s) => s.id === caller.sessionId);
    const target = await notSelf(client, caller, input.session, 'handing work to');
    // An ancestor of the caller waits on the caller: handing it work back would wait on itself.
    for (let s = self; s; s = sessions.find((x) => x.id === s!.labels[PARENT_LABEL])) {
      if (s.labels[PARENT_LABEL] === target.id) throw new ToolRefusal('HANDOFF_CYCLE', `session ${target.id} handed work down to you (it waits on you); handing it work back would wait on itself — start a new session instead`);
    }
    return target;
  }
  if (!input.spec) throw new ToolRefusal('VALIDATION_FAILED', 'name the worker: an existing "session", or a "spec" (and "cwd") to start one');
  return client.call('createSession', { body: { spec: input.spec, cwd: input.cwd ?? process.cwd() } });
}

/**
 * `handoff`: start or reuse a session, give it the task, wait for its turn to end, answer with
 * what it said. A prompt the worker raises for a person is left to the person (or that session's
 * own auto-approve policy): the handoff waits for it to be answered, within its timeout.
 */
export const HANDOFF_TOOL = tool({
  name: 'handoff',
  description: 'Hand a task to another agent and wait for its answer: an existing session, or a new one from a spec (demo-agent, claude-code, codex …) in a working directory. Its prompts for a person wait for a person. Chains are bounded (by default 3 handoffs deep, 5 children at once).',
  input: {
    task: z.string().min(1).max(100_000).describe('what the worker should do'),
    session: SessionRef.optional().describe('an existing session to hand the task to'),
    spec: z.string().min(1).max(4096).optional().describe('or: start a new session of this spec'),
    cwd: z.string().min(1).max(4096).optional().describe('the new session\'s absolute working directory (default: yours)'),
    timeout_ms: z.number().int().min(1_000).max(3_600_000).default(600_000).describe('give up waiting after this long'),
  },
  run: async (input, { client, caller }) => {
    const deadline = Date.now() + input.timeout_ms;
    const target = await handoffTarget(client, caller, input);
    const ready = await until(deadline, async () => {
      const s = await client.call('getSession', { params: { id: target.id } });
      if (s.lifecycle === 'exited' || s.lifecycle === 'failed') throw new ToolRefusal('WORKER_EXITED', `the worker session ${s.id} ended before it took the task (${s.exit?.code ?? s.exit?.signal ?? 'no code'})`);
      return s.state?.status === 'idle' && !s.modal ? s : null;
    });
    if (!ready) return { session_id: target.id, delivery: 'timed_out', answer: null, reason: `the worker was not ready within ${input.timeout_ms} ms` };
    let outcome = await client.call('sendMessage', { params: { id: target.id }, body: { text: input.task, wait: 'idle', timeout_ms: Math.max(1_000, Math.min(600_000, deadline - Date.now())) } });
    let waitedForPerson = false;
    if (outcome.delivery === 'blocked') {
      waitedForPerson = true;
      const idle = await until(deadline, async () => {
        const s = await client.call('getSession', { params: { id: target.id } });
        return s.state?.status === 'idle' && !s.modal ? s : null;
      });
      if (!idle) return { session_id: target.id, delivery: 'timed_out', answer: null, reason: `the worker still waited for a person after ${input.timeout_ms} ms`, blocked_by: outcome.blocked_by };
      const { transcript } = await client.call('getTranscript', { params: { id: target.id }, query: { last: 1 } });
      const turn = transcript?.turns.at(-1);
      const text = turn?.items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])).join('\n\n') ?? '';
      outcome = { ...outcome, delivery: 'idle', reason: null, ...(turn ? { answer: { text, turn } } : {}) };
    }
    return {
      session_id: target.id, delivery: outcome.delivery, waited_for_person: waitedForPerson,
      answer: outcome.answer?.text ?? null, tool_calls: outcome.answer?.turn.items.filter((i) => i.kind === 'tool_call').map((i) => i.kind === 'tool_call' ? { name: i.name, status: i.status } : null) ?? [],
      reason: outcome.reason,
    };
  },
});

/** `assign`, `task_status`, `list_tasks`: asynchronous work; the daemon runs the task and types its result into the caller's session. */
export const TASK_TOOLS = [
  tool({
    name: 'assign',
    description: 'Hand a task to another agent without waiting: answers a task id at once. When the task ends its result is typed into your session as a message starting "[specterm task <id> done by <worker>]". Give an existing session, or a spec and cwd for a new one.',
    input: {
      task: z.string().min(1).max(100_000),
      session: SessionRef.optional(),
      spec: z.string().min(1).max(4096).optional(),
      cwd: z.string().min(1).max(4096).optional().describe('the new session\'s absolute working directory (default: yours)'),
      timeout_ms: z.number().int().min(1_000).max(86_400_000).default(1_800_000),
    },
    run: async (input, { client, caller }) => {
      const target = input.session ? { session: (await notSelf(client, caller, input.session, 'handing work to')).id } : input.spec ? { spec: input.spec, cwd: input.cwd ?? process.cwd() } : null;
      if (!target) throw new ToolRefusal('VALIDATION_FAILED', 'name the worker: an existing "session", or a "spec" (and "cwd") to start one');
      return client.call('createTask', { body: { text: input.task, worker: target, timeout_ms: input.timeout_ms, ...(caller.sessionId ? { parent_session_id: caller.sessionId } : {}) } });
    },
  }),
  tool({
    name: 'task_status',
    description: 'Where a task is (queued, running, waiting_for_person, done, failed, cancelled, timed_out) and its result.',
    input: { task_id: z.string().min(1).max(128) },
    run: async (input, { client }) => client.call('getTask', { params: { id: input.task_id } }),
  }),
  tool({
    name: 'list_tasks',
    description: 'Every task, newest first: who asked whom for what, where it is, its result.',
    input: {},
    run: async (_input, { client, caller }) => ({
      tasks: (await client.call('listTasks')).tasks.map((t) => ({ ...t, yours: caller.sessionId !== null && t.parent_session_id === caller.sessionId })),
    }),
  }),
] as const;
