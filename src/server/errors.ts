/**
 * Refusals the server makes itself, beyond the ones its modules throw in place.
 * Every refusal is a `SpectermError` (src/protocol/coded-error.ts); `problem.ts` answers it.
 * @module
 */
import { SpectermError } from '../protocol/index.js';

/** A 501 for a part of the protocol this daemon has no handler for yet. */
export function notImplemented(what: string): SpectermError {
  return new SpectermError({
    code: 'NOT_IMPLEMENTED',
    detail: `${what} is part of the protocol but this daemon has no handler for it yet; upgrade the daemon`,
  });
}
