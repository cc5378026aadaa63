/**
 * Tasks handed between sessions (`assign`): stored, evented (`task.updated`), and run here, in
 * the daemon, so a task outlives the MCP server that asked for it. A task waits for its worker
 * to be idle, types its text, follows the turn — through any prompt a person must answer
 * (`waiting_for_person`) — reads the answer from the worker's transcript, and, when a session
 * asked, types the result into that session once it is idle. A task never goes to the session
 * that asked for it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Task, TaskStatus } from '../protocol/index.js';
import type { Store } from '../store/index.js';
import { DaemonError } from './errors.js';
import type { EventLog } from './event-log.js';
import type { ManagedSession } from './managed-session.js';
import { deliverMessage } from './message-delivery.js';
import type { SessionManager } from './session-manager.js';
import type { SessionTranscripts } from './session-transcripts.js';

export interface CreateTaskInput {
  text: string;
  worker: { session: string } | { spec: string; cwd: string };
  parent_session_id?: string;
  timeout_ms: number;
}

const POLL_MS = 250;

export interface TaskRunnerDeps {
  manager: () => SessionManager;
  store: Store;
  events: EventLog;
  transcripts: SessionTranscripts;
  now: () => number;
  node: string;
  log: (level: 'warn', message: string) => void;
}
const FINISHED: readonly TaskStatus[] = ['done', 'failed', 'cancelled', 'timed_out'];

export class TaskRunner {
  readonly #d: TaskRunnerDeps;
  readonly #cancelled = new Set<string>();

  constructor(deps: TaskRunnerDeps) {
    this.#d = deps;
    // A task the last daemon left unfinished cannot be followed any more: say so.
    for (const task of deps.store.tasks.list()) {
      if (!FINISHED.includes(task.status)) this.#update(task, { status: 'failed', reason: 'the daemon restarted while the task ran; assign it again' });
    }
  }

  async create(input: CreateTaskInput, requestedBy: string): Promise<Task> {
    const manager = this.#d.manager();
    const parent = input.parent_session_id === undefined ? null : manager.get(input.parent_session_id);
    const worker = 'session' in input.worker
      ? manager.get(input.worker.session)
      : manager.get((await manager.create({ spec: input.worker.spec, cwd: input.worker.cwd, args: [], cols: 120, rows: 40, labels: parent ? { 'specterm.parent': parent.id } : {} })).id);
    if (parent && worker.id === parent.id) throw new DaemonError('COMMAND_REFUSED', `session ${parent.id} cannot be given its own task; name another worker`, { path: '/worker' });
    const now = this.#d.now();
    const task: Task = {
      id: `t_${randomBytes(6).toString('base64url')}`, node: this.#d.node, text: input.text, parent_session_id: parent?.id ?? null, requested_by: requestedBy,
      worker_session_id: worker.id, status: 'queued', result: null, reason: null, timeout_ms: input.timeout_ms, created_at: now, updated_at: now,
    };
    // Stored before it is answered: a full disk refuses the request (507) rather than losing the task.
    this.#d.store.tasks.put(task);
    this.#save(task);
    void this.#run(task, worker, parent).catch((error: unknown) => this.#update(task, { status: 'failed', reason: (error as Error).message }));
    return task;
  }

  get(id: string): Task {
    const task = this.#d.store.tasks.get(id);
    if (!task) throw new DaemonError('TASK_NOT_FOUND', `no task has id '${id}'; list_tasks (GET /api/v1/tasks) lists them`, { path: '/id' });
    return task;
  }

  list(): Task[] {
    return this.#d.store.tasks.list();
  }

  /** Stops following a task (what the worker already does goes on; interrupt it on its session). */
  cancel(id: string): Task {
    const task = this.get(id);
    if (FINISHED.includes(task.status)) return task;
    this.#cancelled.add(id);
    return this.#update(task, { status: 'cancelled', reason: 'cancelled by request' });
  }

  async #run(task: Task, worker: ManagedSession, parent: ManagedSession | null): Promise<void> {
    const deadline = task.created_at + task.timeout_ms;
    const gone = () => this.#cancelled.has(task.id);
    const ready = await this.#idle(worker, deadline, gone);
    if (ready !== 'idle') return this.#endWait(task, ready, 'before it took the task');
    task = this.#update(task, { status: 'running' });
    const outcome = await deliverMessage(worker, this.#d.store, { text: task.text, wait: 'idle', timeout_ms: Math.max(1_000, Math.min(600_000, deadline - Date.now())) }, this.#d.now);
    if (gone()) return;
    if (outcome.delivery === 'refused') return this.#endUnlessCancelled(task, 'failed', outcome.reason ?? 'the worker refused the message');
    if (outcome.delivery === 'blocked') {
      task = this.#update(task, { status: 'waiting_for_person', reason: outcome.reason });
      const answered = await this.#idle(worker, deadline, gone);
      if (answered !== 'idle') return this.#endWait(task, answered, 'while it waited for a person');
    } else if (outcome.delivery !== 'idle') {
      const finished = await this.#idle(worker, deadline, gone);
      if (finished !== 'idle') return this.#endWait(task, finished, 'before it finished');
    }
    const answer = this.#d.transcripts.lastAnswer(worker.id);
    const result = { text: answer?.text ?? '', tool_calls: answer?.turn.items.filter((i) => i.kind === 'tool_call').length ?? 0 };
    task = this.#update(task, { status: 'done', result, reason: null });
    if (parent) await this.#report(task, parent, worker, deadline + task.timeout_ms);
  }

  /** Types the result into the session that asked, once it is idle (its agent is not interrupted mid-turn). */
  async #report(task: Task, parent: ManagedSession, worker: ManagedSession, deadline: number): Promise<void> {
    if ((await this.#idle(parent, deadline, () => false)) !== 'idle') return this.#d.log('warn', `task ${task.id}: ${parent.id} was never idle to take the result`);
    const text = `[specterm task ${task.id} done by ${worker.record.name ?? worker.id}] ${task.result?.text ?? ''}`.replace(/\s+/g, ' ').trim();
    await deliverMessage(parent, this.#d.store, { text: text.slice(0, 100_000), wait: 'accepted' }, this.#d.now);
  }

  /** Waits until `session` is idle with no prompt up; otherwise says what ended the wait. */
  async #idle(session: ManagedSession, deadline: number, cancelled: () => boolean): Promise<'idle' | 'deadline' | 'exited' | 'cancelled'> {
    for (;;) {
      if (cancelled()) return 'cancelled';
      if (!session.isRunning) return 'exited';
      if (session.stateView()?.status === 'idle' && !session.modalView()) return 'idle';
      if (Date.now() > deadline) return 'deadline';
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Ends a task whose wait for `what` ended otherwise than idle. */
  #endWait(task: Task, ended: 'deadline' | 'exited' | 'cancelled', what: string): void {
    if (ended === 'cancelled') return;
    if (ended === 'exited') this.#update(task, { status: 'failed', reason: `the worker session ${task.worker_session_id} ended ${what}` });
    else this.#update(task, { status: 'timed_out', reason: `${what}: not within ${task.timeout_ms} ms` });
  }

  #endUnlessCancelled(task: Task, status: TaskStatus, reason: string): void {
    if (this.#cancelled.has(task.id)) return;
    this.#update(task, { status, reason });
  }

  #update(task: Task, change: Partial<Task>): Task {
    const next = { ...task, ...change, updated_at: this.#d.now() };
    this.#save(next);
    return next;
  }

  #save(task: Task): void {
    try {
      this.#d.store.tasks.put(task);
      this.#d.events.append({ type: 'task.updated', session_id: task.worker_session_id ?? task.parent_session_id ?? 'none', at: this.#d.now(), task });
    } catch (error) {
      // Called from a task's own course too (no caller to answer): a full disk is logged, never fatal.
      this.#d.log('warn', `task ${task.id} (${task.status}) not stored: ${(error as Error).message}`);
    }
  }
}
