/**
 * A session's notices: the events that tell a person something happened to it (an approval
 * asked or answered, a turn finished, an exit, an error), and their words. The daemon keeps each
 * session's last one in its list (`last_notice`), so a page that opens later shows it without
 * reading the event history; the dashboard words live notices the same way.
 * Plain code, no schema: the dashboard's first bundle imports it.
 * @module
 */
import type { DaemonEvent } from './events.js';
import { describeStillRunning } from './still-running.js';

/** The words a notice shows in a session's row ("Last: …"); null for an event that is not one. */
export function noticeText(event: DaemonEvent): string | null {
  switch (event.type) {
    case 'approval.needed': return `approval needed: ${event.approval.title ?? 'a modal is up'}`;
    case 'approval.answered': return `answered "${event.button}" (${event.by})`;
    case 'turn.finished': return `turn finished in ${Math.round(event.duration_ms / 1000)} s${describeStillRunning(event.state)}`;
    case 'session.exited':
      if (event.killed_by) return `killed by ${event.killed_by.name}`;
      return event.signal ? `exited on ${event.signal}` : `exited with code ${event.code ?? '?'}`;
    case 'session.error': return `error: ${event.message}`;
    case 'spec.error': return `spec error: ${event.errors[0] ?? 'invalid'}`;
    default: return null;
  }
}
