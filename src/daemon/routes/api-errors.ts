/**
 * One mapping from the daemon's refusals to the server's `ApiError` (and so to problem+json).
 * @module
 */
import { ApiError } from '../../server/index.js';
import { ApprovalPolicyError, policyFieldPointer } from '../approval-policy.js';
import { DaemonError } from '../errors.js';
import { TerminalStreamError } from '../terminal-errors.js';

const TITLES: Partial<Record<DaemonError['code'], string>> = {
  SESSION_NOT_FOUND: 'Unknown session', APPROVAL_NOT_FOUND: 'Unknown approval', APPROVAL_STALE: 'The approval is stale',
  SESSION_LIMIT_REACHED: 'Session limit reached', SESSION_NOT_RUNNING: 'The agent is not running', WORKTREE_DIRTY: 'The worktree has uncommitted changes',
  SPEC_PATH_NOT_ALLOWED: 'The spec path is not allowed',
};

export function asApiError(error: unknown): unknown {
  if (error instanceof ApprovalPolicyError) {
    return new ApiError({ status: 422, code: error.code, title: 'Invalid approval policy', detail: error.message, errors: [{ path: policyFieldPointer(error.path), code: error.code, message: error.message }] });
  }
  if (error instanceof TerminalStreamError) {
    return new ApiError({ status: error.status, code: error.code, title: error.title, detail: error.message, errors: [{ path: error.path, code: error.code, message: error.message }] });
  }
  if (!(error instanceof DaemonError)) return error;
  return new ApiError({
    status: error.status,
    code: error.code,
    title: TITLES[error.code] ?? 'The request cannot be carried out',
    detail: error.message,
    errors: error.path !== undefined ? [{ path: error.path, code: error.code, message: error.message }] : [],
    extensions: error.extensions,
  });
}
