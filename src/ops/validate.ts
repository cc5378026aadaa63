/**
 * Schema validation at the edge: a zod failure becomes a 422 problem whose `errors` name each
 * field (as a JSON Pointer), what it must be, the value received, and the fix.
 * @module
 */
import type { z } from 'zod';
import type { ProblemFieldError } from '../protocol/index.js';
import { SpectermError } from '../protocol/index.js';

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

/** zod's own wording starts so; a schema's custom message does not, and is kept as written. */
const VALIDATOR_WORDING = /^(?:Too (?:small|big)|Invalid (?:input|option|string|format|value|key|element|union|type)|Expected )/;

function countOf(n: number | bigint, one: string): string {
  return `${n} ${one}${Number(n) === 1 ? '' : 's'}`;
}

/** What a field must be, in a person's words (the fix), from one zod issue. */
function mustBe(issue: z.core.$ZodIssue & { input?: unknown }): string {
  if (!VALIDATOR_WORDING.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'too_small': {
      const at = issue.inclusive === false ? 'more than' : 'at least';
      if (issue.origin === 'string') return Number(issue.minimum) === 1 ? 'must not be empty' : `must be ${at} ${countOf(issue.minimum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have ${at} ${countOf(issue.minimum, 'item')}`;
      return `must be ${at} ${issue.minimum}`;
    }
    case 'too_big': {
      const at = issue.inclusive === false ? 'less than' : 'at most';
      if (issue.origin === 'string') return `must be ${at} ${countOf(issue.maximum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have ${at} ${countOf(issue.maximum, 'item')}`;
      return `must be ${at} ${issue.maximum}`;
    }
    case 'invalid_type':
      return issue.input === undefined ? `is missing; it must be ${article(issue.expected)}` : `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`}`;
    case 'invalid_format':
      return `must be ${issue.format === 'regex' ? 'in the expected format' : `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return issue.message;
  }
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** One zod issue as a problem field error. */
export function issueToFieldError(issue: z.core.$ZodIssue & { input?: unknown }, root: string): ProblemFieldError {
  const path = pointer(issue.path);
  const where = path || '(the whole ' + root + ')';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `'${k}'`).join(', ');
    return { path, code: issue.code, message: `${where}: unknown field ${keys}; remove it (the schema is in /api/v1/openapi.json)` };
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return { path, code: issue.code, message: `${where}: ${mustBe(issue)}` };
  const got = SECRET_FIELDS.has(String(issue.path[0])) ? 'a value not shown: it may be a secret' : previewValue(issue.input);
  return { path, code: issue.code, message: `${where}: ${mustBe(issue)} (got ${got})` };
}

/**
 * Parses `value` with `schema`; on failure throws a 422 naming every bad field.
 * `what` says which part failed ("body", "query", "path parameter", "message").
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, what: string, context: string): z.output<T> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => issueToFieldError(issue, what));
  throw new SpectermError({
    code: 'VALIDATION_FAILED',
    title: `The request ${what} does not match the schema`,
    detail: `${context}: ${errors.map((e) => e.message).join('; ')}`,
    errors,
  });
}
