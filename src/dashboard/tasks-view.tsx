/**
 * Tasks (`/tasks`, a lazy chunk): the tree of who asked whom for what (task-tree.ts). Each row:
 * the status as a word and a symbol (never colour alone), the task's text on one line (all of it
 * when opened), asker → worker (links to the sessions), how long ago it was asked and how long it
 * ran, the result (collapsed, through the safe markdown renderer), the worker's live state and its
 * pending prompt — answered in place or in the inbox — and, while the task is followed, a Cancel
 * that asks first and shows the daemon's answer. Live from `task.updated` (tasks-live.ts) and the
 * session list the shell keeps current.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { SessionDetail } from '../protocol/sessions.js';
import type { Task, TaskStatus } from '../protocol/tasks.js';
import { scopeAllows } from '../protocol/scopes.js';
import { call } from './api-client.js';
import { badgeOf, durationLabel, isOpenedByPerson } from './attention.js';
import { renderMarkdown } from './markdown.js';
import { SessionPrompt } from './session-prompt.js';
import { BADGE_TEXT, useNow } from './sessions-overview.js';
import { navigate, scope, sessions } from './state.js';
import { buildTaskTree, isTaskOpen, TASK_STATUS_TEXT, type TaskNode } from './task-tree.js';
import { loadTasks, tasks, tasksError } from './tasks-live.js';

/** Each status's symbol: decoration beside its words (TASK_STATUS_TEXT), which are what is read. */
const STATUS_SYMBOL: Record<TaskStatus, string> = { queued: '…', running: '▶', waiting_for_person: '!', done: '✓', failed: '✗', cancelled: '■', timed_out: '⌛' };

function SessionLink(props: { id: string; byId: ReadonlyMap<string, SessionDetail> }) {
  const href = `/sessions/${encodeURIComponent(props.id)}`;
  const name = props.byId.get(props.id)?.name ?? props.id;
  return <a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>{name}</a>;
}

/**
 * The worker's state now and, while the task is followed, the prompt it waits on (answered here,
 * or in the inbox); a finished task's worker may be on other work, whose prompts are not this task's.
 */
function WorkerState(props: { session: SessionDetail | undefined; isFollowed: boolean }) {
  const s = props.session;
  if (s === undefined) return <span class="muted">worker removed</span>;
  const badge = badgeOf(s);
  const pending = props.isFollowed && s.modal !== null && !isOpenedByPerson(s.modal) ? 1 : 0;
  return (
    <>
      <span class="task-worker-state">worker <span class={`badge badge-${badge}`}>{BADGE_TEXT[badge]}</span></span>
      {pending > 0 && (
        <div class="task-approvals">
          <span>{pending} pending approval · <a href="/inbox" onClick={(e) => { e.preventDefault(); navigate('/inbox'); }}>answer in the inbox</a></span>
          <SessionPrompt session={s} canAnswer={scope.value !== null && scopeAllows(scope.value, 'approve')} compact />
        </div>
      )}
    </>
  );
}

/** Cancel, after a confirmation, with the daemon's answer. */
function CancelTask(props: { task: Task }) {
  const confirming = useSignal(false);
  const answer = useSignal<{ ok: boolean; text: string } | null>(null);
  const cancel = async () => {
    confirming.value = false;
    try {
      const task = await call('cancelTask', { params: { id: props.task.id } });
      answer.value = { ok: true, text: `The daemon answered: ${TASK_STATUS_TEXT[task.status]}${task.reason ? ` (${task.reason})` : ''}.` };
    } catch (e) {
      answer.value = { ok: false, text: `Not cancelled: ${e instanceof Error ? e.message : String(e)}` };
    }
  };
  const open = isTaskOpen(props.task);
  return (
    <div class="task-cancel">
      {open && (confirming.value ? (
        <>
          <span>Stop following this task? The worker's turn itself goes on.</span>
          <button type="button" class="danger" onClick={() => void cancel()}>Confirm cancel</button>
          <button type="button" onClick={() => { confirming.value = false; }}>Keep it</button>
        </>
      ) : <button type="button" aria-label={`Cancel task ${props.task.id}`} onClick={() => { confirming.value = true; answer.value = null; }}>Cancel task</button>)}
      {answer.value && <p class={answer.value.ok ? 'task-answer' : 'problem'} role={answer.value.ok ? 'status' : 'alert'}>{answer.value.text}</p>}
    </div>
  );
}

