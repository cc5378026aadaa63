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

export const SessionRef = z.string().min(1).max(128).describe('a session id (s_…) or its name');

export interface ToolDef<S extends z.ZodRawShape> {
  name: string;
  description: string;
  input: S;
  run(input: z.infer<z.ZodObject<S>>, deps: { client: DaemonCaller; caller: McpCaller }): Promise<unknown>;
}

export const tool = <S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> => def;

/** A session as an agent needs it: who, where, and what it is doing or waiting for. */
function sessionView(s: SessionDetail) {
  return {
    id: s.id, name: s.name, node: s.node ?? null, spec: s.spec.id, cwd: s.cwd, branch: s.branch, lifecycle: s.lifecycle,
    state: s.state ? { id: s.state.id, status: s.state.status } : null,
    waiting_for: s.modal ? { approval_id: s.modal.approval_id, title: s.modal.title, kind: s.modal.kind, buttons: s.modal.buttons.map((b) => ({ index: b.index, label: b.label })) } : null,
  };
}

/** Refuses a target that is the caller's own session (typing into itself, stopping itself, answering its own prompt). */
export async function notSelf(client: DaemonCaller, caller: McpCaller, ref: string, what: string): Promise<SessionDetail> {
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
