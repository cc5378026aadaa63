/**
 * Who an operation acts as, whatever transport carried it: a token's id, its name and its
 * scope. Transports authenticate (src/server: Bearer header, cookie, ticket); operations only
 * check the scope.
 * @module
 */
import { SpectermError, type Scope } from '../protocol/index.js';

export interface Principal { tokenId: string; name: string; scope: Scope }

/** The admin token's principal (it is not in the store: it lives in its 0600 file). */
export const ADMIN_PRINCIPAL: Principal = { tokenId: 'admin', name: 'admin', scope: 'admin' };

/** Who calls a public operation (pairing): nobody yet. Its handler checks the body's credential. */
export const ANONYMOUS_PRINCIPAL: Principal = { tokenId: 'anonymous', name: 'anonymous', scope: 'read' };

/** Refuses a principal whose scope is below `needed`. */
export function forbiddenScope(principal: Principal, needed: Scope, what: string): SpectermError {
  return new SpectermError({
    code: 'SCOPE_INSUFFICIENT',
    title: 'The token lacks the scope',
    detail: `${what} needs the '${needed}' scope; token '${principal.name}' has '${principal.scope}'. Create a token with --scope ${needed}.`,
  });
}
