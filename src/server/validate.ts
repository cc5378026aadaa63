/**
 * Schema validation at the edge: a zod failure becomes a 422 problem whose `errors` name each
 * field (as a JSON Pointer), what it must be, the value received, and the fix.
 * @module
 */
import type { z } from 'zod';
import type { ProblemFieldError } from '../protocol/index.js';
import { ApiError } from './errors.js';

const PREVIEW_CHARS = 60;
/** Top-level fields whose values are never echoed in an error (environment values hold secrets). */
const SECRET_FIELDS = new Set(['env']);

/** A short, single-line rendering of a received value for an error message. */
export function previewValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  let text: string;
  try { text = JSON.stringify(value) ?? String(value); } catch { text = String(value); }
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

function pointer(path: readonly PropertyKey[]): string {
  return path.map((key) => '/' + String(key).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** One zod issue as a problem field error. */
export function issueToFieldError(issue: z.core.$ZodIssue & { input?: unknown }, root: string): ProblemFieldError {
  const path = pointer(issue.path);
  const where = path || '(the whole ' + root + ')';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `'${k}'`).join(', ');
    return { path, code: issue.code, message: `${where}: unknown field ${keys}; remove it (the schema is in /api/v1/openapi.json)` };
  }
  const got = SECRET_FIELDS.has(String(issue.path[0])) ? 'a value not shown: it may be a secret' : previewValue(issue.input);
  return { path, code: issue.code, message: `${where}: ${issue.message} (got ${got})` };
}

/**
 * Parses `value` with `schema`; on failure throws a 422 naming every bad field.
 * `what` says which part failed ("body", "query", "path parameter", "message").
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, what: string, context: string): z.output<T> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => issueToFieldError(issue, what));
  throw new ApiError({
    status: 422,
    code: 'VALIDATION_FAILED',
    title: `The request ${what} does not match the schema`,
    detail: `${context}: ${errors.map((e) => e.message).join('; ')}`,
    errors,
  });
}
