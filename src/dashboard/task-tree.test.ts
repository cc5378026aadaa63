import { describe, expect, it } from 'vitest';
import type { Task } from '../protocol/tasks.js';
import { buildTaskTree, isTaskOpen, type TaskNode } from './task-tree.js';

let clock = 1_000;
function task(id: string, parent: string | null, worker: string | null, extra: Partial<Task> = {}): Task {
  clock += 1_000;
  return {
    id, text: `do ${id}`, parent_session_id: parent, requested_by: 'admin', worker_session_id: worker, status: 'running',
    result: null, reason: null, timeout_ms: 60_000, created_at: clock, updated_at: clock, ...extra,
  };
}
/** The tree as nested ids, to compare at a glance. */
const shape = (nodes: readonly TaskNode[]): unknown[] => nodes.map((n) => (n.children.length === 0 ? n.task.id : [n.task.id, shape(n.children)]));

describe('buildTaskTree', () => {
  it('makes a task asked by a person, or by a session that works on no task, a root, newest first', () => {
    const a = task('a', null, 's1');
    const b = task('b', 's9', 's2');
    expect(shape(buildTaskTree([a, b]))).toEqual(['b', 'a']);
  });

  it('nests a task under the task its asker works on, children oldest first, at any depth', () => {
    const root = task('root', null, 'w1');
    const c1 = task('c1', 'w1', 'w2');
    const c2 = task('c2', 'w1', 'w3');
    const grandchild = task('g', 'w2', 'w4');
    // The list comes newest first from the daemon: order in the input does not matter.
    expect(shape(buildTaskTree([grandchild, c2, c1, root]))).toEqual([['root', [['c1', ['g']], 'c2']]]);
  });

  it('nests under the latest task the asker took before asking, not one it took later', () => {
    const first = task('first', null, 'w1');
    const asked = task('asked', 'w1', 'w2');
    const later = task('later', null, 'w1');
    expect(shape(buildTaskTree([first, asked, later]))).toEqual(['later', ['first', ['asked']]]);
  });

  it('keeps a task whose worker is its own asker\'s ancestor from looping: a cycle becomes a root', () => {
    // s1 works on x, asked by s2; s2 works on y, asked by s1: each would nest under the other.
    // Made in the same millisecond, neither is older: the guard, not the times, breaks the loop.
    const x = task('x', 's2', 's1');
    const y = task('y', 's1', 's2', { created_at: x.created_at });
    const tree = buildTaskTree([x, y]);
    const ids = JSON.stringify(shape(tree));
    expect(ids.match(/"x"/g)).toHaveLength(1);
    expect(ids.match(/"y"/g)).toHaveLength(1);
    expect(tree).toHaveLength(1);
  });

  it('lists every task exactly once, a task without a worker included', () => {
    const tasks = [task('p', null, null), task('q', null, 'w'), task('r', 'w', 'v'), task('s', 'v', 'w')];
    const seen: string[] = [];
    const walk = (nodes: readonly TaskNode[]) => { for (const n of nodes) { seen.push(n.task.id); walk(n.children); } };
    walk(buildTaskTree(tasks));
    expect(seen.sort()).toEqual(['p', 'q', 'r', 's']);
  });

  it('answers an empty list with an empty tree', () => {
    expect(buildTaskTree([])).toEqual([]);
  });
});

describe('isTaskOpen', () => {
  it('is true while the task can still be cancelled', () => {
    expect(['queued', 'running', 'waiting_for_person'].map((s) => isTaskOpen(task('t', null, 'w', { status: s as Task['status'] })))).toEqual([true, true, true]);
    expect(['done', 'failed', 'cancelled', 'timed_out'].map((s) => isTaskOpen(task('t', null, 'w', { status: s as Task['status'] })))).toEqual([false, false, false, false]);
  });
});
