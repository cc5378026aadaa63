/**
 * The tasks the dashboard knows, kept live cheaply: the list is read once (when the Tasks view or
 * a session's task line first needs it), after that each `task.updated` event on the `sessions`
 * topic carries the whole task and replaces that one entry — never a reload per event. A
 * reconnect reads the list again (events missed while away are not replayed to this store).
 * @module
 */
import { signal } from '@preact/signals';
import type { DaemonEvent } from '../protocol/events.js';
import type { Task } from '../protocol/tasks.js';
import { call } from './api-client.js';

/** Every task by id; null until the first read answered. */
export const tasks = signal<ReadonlyMap<string, Task> | null>(null);
export const tasksError = signal<string | null>(null);

let reading: Promise<void> | null = null;

/** Reads the whole list (once at a time); events that arrived meanwhile are kept if newer. */
export function loadTasks(): Promise<void> {
  reading ??= call('listTasks')
    .then((answer) => {
      const next = new Map(answer.tasks.map((t) => [t.id, t]));
      for (const [id, known] of tasks.value ?? []) {
        const read = next.get(id);
        if (read === undefined || read.updated_at < known.updated_at) next.set(id, known);
      }
      tasks.value = next;
      tasksError.value = null;
    }, (error: Error) => { tasksError.value = error.message; })
    .finally(() => { reading = null; });
  return reading;
}

/** An event of the `sessions` topic: a `task.updated` replaces its task once the list was read. */
export function noteTaskEvent(event: DaemonEvent): void {
  if (event.type !== 'task.updated' || tasks.value === null) return;
  const known = tasks.value.get(event.task.id);
  if (known !== undefined && known.updated_at > event.task.updated_at) return;
  tasks.value = new Map(tasks.value).set(event.task.id, event.task);
}
