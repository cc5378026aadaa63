/**
 * THE error-to-response mapper: every refusal, HTTP or WebSocket upgrade, becomes an RFC 9457
 * `application/problem+json` document here and nowhere else. Unexpected errors answer a
 * generic 500 (their message may hold paths or secrets) and are reported through `onUnexpected`.
 * @module
 */
import type { Problem, SpectermError } from '../protocol/index.js';
import { toSpectermError } from '../ops/errors.js';

/** Where each problem `type` URI points; one page per code in docs/protocol.md. */
const PROBLEM_BASE = 'https://specterm.dev/problems/';

export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: Problem;
}

/** Maps any thrown value to the problem response for request path `instance`. */
export function toProblem(error: unknown, instance: string, onUnexpected?: (error: unknown) => void): ProblemResponse {
  const e = toSpectermError(error, onUnexpected);
  return {
    status: e.status,
    headers: { 'content-type': 'application/problem+json', ...httpHeadersOf(e) },
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

/** The headers HTTP attaches to a refusal: when to retry, which methods, how to authenticate. */
function httpHeadersOf(e: SpectermError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (e.retryAfterSeconds !== undefined) headers['retry-after'] = String(e.retryAfterSeconds);
  if (e.allow) headers.allow = e.allow.join(', ');
  if (e.status === 401) headers['www-authenticate'] = 'Bearer';
  return headers;
}
