/**
 * Tasks handed between sessions (`assign`): stored, evented (`task.updated`), and run here, in
 * the daemon, so a task outlives the MCP server that asked for it. A task waits for its worker
 * to be idle, types its text, follows the turn — through any prompt a person must answer
 * (`waiting_for_person`) — reads the answer from the worker's transcript, and, when a session
 * asked, types the result into that session once it is idle. A task never goes to the session
 * that asked for it, nor to one that waits on it (./orchestration.ts). A spec's delegate trigger
 * becomes a task here too, routed by settings.json `orchestration.delegate_routes`.
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
import { answerTo, type SessionTranscripts } from './session-transcripts.js';
import { lineageOf, PARENT_LABEL, refuseCycle, routeOf, type OrchestrationSettings } from './orchestration.js';

export interface CreateTaskInput {
  text: string;
  worker: { session: string } | { spec: string; cwd: string; worktree_branch?: string };
  parent_session_id?: string;
  timeout_ms: number;
}

/** Who asked: a token's name, the agent session it acts for (declared by its MCP server), or a delegate trigger. */
export interface TaskOrigin { requestedBy: string; callerSession?: string; trigger?: string }

/** A delegated task's timeout when its route names none. */
const DELEGATE_TIMEOUT_MS = 30 * 60 * 1000;

const POLL_MS = 250;

export interface TaskRunnerDeps {
  manager: () => SessionManager;
  store: Store;
  events: EventLog;
  transcripts: SessionTranscripts;
  /** settings.json `orchestration.delegate_routes`. */
  routes?: OrchestrationSettings['delegate_routes'];
  now: () => number;
  node: string;
  log: (level: 'info' | 'warn', message: string) => void;
}
const FINISHED: readonly TaskStatus[] = ['done', 'failed', 'cancelled', 'timed_out'];

export class TaskRunner {
  readonly #d: TaskRunnerDeps;
  readonly #cancelled = new Set<string>();
  /**
   * Each worker's tasks, one after the other in the order given: two turns typed into one CLI at
   * once would end together, and each task would read the other's answer.
   */
  readonly #lanes = new Map<string, Promise<void>>();

  constructor(deps: TaskRunnerDeps) {
    this.#d = deps;
    // A task the last daemon left unfinished cannot be followed any more: say so.
    for (const task of deps.store.tasks.list()) {
      if (!FINISHED.includes(task.status)) this.#update(task, { status: 'failed', reason: 'the daemon restarted while the task ran; assign it again' });
    }
  }

