/**
 * Each session's last notice (an approval asked or answered, a turn finished, an exit, an error),
 * kept from the event log so the session list carries it (`last_notice`). Before, a page learned
 * it by replaying the kept history (up to MAX_REPLAY_EVENTS, turns' text included) on every load:
 * megabytes to a phone for one line a session.
 * @module
 */
import type { DaemonEvent, LastNotice } from '../protocol/index.js';
import { noticeText } from '../protocol/notice-text.js';
import type { EventLog } from './event-log.js';

export class LastNotices {
  readonly #bySession = new Map<string, LastNotice>();
  readonly #unsubscribe: () => void;

  /** Reads the kept history once (a restarted daemon still knows them), then follows the log. */
  constructor(events: Pick<EventLog, 'since' | 'subscribe'>) {
    for (const event of events.since(0)) this.#note(event);
    this.#unsubscribe = events.subscribe((event) => this.#note(event));
  }

  /** The session's last notice, if the kept events hold one. */
  of(sessionId: string): LastNotice | undefined {
    return this.#bySession.get(sessionId);
  }

  dispose(): void {
    this.#unsubscribe();
    this.#bySession.clear();
  }

  #note(event: DaemonEvent): void {
    if (event.type === 'session.removed') {
      this.#bySession.delete(event.session_id);
      return;
    }
    // The log tells events in seq order, after the kept ones read above: the latest is the newest.
    const text = noticeText(event);
    if (text === null) return;
    this.#bySession.set(event.session_id, { seq: event.seq, type: event.type, at: event.at, text });
  }
}
