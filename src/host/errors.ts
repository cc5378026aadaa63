/**
 * Typed errors of the PTY host layer (host process, wire protocol, client, transport).
 * Each carries a stable `code` and a message that says what to do.
 *
 * @module
 */

/** Stable codes of {@link HostError}. */
export type HostErrorCode =
  /** The runtime dir has another owner, group/world bits, or is not a directory. */
  | 'HOST_RUNTIME_DIR_UNSAFE'
  /** A live host already listens on the socket. */
  | 'HOST_ALREADY_RUNNING'
  /** No host listens on the socket (nothing there, or a stale socket). */
  | 'HOST_NOT_RUNNING'
  /** Connecting or the handshake did not finish in time. */
  | 'HOST_CONNECT_TIMEOUT'
  /** The peer speaks another protocol version. */
  | 'HOST_PROTOCOL_MISMATCH'
  /** A frame or message broke the protocol (bad length, bad JSON, unknown type, bad field). */
  | 'HOST_BAD_MESSAGE'
  /** A frame is larger than the limit. */
  | 'HOST_FRAME_TOO_LARGE'
  /** No session with that id. */
  | 'HOST_UNKNOWN_SESSION'
  /** A session with that id already exists. */
  | 'HOST_SESSION_EXISTS'
  /** `remove` of a session whose child still runs, without `force`. */
  | 'HOST_SESSION_ALIVE'
  /** The child could not be started (the host relays the terminal layer's spawn code in `detail`). */
  | 'HOST_SPAWN_FAILED'
  /** The connection to the host closed before the answer arrived. */
  | 'HOST_CONNECTION_CLOSED'
  /** The client read too slowly and its backlog passed the limit; reattach with `since`. */
  | 'HOST_CLIENT_TOO_SLOW'
  /** The connection was lost and reconnecting failed until the give-up time: the host is gone. */
  | 'HOST_GONE'
  /** The host could not be started (see the host log). */
  | 'HOST_START_FAILED';

/** A failure of the host layer, with a stable code. */
export class HostError extends Error {
  /** Stable machine-readable code. */
  readonly code: HostErrorCode;
  /** Extra facts (e.g. the spawn code relayed from the host). */
  readonly detail: Record<string, unknown> | undefined;

  /**
   * @param code - stable code.
   * @param message - names the value and the fix.
   * @param detail - extra facts; never secrets.
   */
  constructor(code: HostErrorCode, message: string, detail?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostError';
    this.code = code;
    this.detail = detail;
  }
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
