/**
 * The event streams: `GET /api/v1/events` (SSE, resume with `Last-Event-ID`) and the WebSocket
 * topics `sessions` (every event) and `session/<id>` (one session's), each with `since`.
 * `terminal/<id>` topics go to the injected terminal handler (the terminal stream module).
 * @module
 */
import { SpectermError, type DaemonEvent } from '../../protocol/index.js';
import type { SseHandler, WsHandlers } from '../contracts.js';
import type { EventLog } from '../../daemon/event-log.js';
import type { SessionManager } from '../../daemon/session-manager.js';

/**
 * The events of the session a client names, or a refusal when there is no such session: a
 * daemon's own sessions by id (`localSessionFilter`); a hub's by node and id.
 */
export type SessionFilter = (ref: string) => { sessionId: string; matches: (event: DaemonEvent) => boolean };

export const localSessionFilter = (manager: Pick<SessionManager, 'get'>): SessionFilter => (sessionId) => {
  manager.get(sessionId);
  return { sessionId, matches: (event) => event.session_id === sessionId };
};

export const eventsRoute = (events: EventLog, sessions: SessionFilter): SseHandler => (input, _ctx, sink) => {
  const filter = input.query.session_id === undefined ? undefined : sessions(input.query.session_id);
  const sessionId = filter?.sessionId;
  let last = events.resumePoint(input.since ?? input.query.since ?? 0);
  const forward = (event: Parameters<Parameters<EventLog['subscribe']>[0]>[0]) => {
    if (sink.closed || event.seq <= last || (filter && !filter.matches(event))) return;
    last = event.seq;
    sink.send(event);
  };
  const unsubscribe = events.subscribe(forward);
  for (const event of events.since(last, sessionId)) forward(event);
  return unsubscribe;
};

export function eventTopics(events: EventLog, sessions: SessionFilter, terminalTopic: WsHandlers['subscribe'] | undefined): WsHandlers['subscribe'] {
  return (message, ctx, sink) => {
    const topic = message.topic;
    if (topic.startsWith('terminal/')) {
      if (!terminalTopic) throw new SpectermError({ code: 'TOPIC_UNAVAILABLE', title: 'Topic not served', detail: 'terminal topics are not served by this daemon build yet' });
      return terminalTopic(message, ctx, sink);
    }
    // `transcript/<id>`: the session's `transcript.turn` events only (each turn as it grows).
    const transcriptOnly = topic.startsWith('transcript/');
    const ref = topic.startsWith('session/') || transcriptOnly ? topic.slice(topic.indexOf('/') + 1) : undefined;
    const filter = ref === undefined ? undefined : sessions(ref);
    const sessionId = filter?.sessionId;
    const from = events.resumePoint(message.since ?? 0);
    let last = from;
    // Until the backlog has gone out, live events wait in the log: they are part of the replay.
    let replayed = false;
    const forward = (event: Parameters<Parameters<EventLog['subscribe']>[0]>[0]) => {
      if (event.seq <= last || (filter && !filter.matches(event)) || (transcriptOnly && event.type !== 'transcript.turn')) return;
      last = event.seq;
      sink.send({ type: 'event', topic, event });
    };
    const unsubscribe = events.subscribe((event) => { if (replayed) forward(event); });
    // Subscribed first, then the backlog: the hub sends `subscribed` before our first event.
    queueMicrotask(() => {
      for (const event of events.since(from, sessionId)) forward(event);
      replayed = true;
    });
    return { dispose: unsubscribe };
  };
}
