/**
 * Tasks: work one agent (or a person, or a script) hands to another session, as objects — who
 * asked, who works on it, the text, where it is, and its result. `assign` makes one and returns
 * at once; when it ends its result is typed into the session that asked (docs/mcp.md).
 * @module
 */
import { z } from 'zod';
import { EpochMs, Id } from './common.js';
import { NodeName } from './node.js';

export const TaskStatus = z.enum(['queued', 'running', 'waiting_for_person', 'done', 'failed', 'cancelled', 'timed_out']);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const Task = z.strictObject({
  id: Id,
  node: NodeName.optional(),
  text: z.string(),
  /** The session that asked (its agent gets the result typed in), or null (a person, a script). */
  parent_session_id: Id.nullable(),
  requested_by: z.string().meta({ description: 'the token name that asked, or `delegate:<trigger id>`' }),
  /** The spec's delegate trigger that made it (settings.json `orchestration.delegate_routes`); its result is not typed back. */
  trigger: z.string().nullable().optional(),
  worker_session_id: Id.nullable(),
  status: TaskStatus,
  result: z.strictObject({ text: z.string(), tool_calls: z.number().int().nonnegative() }).nullable(),
  reason: z.string().nullable().meta({ description: 'why it failed, timed out or was cancelled' }),
  timeout_ms: z.number().int().positive(),
  created_at: EpochMs,
  updated_at: EpochMs,
});
export type Task = z.infer<typeof Task>;

export const CreateTaskRequest = z.strictObject({
  text: z.string().min(1).max(100_000),
  worker: z.union([
    z.strictObject({ session: z.string().min(1).max(128) }),
    z.strictObject({ spec: z.string().min(1).max(4096), cwd: z.string().min(1).max(4096).startsWith('/', 'cwd must be an absolute path') }),
  ]).meta({ description: 'an existing session ({session}) or a new one ({spec, cwd})' }),
  parent_session_id: Id.optional().meta({ description: 'the session that asks: the result is typed into it when the task ends' }),
  timeout_ms: z.number().int().min(1_000).max(24 * 3600 * 1000).default(30 * 60 * 1000),
}).meta({ examples: [{ text: 'run the tests and say which fail', worker: { spec: 'demo-agent', cwd: '/home/me/project' }, timeout_ms: 600000 }] });

export const TaskParams = z.strictObject({ id: Id });
export const TaskList = z.strictObject({ tasks: z.array(Task) });
