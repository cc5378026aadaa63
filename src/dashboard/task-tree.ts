/**
 * The task tree of the Tasks view: who asked whom for what. A task asked by a person or a script,
 * or by a session that works on no task, is a root; a task a worker session asked for nests under
 * the task that session was working on when it asked (the latest one it took before; a session
 * reused for several tasks asks on behalf of the one it is on). Pure: the view and its tests feed
 * it the task list as the daemon serves it.
 * @module
 */
import type { Task } from '../protocol/tasks.js';

export interface TaskNode {
  task: Task;
  /** The tasks this task's worker asked for while on it, oldest first. */
  children: TaskNode[];
}

/** Each status in a person's words (the views show these, never the wire's ids). */
export const TASK_STATUS_TEXT: Record<Task['status'], string> = {
  queued: 'queued', running: 'running', waiting_for_person: 'waiting for a person', done: 'done', failed: 'failed', cancelled: 'cancelled', timed_out: 'timed out',
};

const OPEN: ReadonlySet<Task['status']> = new Set(['queued', 'running', 'waiting_for_person']);

/** Whether the task is still followed (and so can be cancelled). */
export function isTaskOpen(task: Task): boolean {
  return OPEN.has(task.status);
}

/** The task `task` was asked on behalf of: the latest its asker took before asking; null for a root. */
function findParentTask(task: Task, byWorker: ReadonlyMap<string, readonly Task[]>): Task | null {
  if (task.parent_session_id === null) return null;
  let parent: Task | null = null;
  for (const candidate of byWorker.get(task.parent_session_id) ?? []) {
    if (candidate.id === task.id || candidate.created_at > task.created_at) continue;
    if (parent === null || candidate.created_at >= parent.created_at) parent = candidate;
  }
  return parent;
}

/** Builds the forest from tasks in any order: roots newest first, each task exactly once. */
export function buildTaskTree(tasks: readonly Task[]): TaskNode[] {
  const byWorker = new Map<string, Task[]>();
  for (const task of tasks) {
    if (task.worker_session_id === null) continue;
    const list = byWorker.get(task.worker_session_id) ?? [];
    list.push(task);
    byWorker.set(task.worker_session_id, list);
  }
  const parentOf = new Map<string, string | null>(tasks.map((t) => [t.id, findParentTask(t, byWorker)?.id ?? null]));
  // Tasks with equal times could point at each other: a task whose ancestors lead back to it is a root.
  for (const task of tasks) {
    const seen = new Set([task.id]);
    for (let up = parentOf.get(task.id); up != null; up = parentOf.get(up)) {
      if (seen.has(up)) { parentOf.set(task.id, null); break; }
      seen.add(up);
    }
  }
  const nodes = new Map<string, TaskNode>(tasks.map((t) => [t.id, { task: t, children: [] }]));
  const roots: TaskNode[] = [];
  for (const node of nodes.values()) {
    const parentId = parentOf.get(node.task.id);
    if (parentId == null) roots.push(node);
    else nodes.get(parentId)!.children.push(node);
  }
  const oldestFirst = (a: TaskNode, b: TaskNode) => a.task.created_at - b.task.created_at || a.task.id.localeCompare(b.task.id);
  for (const node of nodes.values()) node.children.sort(oldestFirst);
  return roots.sort((a, b) => oldestFirst(b, a));
}
