/**
 * The tools `specterm mcp` offers an agent, each one call (or a few) of the daemon's API made
 * with the MCP server's scoped token. The daemon enforces scopes, rate limits and audit; this
 * module adds what only the caller's identity can decide: an agent never types into, stops or
 * answers the prompts of its own session (`SPECTERM_SESSION_ID`, set by the daemon for every
 * agent it starts).
 * @module
 */
import { z } from 'zod';
import type { DaemonClient } from '../client/index.js';

/** What the tools need of the daemon client: its typed call. */
export type DaemonCaller = Pick<DaemonClient, 'call'>;
import type { SessionDetail } from '../protocol/index.js';

/** Who is calling: the session the agent runs in, when the daemon started it. */
export interface McpCaller { sessionId: string | null }

/** A refusal the agent can act on: a stable code and what to do. */
export class ToolRefusal extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ToolRefusal';
    this.code = code;
  }
}

const SessionRef = z.string().min(1).max(128).describe('a session id (s_…) or its name');

export interface ToolDef<S extends z.ZodRawShape> {
  name: string;
  description: string;
  input: S;
  run(input: z.infer<z.ZodObject<S>>, deps: { client: DaemonCaller; caller: McpCaller }): Promise<unknown>;
}

const tool = <S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> => def;

/** A session as an agent needs it: who, where, and what it is doing or waiting for. */
function sessionView(s: SessionDetail) {
  return {
    id: s.id, name: s.name, node: s.node ?? null, spec: s.spec.id, cwd: s.cwd, branch: s.branch, lifecycle: s.lifecycle,
    state: s.state ? { id: s.state.id, status: s.state.status } : null,
    waiting_for: s.modal ? { approval_id: s.modal.approval_id, title: s.modal.title, kind: s.modal.kind, buttons: s.modal.buttons.map((b) => ({ index: b.index, label: b.label })) } : null,
  };
}

/** Refuses a target that is the caller's own session (typing into itself, stopping itself, answering its own prompt). */
async function notSelf(client: DaemonCaller, caller: McpCaller, ref: string, what: string): Promise<SessionDetail> {
  const session = await client.call('getSession', { params: { id: ref } });
  if (caller.sessionId !== null && session.id === caller.sessionId) {
    throw new ToolRefusal('SELF_TARGET', `${what} '${ref}' is your own session (${session.id}); an agent may not ${what === 'answering a prompt of' ? 'answer its own prompts' : 'do that to itself'} — name another session`);
  }
  return session;
}

export const TOOLS = [
  tool({
    name: 'list_sessions',
    description: 'Every agent session the daemon runs or ran: id, name, spec, working directory, state, and the prompt it waits on, if any.',
    input: {},
    run: async (_input, { client, caller }) => ({
      you: caller.sessionId,
      sessions: (await client.call('listSessions')).sessions.map(sessionView),
    }),
  }),
  tool({
    name: 'start_session',
    description: 'Start an agent CLI in a new session: a spec id (demo-agent, claude-code, codex, gemini-cli, qwen-code, pi, opencode, kilocode) or a spec path, an absolute working directory, optionally a new git worktree branch and a name.',
    input: {
      spec: z.string().min(1).max(4096).describe('a spec id such as "demo-agent", or a path to a spec.json'),
      cwd: z.string().min(1).max(4096).describe('absolute working directory; it must exist'),
      worktree_branch: z.string().min(1).max(200).optional().describe('run in a fresh git worktree on this new branch'),
      name: z.string().min(1).max(64).optional().describe('a name to refer to the session by'),
    },
    run: async (input, { client }) => sessionView(await client.call('createSession', {
      body: { spec: input.spec, cwd: input.cwd, ...(input.name ? { name: input.name } : {}), ...(input.worktree_branch ? { worktree: { branch: input.worktree_branch } } : {}) },
    })),
  }),
  tool({
    name: 'stop_session',
    description: 'Stop (kill) a session\'s agent; the session stays listed as exited with who stopped it.',
    input: { session: SessionRef },
    run: async (input, { client, caller }) => {
      await notSelf(client, caller, input.session, 'stopping');
      return sessionView(await client.call('killSession', { params: { id: input.session } }));
    },
  }),
  tool({
    name: 'send_message',
    description: 'Type a message into another session. wait: "none" answers once it is accepted, "started" once the turn began, "idle" once the turn ended. A turn that stops at a prompt for a person answers "blocked" with the prompt.',
    input: {
      session: SessionRef,
      text: z.string().min(1).max(100_000).describe('the message, at most 100,000 characters'),
      wait: z.enum(['none', 'started', 'idle']).default('none'),
      timeout_ms: z.number().int().min(0).max(600_000).optional().describe('give up waiting after this long (default 120000)'),
    },
    run: async (input, { client, caller }) => {
      await notSelf(client, caller, input.session, 'typing into');
      return client.call('sendMessage', {
        params: { id: input.session },
        body: { text: input.text, wait: input.wait === 'none' ? 'accepted' : input.wait, ...(input.timeout_ms !== undefined ? { timeout_ms: input.timeout_ms } : {}) },
      });
    },
  }),
  tool({
    name: 'read_transcript',
    description: 'A session\'s conversation as text, from its CLI\'s own history: the last N turns with the messages, answers, tool calls (input, output, status) and edits.',
    input: { session: SessionRef, last: z.number().int().min(1).max(1000).default(5).describe('how many of the last turns') },
    run: async (input, { client }) => {
      const { session_id: id, transcript } = await client.call('getTranscript', { params: { id: input.session }, query: { last: input.last } });
      if (!transcript) throw new ToolRefusal('NO_TRANSCRIPT', `session ${id} keeps no transcript (its spec names no history this daemon reads); read_screen shows its screen`);
      return { session_id: id, source: transcript.source, turns: transcript.turns };
    },
  }),
  tool({
    name: 'read_screen',
    description: 'The session\'s terminal screen as text, as the daemon\'s terminal emulator holds it now.',
    input: { session: SessionRef },
    run: async (input, { client }) => {
      const screen = await client.call('getScreen', { params: { id: input.session }, query: { format: 'text' } });
      return { cols: screen.cols, rows: screen.rows, text: screen.content };
    },
  }),
  tool({
    name: 'list_approvals',
    description: 'Prompts that wait for a person across sessions (approvals, pickers, confirms), with their buttons; your own session\'s are marked and cannot be answered by you.',
    input: {},
    run: async (_input, { client, caller }) => ({
      approvals: (await client.call('listApprovals')).approvals.map((a) => ({
        id: a.id, session_id: a.session_id, title: a.title, kind: a.kind, subject: a.subject?.text ?? null,
        buttons: a.buttons, yours: a.session_id === caller.sessionId,
      })),
    }),
  }),
  tool({
    name: 'answer_approval',
    description: 'Press a button of another session\'s pending prompt (needs a token with the approve scope). Never your own session\'s.',
    input: {
      approval_id: z.string().min(1).max(200),
      button: z.union([z.number().int().nonnegative(), z.string().min(1).max(200)]).describe('the button\'s displayed number or its exact label'),
    },
    run: async (input, { client, caller }) => {
      const approval = (await client.call('listApprovals')).approvals.find((a) => a.id === input.approval_id);
      if (!approval) throw new ToolRefusal('APPROVAL_NOT_FOUND', `no pending prompt has id '${input.approval_id}'; list_approvals lists them`);
      await notSelf(client, caller, approval.session_id, 'answering a prompt of');
      return client.call('answerApproval', { params: { id: approval.id }, body: { button: input.button, fingerprint: approval.fingerprint } });
    },
  }),
] as const;