  async create(input: CreateTaskInput, origin: TaskOrigin): Promise<Task> {
    const manager = this.#d.manager();
    const parent = this.#asker(input.parent_session_id, origin.callerSession);
    let worker: ManagedSession;
    if ('session' in input.worker) {
      worker = manager.get(input.worker.session);
      if (parent) refuseCycle(lineageOf(parent), lineageOf(worker), manager.lineage());
    } else {
      const { spec, cwd, worktree_branch: branch } = input.worker;
      // A new child of the asker: the session manager counts its depth and the asker's children.
      const labels: Record<string, string> = parent ? { [PARENT_LABEL]: parent.id } : {};
      worker = manager.get((await manager.create({ spec, cwd, args: [], cols: 120, rows: 40, labels, ...(branch ? { worktree: { branch } } : {}) })).id);
    }
    const now = this.#d.now();
    const task: Task = {
      id: `t_${randomBytes(6).toString('base64url')}`, node: this.#d.node, text: input.text, parent_session_id: parent?.id ?? null, requested_by: origin.requestedBy,
      ...(origin.trigger ? { trigger: origin.trigger } : {}),
      worker_session_id: worker.id, status: 'queued', result: null, reason: null, timeout_ms: input.timeout_ms, created_at: now, updated_at: now,
    };
    // Stored before it is answered: a full disk refuses the request (507) rather than losing the task.
    this.#d.store.tasks.put(task);
    this.#save(task);
    const run = () => this.#run(task, worker, parent).catch((error: unknown) => { this.#update(task, { status: 'failed', reason: (error as Error).message }); });
    const lane = (this.#lanes.get(worker.id) ?? Promise.resolve()).then(run);
    this.#lanes.set(worker.id, lane);
    void lane.then(() => { if (this.#lanes.get(worker.id) === lane) this.#lanes.delete(worker.id); });
    return task;
  }

  /** The session that asks: the one named, which must be the calling agent's own when one calls. */
  #asker(named: string | undefined, caller: string | undefined): ManagedSession | null {
    if (named !== undefined && caller !== undefined && named !== caller) {
      throw new DaemonError('CALLER_INVALID', `parent_session_id ${named} is not the calling agent's session ${caller}; an agent asks for itself only — leave parent_session_id out`, { path: '/parent_session_id' });
    }
    const id = named ?? caller;
    if (id === undefined) return null;
    try {
      return this.#d.manager().get(id);
    } catch {
      throw new DaemonError('CALLER_INVALID', `the asking session ${JSON.stringify(id)} is not one of this daemon's sessions; name a session it runs, or leave parent_session_id out`, { path: '/parent_session_id' });
    }
  }

  /**
   * A spec's delegate trigger fired on `session`: its task goes where the settings route it —
   * once per visit of the trigger's state (a re-emit in the same state re-arms the trigger).
   * `{last_message}` in the task becomes the session's last message (what it could not finish).
   */
  async delegate(session: ManagedSession, trigger: string, template: string): Promise<Task | null> {
    const route = routeOf({ delegate_routes: this.#d.routes ?? {} }, session.record.specId, trigger);
    if (!route) {
      this.#d.log('info', `session ${session.id}: its spec's delegate trigger '${trigger}' fired, but settings.json orchestration.delegate_routes names no route for it; nothing was handed off`);
      return null;
    }
    if (this.list().some((t) => t.trigger === trigger && t.parent_session_id === session.id && t.created_at >= (session.stateSince ?? 0))) return null;
    const text = template.replace(/\{last_message\}/g, this.#d.transcripts.lastMessage(session.id) ?? '').trim();
    const origin = { requestedBy: `delegate:${trigger}`, trigger };
    const worker = 'session' in route ? { session: route.session } : { spec: route.spec, cwd: route.cwd, ...(route.worktree_branch ? { worktree_branch: route.worktree_branch } : {}) };
    try {
      if (text === '') throw new Error(`the trigger's task is empty (session ${session.id} has no last message to hand off)`);
      return await this.create({ text, worker, parent_session_id: session.id, timeout_ms: route.timeout_ms ?? DELEGATE_TIMEOUT_MS }, origin);
    } catch (error) {
      // Shown where tasks are (the Tasks view, list_tasks): a handoff that could not start is not lost silently.
      const now = this.#d.now();
      const failed: Task = {
        id: `t_${randomBytes(6).toString('base64url')}`, node: this.#d.node, text: text || template, parent_session_id: session.id, requested_by: origin.requestedBy, trigger,
        worker_session_id: null, status: 'failed', result: null, reason: `the delegate route could not start: ${(error as Error).message}`, timeout_ms: route.timeout_ms ?? DELEGATE_TIMEOUT_MS, created_at: now, updated_at: now,
      };
      this.#save(failed);
      return failed;
    }
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
    // The answer to this task's own message (the worker's next turn may already have begun).
    const answer = await answerTo(this.#d.transcripts, worker.id, task.text);
    const result = { text: answer?.text ?? '', tool_calls: answer?.turn.items.filter((i) => i.kind === 'tool_call').length ?? 0 };
    task = this.#update(task, { status: 'done', result, reason: null });
    // A delegated task's asker is the session that could not go on (a usage limit): nothing is typed back.
    if (parent && !task.trigger) await this.#report(task, parent, worker, deadline + task.timeout_ms);
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
