/**
 * The pairing routes the server answers itself: `createPairing` (admin: a code and its URL),
 * `pair` (no credential: the code is one; creates the device token, sets the session cookie)
 * and `signOut` (revokes the caller's device token, clears the cookie). Failed codes count
 * toward the same lockout and global budget as failed tokens; the right code always pairs.
 * @module
 */
import { PAIR_FRAGMENT_KEY, type Pairing, type RouteInput } from '../protocol/index.js';
import { clearSessionCookie, sessionCookie, type TokenStore } from './auth.js';
import type { Authenticator } from './authenticator.js';
import { toTokenView } from './builtin-routes.js';
import type { RequestContext } from '../ops/contracts.js';
import type { PairingCodes, PairingGrant } from './pairing.js';

/** A paired device keeps its cookie 400 days (Chrome's cap); revoking the token ends it at once. */
export const SESSION_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

export interface PairingDeps {
  codes: PairingCodes;
  tokens: TokenStore;
  auth: Authenticator;
  /** The server's base URL (`http://127.0.0.1:PORT`), known once it listens. */
  baseUrl: () => string;
  /** Served over TLS: the cookie gets `Secure`. */
  secure: boolean;
  /** Revokes a device token and ends what it holds (tickets, sockets); false when unknown. */
  revoke: (tokenId: string) => boolean;
}

/** The pairing URL of `code`: the code rides in the fragment, which no request line carries. */
export function pairingUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/#${PAIR_FRAGMENT_KEY}=${encodeURIComponent(code)}`;
}

/** Issues a code for `grant` in wire form (what the route answers and the daemon prints). */
export function issuePairing(deps: Pick<PairingDeps, 'codes' | 'baseUrl'>, grant: PairingGrant): Pairing {
  const issued = deps.codes.issue(grant);
  return { code: issued.code, url: pairingUrl(deps.baseUrl(), issued.code), device_name: issued.deviceName, scope: issued.scope, expires_at: issued.expiresAt };
}

export function pairingHandlers(deps: PairingDeps) {
  return {
    createPairing: ({ body }: RouteInput<'createPairing'>) => issuePairing(deps, { deviceName: body.device_name, scope: body.scope }),
    pair: ({ body }: RouteInput<'pair'>, ctx: RequestContext) => {
      let grant: PairingGrant;
      try {
        grant = deps.codes.redeem(body.code);
      } catch (error) {
        deps.auth.countFailure(ctx.remoteAddress);
        throw error;
      }
      const { token, record } = deps.tokens.create({ name: grant.deviceName, scope: grant.scope });
      if (ctx.responseHeaders) ctx.responseHeaders['set-cookie'] = sessionCookie(token, { secure: deps.secure, maxAgeSeconds: SESSION_COOKIE_MAX_AGE_S });
      return { device: toTokenView(record) };
    },
    signOut: (_input: RouteInput<'signOut'>, ctx: RequestContext) => {
      // The admin token lives in its file, not the store: signing out only drops the cookie.
      const revoked = ctx.principal.tokenId !== 'admin' && deps.revoke(ctx.principal.tokenId);
      if (ctx.responseHeaders) ctx.responseHeaders['set-cookie'] = clearSessionCookie({ secure: deps.secure });
      return { revoked };
    },
  };
}