/** Agents starting agents: how deep a chain of handoffs may go, and how many children one caller may run at once. */
export const HANDOFF_LIMITS = { depth: 3, fanOut: 5 } as const;
/** Labels a handoff puts on the session it starts: who asked, and how deep in the chain it is. */
const PARENT_LABEL = 'specterm.parent';
const DEPTH_LABEL = 'specterm.depth';

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

/** The session a handoff works in: an existing one (never the caller or its ancestors) or a new child of the caller. */
async function handoffTarget(client: DaemonCaller, caller: McpCaller, input: { session?: string; spec?: string; cwd?: string }): Promise<SessionDetail> {
  const sessions = (await client.call('listSessions')).sessions;
  const self = caller.sessionId === null ? undefined : sessions.find((s) => s.id === caller.sessionId);
  const depth = Number(self?.labels[DEPTH_LABEL] ?? 0);
  if (input.session) {
    const target = await notSelf(client, caller, input.session, 'handing work to');
    // An ancestor of the caller waits on the caller: handing it work back would wait on itself.
    for (let s = self; s; s = sessions.find((x) => x.id === s!.labels[PARENT_LABEL])) {
      if (s.labels[PARENT_LABEL] === target.id) throw new ToolRefusal('HANDOFF_CYCLE', `session ${target.id} handed work down to you (it waits on you); handing it work back would wait on itself — start a new session instead`);
    }
    return target;
  }
  if (!input.spec) throw new ToolRefusal('VALIDATION_FAILED', 'name the worker: an existing "session", or a "spec" (and "cwd") to start one');
  if (depth >= HANDOFF_LIMITS.depth) throw new ToolRefusal('HANDOFF_TOO_DEEP', `you are ${depth} handoffs deep; at most ${HANDOFF_LIMITS.depth} are allowed — do the work yourself or hand it to an existing session`);
  const children = sessions.filter((s) => caller.sessionId !== null && s.labels[PARENT_LABEL] === caller.sessionId && s.lifecycle === 'running');
  if (children.length >= HANDOFF_LIMITS.fanOut) throw new ToolRefusal('HANDOFF_FAN_OUT', `you already run ${children.length} sessions (at most ${HANDOFF_LIMITS.fanOut}); stop one (stop_session) or reuse one (session: …)`);
  const labels: Record<string, string> = caller.sessionId === null ? {} : { [PARENT_LABEL]: caller.sessionId, [DEPTH_LABEL]: String(depth + 1) };
  return client.call('createSession', { body: { spec: input.spec, cwd: input.cwd ?? process.cwd(), labels } });
}

/**
 * `handoff`: start or reuse a session, give it the task, wait for its turn to end, answer with
 * what it said. A prompt the worker raises for a person is left to the person (or that session's
 * own auto-approve policy): the handoff waits for it to be answered, within its timeout.
 */
export const HANDOFF_TOOL = tool({
  name: 'handoff',
  description: 'Hand a task to another agent and wait for its answer: an existing session, or a new one from a spec (demo-agent, claude-code, codex …) in a working directory. Its prompts for a person wait for a person. At most 3 handoffs deep and 5 children at once.',
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
