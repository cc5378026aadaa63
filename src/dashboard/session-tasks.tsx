/**
 * A session page's "Tasks" line: the tasks the session works on and the ones it asked for, each
 * with its status and the start of its text, linked to its row in the task tree (`/tasks#task-<id>`).
 * Nothing when the session has none. Live with the tasks store (tasks-live.ts).
 */
import { Fragment } from 'preact';
import { useEffect } from 'preact/hooks';
import type { Task } from '../protocol/tasks.js';
import { navigate } from './state.js';
import { TASK_STATUS_TEXT } from './task-tree.js';
import { loadTasks, tasks } from './tasks-live.js';

/** A few per kind: the tree has the rest. */
const SHOWN = 3;

function TaskLinks(props: { label: string; list: readonly Task[] }) {
  if (props.list.length === 0) return null;
  return (
    <span class="session-tasks-kind">
      {props.label}:{' '}
      {props.list.slice(0, SHOWN).map((t, i) => {
        const href = `/tasks#task-${t.id}`;
        const text = t.text.length > 40 ? `${t.text.slice(0, 40)}…` : t.text;
        return <Fragment key={t.id}>{i > 0 && ', '}<a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>{text}</a> ({TASK_STATUS_TEXT[t.status]})</Fragment>;
      })}
      {props.list.length > SHOWN && ` and ${props.list.length - SHOWN} more`}
    </span>
  );
}

export function SessionTasks(props: { sessionId: string }) {
  useEffect(() => { if (tasks.value === null) void loadTasks(); }, []);
  const all = [...(tasks.value?.values() ?? [])].sort((a, b) => b.created_at - a.created_at);
  const works = all.filter((t) => t.worker_session_id === props.sessionId);
  const asked = all.filter((t) => t.parent_session_id === props.sessionId);
  if (works.length === 0 && asked.length === 0) return null;
  return (
    <p class="session-tasks">
      <a href="/tasks" onClick={(e) => { e.preventDefault(); navigate('/tasks'); }}>Tasks</a>
      {' · '}<TaskLinks label="works on" list={works} />
      {works.length > 0 && asked.length > 0 && ' · '}<TaskLinks label="asked for" list={asked} />
    </p>
  );
}