function TaskRow(props: { node: TaskNode; byId: ReadonlyMap<string, SessionDetail>; now: number; canCancel: boolean; targetId: string | null }) {
  const { task, children } = props.node;
  const worker = task.worker_session_id;
  const ranMs = (isTaskOpen(task) ? props.now : task.updated_at) - task.created_at;
  return (
    <li class={`task${props.targetId === task.id ? ' task-target' : ''}`} id={`task-${task.id}`} data-task-id={task.id} data-status={task.status}>
      <div class="task-row">
        <span class={`badge task-status task-status-${task.status}`}><span aria-hidden="true">{STATUS_SYMBOL[task.status]} </span>{TASK_STATUS_TEXT[task.status]}</span>
        <details class="task-text">
          <summary><span class="task-line">{task.text}</span></summary>
        </details>
        <p class="task-who">
          {task.parent_session_id !== null ? <SessionLink id={task.parent_session_id} byId={props.byId} /> : <span>{task.requested_by}</span>}
          <span aria-hidden="true"> → </span><span class="visually-hidden"> asked </span>
          {worker !== null ? <SessionLink id={worker} byId={props.byId} /> : <span class="muted">no worker</span>}
          <span class="muted"> · asked {durationLabel(props.now - task.created_at)} ago · {isTaskOpen(task) ? 'for' : 'took'} {durationLabel(ranMs)}</span>
        </p>
        {worker !== null && <div class="task-worker"><WorkerState session={props.byId.get(worker)} isFollowed={isTaskOpen(task)} /></div>}
        {task.reason !== null && task.status !== 'done' && <p class="task-reason">{task.reason}</p>}
        {task.result !== null && (
          <details class="task-result">
            <summary>Result{task.result.tool_calls > 0 ? ` · ${task.result.tool_calls} tool call${task.result.tool_calls === 1 ? '' : 's'}` : ''}</summary>
            <div class="task-result-text">{task.result.text === '' ? <p class="muted">(no answer text)</p> : renderMarkdown(task.result.text)}</div>
          </details>
        )}
        {props.canCancel && <CancelTask task={task} />}
      </div>
      {children.length > 0 && (
        <ol class="task-children" aria-label={`asked by the worker of ${task.id}`}>
          {children.map((c) => <TaskRow key={c.task.id} node={c} byId={props.byId} now={props.now} canCancel={props.canCancel} targetId={props.targetId} />)}
        </ol>
      )}
    </li>
  );
}

export default function TasksView() {
  const now = useNow(1_000);
  useEffect(() => { if (tasks.value === null) void loadTasks(); }, []);
  const list = tasks.value;
  const byId = new Map((sessions.value ?? []).map((s) => [s.id, s]));
  const canCancel = scope.value !== null && scopeAllows(scope.value, 'input');
  const tree = list === null ? null : buildTaskTree([...list.values()]);
  // `/tasks#task-<id>` (a session page's Tasks line): that row is marked and scrolled to once shown.
  const targetId = /^#task-(.+)$/.exec(location.hash)?.[1] ?? null;
  const shown = tree !== null;
  useEffect(() => { if (shown && targetId !== null) document.getElementById(`task-${targetId}`)?.scrollIntoView({ block: 'center' }); }, [shown, targetId]);
  return (
    <section class="tasks-view" data-view="tasks" aria-labelledby="tasks-title">
      <h2 id="tasks-title">Tasks</h2>
      {tasksError.value !== null && <div class="problem" role="alert"><p>The tasks could not be read: {tasksError.value}</p><button type="button" onClick={() => void loadTasks()}>Retry</button></div>}
      {tree === null && tasksError.value === null && <p role="status">Loading the tasks…</p>}
      {tree !== null && tree.length === 0 && <p class="empty">No tasks yet: an agent's <code>assign</code> or <code>handoff</code> (specterm mcp), or <code>POST /api/v1/tasks</code>, makes one.</p>}
      {tree !== null && tree.length > 0 && (
        <ol class="task-tree" aria-label="Tasks, newest first; each task's own requests nested under it">
          {tree.map((n) => <TaskRow key={n.task.id} node={n} byId={byId} now={now} canCancel={canCancel} targetId={targetId} />)}
        </ol>
      )}
    </section>
  );
}
