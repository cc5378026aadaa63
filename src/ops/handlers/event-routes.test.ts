import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../protocol/index.js';
import type { WsSink } from '../contracts.js';
import { ADMIN_PRINCIPAL } from '../principal.js';
import { EventLog } from '../../daemon/event-log.js';
import { eventTopics, type SessionFilter } from './event-routes.js';

const exited = (session: string) => ({ at: 1, session_id: session, type: 'session.exited' as const, code: 0, signal: null });

describe('the sessions topic over the WebSocket', () => {
  it('replays the whole backlog even when a live event lands before the replay runs (no event lost)', async () => {
    const events = new EventLog();
    events.append(exited('a'));
    events.append(exited('b'));
    const sent: ServerMessage[] = [];
    const sink: WsSink = { send: (m) => sent.push(m), sendTerminal: () => {}, bufferedBytes: 0 };
    // The sessions topic never looks a session up: no session filter is needed for it.
    const subscribe = eventTopics(events, undefined as unknown as SessionFilter, undefined)!;
    const subscription = subscribe({ type: 'subscribe', topic: 'sessions', since: 0 }, { principal: ADMIN_PRINCIPAL, requestId: 'r', remoteAddress: '127.0.0.1' }, sink);
    // Synchronously after subscribing, before the backlog's microtask (a driver commit can do this).
    events.append(exited('c'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    events.append(exited('d'));
    expect(sent.map((m) => m.type === 'event' ? m.event.session_id : m.type)).toEqual(['a', 'b', 'c', 'd']);
    (subscription as { dispose(): void }).dispose();
  });
});
