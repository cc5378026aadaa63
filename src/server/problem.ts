/**
 * THE error-to-response mapper: every refusal, HTTP or WebSocket upgrade, becomes an RFC 9457
 * `application/problem+json` document here and nowhere else. Unexpected errors answer a
 * generic 500 (their message may hold paths or secrets) and are reported through `onUnexpected`.
 * @module
 */
import type { Problem } from '../protocol/index.js';
import { asStorageFull } from '../fs/storage-full.js';
import { ApiError } from './errors.js';

/** Where each problem `type` URI points; one page per code in docs/protocol.md. */
const PROBLEM_BASE = 'https://specterm.dev/problems/';

export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: Problem;
}

/** Maps any thrown value to the problem response for request path `instance`. */
export function toProblem(error: unknown, instance: string, onUnexpected?: (error: unknown) => void): ProblemResponse {
  const known = error instanceof ApiError ? error : storageFullProblem(error);
  if (!known) onUnexpected?.(error);
  const e = known ?? new ApiError({
    status: 500, code: 'INTERNAL', title: 'Internal error',
    detail: 'the server failed while answering; the daemon log has the details. Retry, and report it if it persists.',
  });
  return {
    status: e.status,
    headers: { 'content-type': 'application/problem+json', ...e.headers },
    body: {
      ...e.extensions,
      type: PROBLEM_BASE + e.code.toLowerCase().replace(/_/g, '-'),
      title: e.title,
      status: e.status,
      detail: e.message,
      instance,
      code: e.code,
      errors: e.errors,
    },
  };
}

/** A full disk under the daemon's files is 507 with the directory where a person frees space. */
function storageFullProblem(error: unknown): ApiError | undefined {
  const full = asStorageFull(error);
  return full && new ApiError({ status: 507, code: 'STORAGE_FULL', title: 'No space left to store it', detail: full.message, extensions: { dir: full.dir } });
}
