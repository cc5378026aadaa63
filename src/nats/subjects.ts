/**
 * Where a node's traffic lives on NATS. Every subject carries the node, so subject permissions
 * can let a node publish only as itself and take commands only for itself (docs/fleet.md):
 *
 * - `specterm.<node>.events.<session>` — the node's events, captured by the stream `SPECTERM_EVENTS`;
 * - `specterm.<node>.ops` — operations by request/reply (the operations layer's executor answers);
 * - `specterm.<node>.topics` — opens a topic subscription (a terminal); its messages go to the
 *   request's reply inbox, and `specterm.<node>.topic.<subscription>` takes its acks,
 *   keepalives, resyncs and close (./topic-bridge.ts);
 * - the KV bucket `specterm_presence`, key `<node>` — who is up, with which sessions and states.
 * @module
 */
export const EVENTS_STREAM = 'SPECTERM_EVENTS';
export const PRESENCE_BUCKET = 'specterm_presence';

export function eventSubject(node: string, sessionId: string): string {
  return `specterm.${node}.events.${sessionId}`;
}

/** Every node's events (the stream's filter); `node` narrows it to one. */
export function eventsFilter(node = '*'): string {
  return `specterm.${node}.events.>`;
}

export function opsSubject(node: string): string {
  return `specterm.${node}.ops`;
}

/** Where a subscriber opens a topic subscription on `node`. */
export function topicsSubject(node: string): string {
  return `specterm.${node}.topics`;
}

/** Where the subscriber of one subscription sends its acks, keepalives, resyncs and close. */
export function topicControlSubject(node: string, subscription: string): string {
  return `specterm.${node}.topic.${subscription}`;
}

/**
 * Where `node` streams one subscription's messages: under its own subjects (its NATS permissions
 * let it publish nowhere else), at a name the subscriber picked and listens on before it asks.
 */
export function topicDeliverSubject(node: string, name: string): string {
  return `specterm.${node}.topic-out.${name}`;
}

/** Whether `subject` is one of `node`'s delivery subjects (a name of 8–64 letters, digits, _ or -). */
export function isTopicDeliverSubject(node: string, subject: string): boolean {
  const prefix = `specterm.${node}.topic-out.`;
  return subject.startsWith(prefix) && /^[A-Za-z0-9_-]{8,64}$/.test(subject.slice(prefix.length));
}

/** Every subscription's control subject on `node` (the node listens on it). */
export function topicControlFilter(node: string): string {
  return `specterm.${node}.topic.*`;
}

/**
 * Where a node asks JetStream for the last event it has of that node (a direct get by subject:
 * the reply is the message itself, 404 when there is none). Only the node's own subjects, so a
 * node's permission to ask reads no other node's events.
 */
export function lastEventSubject(node: string): string {
  return `$JS.API.DIRECT.GET.${EVENTS_STREAM}.${eventsFilter(node)}`;
}

/** The JetStream message id of a node's event: publishing it twice stores it once. */
export function eventMessageId(node: string, seq: number): string {
  return `${node}.${seq}`;
}

/**
 * Where the replies to a node's own requests arrive: `_INBOX_<node>`, so that NATS can let each
 * node read its own replies only (the default `_INBOX.>` would show it every client's).
 */
export function inboxPrefixOf(node: string): string {
  return `_INBOX_${node}`;
}
