import { beforeEach, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../protocol/events.js';
import type { Task } from '../protocol/tasks.js';
import { noteTaskEvent, tasks } from './tasks-live.js';

const task = (id: string, status: Task['status'], updatedAt: number): Task => ({
  id, text: 'do it', parent_session_id: null, requested_by: 'admin', worker_session_id: 's_w', status,
  result: null, reason: null, timeout_ms: 60_000, created_at: 1_000, updated_at: updatedAt,
});
const updated = (t: Task): DaemonEvent => ({ type: 'task.updated', seq: 1, session_id: 's_w', at: t.updated_at, task: t }) as DaemonEvent;

describe('noteTaskEvent', () => {
  beforeEach(() => { tasks.value = null; });

  it('replaces the one task an event carries and adds one not seen yet', () => {
    tasks.value = new Map([['t_a', task('t_a', 'queued', 1_000)], ['t_b', task('t_b', 'done', 1_000)]]);
    const before = tasks.value.get('t_b');
    noteTaskEvent(updated(task('t_a', 'running', 2_000)));
    noteTaskEvent(updated(task('t_c', 'queued', 2_000)));
    expect(tasks.value.get('t_a')!.status).toBe('running');
    expect(tasks.value.get('t_c')!.status).toBe('queued');
    expect(tasks.value.get('t_b')).toBe(before);
  });

  it('keeps a newer task over an older event (a replayed backlog)', () => {
    tasks.value = new Map([['t_a', task('t_a', 'done', 5_000)]]);
    noteTaskEvent(updated(task('t_a', 'running', 2_000)));
    expect(tasks.value.get('t_a')!.status).toBe('done');
  });

  it('waits for the list: before it was read, events change nothing', () => {
    noteTaskEvent(updated(task('t_a', 'running', 2_000)));
    expect(tasks.value).toBeNull();
  });

  it('ignores other events', () => {
    tasks.value = new Map();
    const before = tasks.value;
    noteTaskEvent({ type: 'turn.finished', seq: 2, session_id: 's_w', at: 1, duration_ms: 5 } as DaemonEvent);
    expect(tasks.value).toBe(before);
  });
});
