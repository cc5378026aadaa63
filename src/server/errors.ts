/**
 * The server's error type: every refusal is an `ApiError` with an HTTP status, a stable code
 * and a detail that says what to do; `problem.ts` turns it into the wire form.
 * @module
 */
import type { ProblemFieldError } from '../protocol/index.js';

export interface ApiErrorInit {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: ProblemFieldError[];
  /** Extra response headers (Retry-After, Allow …). */
  headers?: Record<string, string>;
  /** RFC 9457 extension members (e.g. `current` on a stale approval). */
  extensions?: Record<string, unknown>;
}

/** A refusal the client can act on. Handlers throw it; the one mapper in `problem.ts` answers it. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: ProblemFieldError[];
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(init: ApiErrorInit) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.errors = init.errors ?? [];
    this.headers = init.headers ?? {};
    this.extensions = init.extensions ?? {};
  }
}

/** A 404 for an id that names nothing (`kind` e.g. "session"). */
export function notFound(kind: string, id: string): ApiError {
  return new ApiError({
    status: 404,
    code: `${kind.toUpperCase()}_NOT_FOUND`,
    title: `Unknown ${kind}`,
    detail: `no ${kind} has id '${id}'; \`specterm ${kind} list\` lists them`,
    errors: [{ path: '/id', code: 'not_found', message: `no ${kind} '${id}'` }],
  });
}

/** A 501 for a part of the protocol this daemon has no handler for yet. */
export function notImplemented(what: string): ApiError {
  return new ApiError({
    status: 501, code: 'NOT_IMPLEMENTED', title: 'Not served by this daemon',
    detail: `${what} is part of the protocol but this daemon has no handler for it yet; upgrade the daemon`,
  });
}
