/**
 * The one error base: every refusal in specterm is a `SpectermError` with a stable code from
 * the table in `error-codes.ts` and a detail that says what to do, in a person's words. Each
 * transport maps it once at its edge (HTTP: problem+json with the table's status; WebSocket,
 * NATS, MCP: code and detail). Layers name their own subclasses for narrower code sets.
 * @module
 */
import type { ProblemFieldError } from './common.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface SpectermErrorInit {
  code: ErrorCode;
  /** What was wrong and what to do about it. */
  detail: string;
  /** A title for this occurrence; the code's default title otherwise. */
  title?: string;
  /** The fields at fault (JSON Pointers into the request). */
  errors?: ProblemFieldError[];
  /** Extra members of the answer (e.g. `current` on a stale approval). */
  extensions?: Record<string, unknown>;
  /** When a retry may succeed, in seconds (HTTP: Retry-After). */
  retryAfterSeconds?: number;
  /** The methods the target takes (HTTP: Allow, on METHOD_NOT_ALLOWED). */
  allow?: readonly string[];
}

export class SpectermError extends Error {
  readonly code: ErrorCode;
  readonly title: string;
  readonly errors: ProblemFieldError[];
  readonly extensions: Record<string, unknown>;
  readonly retryAfterSeconds: number | undefined;
  readonly allow: readonly string[] | undefined;

  constructor(init: SpectermErrorInit) {
    super(init.detail);
    this.name = 'SpectermError';
    this.code = init.code;
    this.title = init.title ?? ERROR_CODES[init.code].title;
    this.errors = init.errors ?? [];
    this.extensions = init.extensions ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.allow = init.allow;
  }

  /** The HTTP status of the code (from the one table). */
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** A refusal naming one field: `errors` holds that field with the same code and message. */
export function fieldError(code: ErrorCode, detail: string, path: string | undefined, init: Omit<SpectermErrorInit, 'code' | 'detail'> = {}): SpectermErrorInit {
  return { ...init, code, detail, errors: path === undefined ? init.errors : [{ path, code, message: detail }] };
}
