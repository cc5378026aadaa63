/**
 * The terminal stream's refusals (subscribe, input, resize, lease over the WebSocket): a
 * stable `code` and a message that says what to do.
 * @module
 */
import { fieldError, SpectermError } from '../protocol/index.js';

export type TerminalStreamErrorCode =
  | 'TERMINAL_SESSION_NOT_FOUND' | 'TERMINAL_BAD_TOPIC' | 'LEASE_NOT_HELD' | 'LEASE_NEEDS_SUBSCRIPTION'
  | 'TERMINAL_RESIZE_REFUSED' | 'TERMINAL_INPUT_REFUSED';

export class TerminalStreamError extends SpectermError {
  declare readonly code: TerminalStreamErrorCode;
  /** JSON Pointer of the message field at fault. */
  readonly path: string;

  constructor(code: TerminalStreamErrorCode, message: string, path = '/session_id') {
    super(fieldError(code, message, path));
    this.name = 'TerminalStreamError';
    this.path = path;
  }
}

/** The refusal for a session id the lookup does not know. */
export function unknownSession(id: string, path = '/session_id'): TerminalStreamError {
  return new TerminalStreamError('TERMINAL_SESSION_NOT_FOUND', `no session has id '${id}'; \`specterm ls\` (or the dashboard's overview) lists them`, path);
}
