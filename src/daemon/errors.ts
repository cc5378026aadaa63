/**
 * The session manager's refusals: a stable `code` (its status is the protocol's table's) and a
 * message that says what to do.
 * @module
 */
import { fieldError, SpectermError } from '../protocol/index.js';

export type DaemonErrorCode =
  | 'SESSION_NOT_FOUND' | 'TASK_NOT_FOUND' | 'SESSION_NOT_RESUMABLE' | 'SESSION_AMBIGUOUS' | 'SESSION_LIMIT_REACHED' | 'SESSION_NOT_RUNNING' | 'SESSION_RUNNING'
  | 'SPEC_NOT_FOUND' | 'SPEC_PATH_NOT_ALLOWED' | 'CWD_NOT_FOUND' | 'NAME_TAKEN' | 'COMMAND_REFUSED' | 'HOST_FAILED'
  | 'APPROVAL_NOT_FOUND' | 'APPROVAL_STALE' | 'APPROVAL_BUTTON_UNKNOWN' | 'APPROVAL_CLAIMED' | 'APPROVAL_POLICY_INVALID'
  | 'WORKTREE_FAILED' | 'WORKTREE_DIRTY' | 'EXPLAIN_OUT_OF_RANGE' | 'SETTINGS_INVALID'
  | 'ENV_UNSEALABLE'
  | 'SELF_TARGET' | 'HANDOFF_TOO_DEEP' | 'HANDOFF_FAN_OUT' | 'HANDOFF_CYCLE' | 'AGENT_ANSWER_REFUSED' | 'CALLER_INVALID';

export class DaemonError extends SpectermError {
  declare readonly code: DaemonErrorCode;
  /** JSON Pointer of the request field at fault, when one is. */
  readonly path: string | undefined;

  constructor(code: DaemonErrorCode, message: string, init: { path?: string; extensions?: Record<string, unknown> } = {}) {
    super(fieldError(code, message, init.path, { extensions: init.extensions }));
    this.name = 'DaemonError';
    this.path = init.path;
  }
}
