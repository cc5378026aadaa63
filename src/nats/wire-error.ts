/**
 * A refusal as it crosses NATS, both ways: a node answers `{ok: false, error: {code, title,
 * detail, errors}}` (ops, topic subscriptions), and whoever asked turns that back into the one
 * error type with the node's own code and message — so a refusal reads the same whether it was
 * made here or on another machine.
 * @module
 */
import { ERROR_CODES, SpectermError, type ErrorCode, type ProblemFieldError } from '../protocol/index.js';
import { toSpectermError } from '../ops/errors.js';

export interface WireError { code: string; title: string; detail: string; errors: ProblemFieldError[]; [extension: string]: unknown }

/** A failed request's answer (anything thrown; an unexpected error goes to `onUnexpected`, never to the caller). */
export function refusalReply(error: unknown, onUnexpected: (error: unknown) => void): string {
  const e = toSpectermError(error, onUnexpected);
  const wire: WireError = { code: e.code, title: e.title, detail: e.message, errors: e.errors, ...e.extensions };
  return JSON.stringify({ ok: false, error: wire });
}

/** A node's refusal as the one error type; a code this build does not know stays in the detail. */
export function refusalOf(wire: Partial<WireError> | undefined, node: string): SpectermError {
  const code = wire?.code;
  const detail = typeof wire?.detail === 'string' ? wire.detail : `node '${node}' refused without saying why`;
  if (typeof code === 'string' && code in ERROR_CODES) {
    return new SpectermError({ code: code as ErrorCode, title: typeof wire?.title === 'string' ? wire.title : undefined, detail, errors: Array.isArray(wire?.errors) ? wire.errors : [] });
  }
  return new SpectermError({ code: 'INTERNAL', detail: `node '${node}' answered ${String(code ?? 'an error')}: ${detail}` });
}
