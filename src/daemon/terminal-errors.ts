/**
 * The terminal stream's refusals (subscribe, input, resize, lease over the WebSocket): a
 * stable `code`, the HTTP-like status the server answers it with, and a message that says
 * what to do. The daemon may not import the server, so whoever wires the stream into
 * `createApiServer` turns them into its `ApiError` (same shape as the session manager's errors).
 * @module
 */
export type TerminalStreamErrorCode =
  | 'TERMINAL_SESSION_NOT_FOUND' | 'TERMINAL_BAD_TOPIC' | 'LEASE_NOT_HELD' | 'LEASE_NEEDS_SUBSCRIPTION'
  | 'TERMINAL_RESIZE_REFUSED' | 'TERMINAL_INPUT_REFUSED';

const STATUS: Record<TerminalStreamErrorCode, number> = {
  TERMINAL_SESSION_NOT_FOUND: 404, TERMINAL_BAD_TOPIC: 400, LEASE_NOT_HELD: 409, LEASE_NEEDS_SUBSCRIPTION: 409,
  TERMINAL_RESIZE_REFUSED: 409, TERMINAL_INPUT_REFUSED: 409,
};

const TITLE: Record<TerminalStreamErrorCode, string> = {
  TERMINAL_SESSION_NOT_FOUND: 'Unknown session', TERMINAL_BAD_TOPIC: 'Not a terminal topic',
  LEASE_NOT_HELD: 'Resize needs the controller lease', LEASE_NEEDS_SUBSCRIPTION: 'Lease needs a terminal subscription',
  TERMINAL_RESIZE_REFUSED: 'Resize refused', TERMINAL_INPUT_REFUSED: 'Input refused',
};

export class TerminalStreamError extends Error {
  readonly code: TerminalStreamErrorCode;
  readonly status: number;
  readonly title: string;
  /** JSON Pointer of the message field at fault. */
  readonly path: string;

  constructor(code: TerminalStreamErrorCode, message: string, path = '/session_id') {
    super(message);
    this.name = 'TerminalStreamError';
    this.code = code;
    this.status = STATUS[code];
    this.title = TITLE[code];
    this.path = path;
  }
}

/** The refusal for a session id the lookup does not know. */
export function unknownSession(id: string, path = '/session_id'): TerminalStreamError {
  return new TerminalStreamError('TERMINAL_SESSION_NOT_FOUND', `no session has id '${id}'; \`specterm ls\` (or the dashboard's overview) lists them`, path);
}
