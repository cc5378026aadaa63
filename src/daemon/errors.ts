/**
 * The session manager's refusals: a stable `code`, the HTTP status the API answers it with, and
 * a message that says what to do. The route handlers turn them into problem documents.
 * @module
 */
export type DaemonErrorCode =
  | 'SESSION_NOT_FOUND' | 'SESSION_AMBIGUOUS' | 'SESSION_LIMIT_REACHED' | 'SESSION_NOT_RUNNING' | 'SESSION_RUNNING'
  | 'SPEC_NOT_FOUND' | 'SPEC_PATH_NOT_ALLOWED' | 'CWD_NOT_FOUND' | 'NAME_TAKEN' | 'COMMAND_REFUSED' | 'HOST_FAILED'
  | 'APPROVAL_NOT_FOUND' | 'APPROVAL_STALE' | 'APPROVAL_BUTTON_UNKNOWN' | 'APPROVAL_CLAIMED' | 'APPROVAL_POLICY_INVALID'
  | 'WORKTREE_FAILED' | 'WORKTREE_DIRTY' | 'EXPLAIN_OUT_OF_RANGE' | 'SETTINGS_INVALID'
  | 'ENV_UNSEALABLE';

const STATUS: Record<DaemonErrorCode, number> = {
  SESSION_NOT_FOUND: 404, APPROVAL_NOT_FOUND: 404, SPEC_NOT_FOUND: 422, SPEC_PATH_NOT_ALLOWED: 422, CWD_NOT_FOUND: 422, SESSION_AMBIGUOUS: 409,
  SESSION_LIMIT_REACHED: 429, SESSION_NOT_RUNNING: 409, SESSION_RUNNING: 409, NAME_TAKEN: 409, COMMAND_REFUSED: 409,
  HOST_FAILED: 502, APPROVAL_STALE: 409, APPROVAL_BUTTON_UNKNOWN: 422, APPROVAL_CLAIMED: 409, APPROVAL_POLICY_INVALID: 422,
  WORKTREE_FAILED: 422, WORKTREE_DIRTY: 409, EXPLAIN_OUT_OF_RANGE: 422, SETTINGS_INVALID: 422,
  ENV_UNSEALABLE: 500,
};

export class DaemonError extends Error {
  readonly code: DaemonErrorCode;
  readonly status: number;
  /** JSON Pointer of the request field at fault, when one is. */
  readonly path: string | undefined;
  /** Extra members of the problem document (e.g. `current` on a stale approval). */
  readonly extensions: Record<string, unknown>;

  constructor(code: DaemonErrorCode, message: string, init: { path?: string; extensions?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'DaemonError';
    this.code = code;
    this.status = STATUS[code];
    this.path = init.path;
    this.extensions = init.extensions ?? {};
  }
}
