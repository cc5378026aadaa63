/**
 * Where a node's traffic lives on NATS. Every subject carries the node, so subject permissions
 * can let a node publish only as itself and take commands only for itself (docs/fleet.md):
 *
 * - `specterm.<node>.events.<session>` — the node's events, captured by the stream `SPECTERM_EVENTS`;
 * - `specterm.<node>.ops` — operations by request/reply (the operations layer's executor answers);
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
