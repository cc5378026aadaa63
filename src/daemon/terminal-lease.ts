/**
 * The controller lease of each session's terminal: at most one WebSocket connection at a time
 * may resize it (the size is the child's, one for everybody); the other viewers only watch and
 * fit the picture to their own screen. A holder is identified by its connection (the
 * `RequestContext` object the server passes for every message of one socket); the stream
 * releases a holder's leases when its terminal subscription ends, which includes the socket
 * closing.
 * @module
 */
import { TerminalStreamError } from './terminal-errors.js';

/** A lease holder's identity: compared by reference, one per connection. */
export type LeaseHolder = object;

/** The lease as one connection sees it. */
export type LeaseView = 'you' | 'other' | 'none';

export class TerminalLeases {
  readonly #holders = new Map<string, LeaseHolder>();
  readonly #onChange: (sessionId: string) => void;

  /** `onChange(sessionId)` runs after a session's holder changed (to tell its viewers). */
  constructor(onChange: (sessionId: string) => void = () => {}) {
    this.#onChange = onChange;
  }

  /** How `who` sees the lease of `sessionId`. */
  viewOf(sessionId: string, who: LeaseHolder): LeaseView {
    const holder = this.#holders.get(sessionId);
    return holder === undefined ? 'none' : holder === who ? 'you' : 'other';
  }

  /** Takes the lease when it is free (or already ours): `you`; held by someone else: `other`. */
  acquire(sessionId: string, who: LeaseHolder): LeaseView {
    const view = this.viewOf(sessionId, who);
    if (view !== 'none') return view;
    this.#holders.set(sessionId, who);
    this.#onChange(sessionId);
    return 'you';
  }

  /** Gives the lease back if `who` holds it: `none`; held by someone else: `other`. */
  release(sessionId: string, who: LeaseHolder): LeaseView {
    const view = this.viewOf(sessionId, who);
    if (view !== 'you') return view;
    this.#holders.delete(sessionId);
    this.#onChange(sessionId);
    return 'none';
  }

  /** Frees the lease of a session that is gone, whoever held it. */
  forget(sessionId: string): void {
    if (this.#holders.delete(sessionId)) this.#onChange(sessionId);
  }

  /** Refuses unless `who` holds the lease of `sessionId`. */
  assertHolder(sessionId: string, who: LeaseHolder): void {
    const view = this.viewOf(sessionId, who);
    if (view === 'you') return;
    throw new TerminalStreamError('LEASE_NOT_HELD', view === 'other'
      ? `another viewer controls the size of session '${sessionId}'; wait until it releases the lease (a 'lease' message tells you), or fit the picture to your own screen`
      : `resizing session '${sessionId}' needs the controller lease; send {"type":"lease","session_id":"${sessionId}","action":"acquire"} first`);
  }
}
