/**
 * Schemas shared by several resources: identifiers, times, the problem document.
 * @module
 */
import { z } from 'zod';

/** A daemon-assigned identifier (sessions, approvals, tokens, messages). */
// 128: a hub's fleet id is `<node>_<id>`, and a node name alone may be 63 characters.
export const Id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'an id is 1–128 characters of A–Z, a–z, 0–9, _ or -')
  .meta({ examples: ['s_7f3a9c'] });

/** Milliseconds since the Unix epoch. */
export const EpochMs = z.number().int().nonnegative().meta({ description: 'milliseconds since the Unix epoch', examples: [1764600000000] });

/** A byte sequence number in a session's output stream (the count of bytes before it). */
export const ByteSeq = z.number().int().nonnegative().meta({ description: 'byte sequence number in the session output stream' });

/** Terminal width in columns. */
export const Cols = z.number().int().min(20).max(1000).meta({ examples: [120] });
/** Terminal height in rows. */
export const Rows = z.number().int().min(5).max(500).meta({ examples: [40] });

/** One entry of a problem's `errors`: which field, a stable code, and what to do. */
export const ProblemFieldError = z.object({
  path: z.string().meta({ description: 'JSON Pointer to the offending field ("" for the whole body)' }),
  code: z.string(),
  message: z.string(),
});
export type ProblemFieldError = z.infer<typeof ProblemFieldError>;

/**
 * An RFC 9457 problem document (`application/problem+json`). `code` is stable and
 * machine-readable; `detail` says what was wrong and how to fix it. Extension members
 * (e.g. `current` on a stale approval) are allowed.
 */
export const Problem = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  instance: z.string(),
  code: z.string(),
  errors: z.array(ProblemFieldError),
}).meta({
  examples: [{
    type: 'https://specterm.dev/problems/validation-failed',
    title: 'The request body does not match the schema',
    status: 422,
    detail: 'POST /api/v1/sessions: /cols: Too big: expected number to be <=1000 (got 5000). See /api/v1/openapi.json.',
    instance: '/api/v1/sessions',
    code: 'VALIDATION_FAILED',
    errors: [{ path: '/cols', code: 'too_big', message: 'Too big: expected number to be <=1000 (got 5000)' }],
  }],
});
export type Problem = z.infer<typeof Problem>;

/** The body of routes that answer nothing but success. */
export const Ok = z.strictObject({ ok: z.literal(true) }).meta({ examples: [{ ok: true }] });
