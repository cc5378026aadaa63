/**
 * Authentication shared by HTTP requests and WebSocket upgrades: the credential (on an upgrade,
 * an offered single-use ticket first; otherwise the Bearer header, then the session cookie),
 * the admin token compared in constant time, then the store. A valid credential is always let
 * in; a failed one is answered 401 — or 429 while its address is locked out or the global
 * failure budget is spent (`FailureLimiter`). The credential is checked even then: refusing it
 * unchecked would let any process on this machine lock the user's own clients out, and the
 * secrets (256-bit tokens and tickets, 128-bit pairing codes) are not guessable anyway.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { WS_TICKET_PROTOCOL_PREFIX } from '../protocol/index.js';
import { ADMIN_PRINCIPAL, presentedSecret, secretsEqual, unauthorized, type Principal, type TokenStore } from './auth.js';
import { SpectermError } from '../protocol/index.js';
import type { FailureLimiter } from './failure-limiter.js';
import type { WsTickets } from './ws-tickets.js';

export interface AuthenticatorDeps {
  tokens: TokenStore;
  adminToken?: string;
  failures: FailureLimiter;
  tickets: WsTickets;
}

/** The ticket a WebSocket upgrade offers as a subprotocol, if any. */
export function offeredTicket(req: IncomingMessage): string | undefined {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  return offered.find((p) => p.startsWith(WS_TICKET_PROTOCOL_PREFIX))?.slice(WS_TICKET_PROTOCOL_PREFIX.length);
}

export class Authenticator {
  readonly #deps: AuthenticatorDeps;

  constructor(deps: AuthenticatorDeps) {
    this.#deps = deps;
  }

  /** The caller's principal; throws 401 (bad or no credential) or 429 (locked out). */
  authenticate(req: IncomingMessage, options: { allowTicket: boolean }): Principal {
    const address = req.socket.remoteAddress ?? 'unknown';
    let principal: Principal | null;
    let hadCredential = true;
    try {
      // An offered ticket wins on an upgrade: it was minted moments ago from a valid credential,
      // while a cookie the browser sends along may belong to a device revoked since.
      const ticket = options.allowTicket ? offeredTicket(req) : undefined;
      const secret = ticket === undefined ? presentedSecret(req) : undefined;
      hadCredential = secret !== undefined || ticket !== undefined;
      principal = secret !== undefined ? this.#verifySecret(secret) : ticket !== undefined ? this.#deps.tickets.redeem(ticket) : null;
    } catch (error) {
      this.countFailure(address);
      throw error;
    }
    if (principal) {
      this.#deps.failures.recordSuccess(address);
      return principal;
    }
    // A request with no credential at all is not a guess: it does not count toward lockout.
    if (hadCredential) this.countFailure(address);
    throw unauthorized(hadCredential);
  }

  /**
   * The principal of a bare secret (a transport without HTTP requests: NATS), with the same
   * failure counting as a request from `address`; throws 401 or 429 like `authenticate`.
   */
  authenticateSecret(secret: string | undefined, address: string): Principal {
    const principal = secret === undefined ? null : this.#verifySecret(secret);
    if (principal) {
      this.#deps.failures.recordSuccess(address);
      return principal;
    }
    if (secret !== undefined) this.countFailure(address);
    throw unauthorized(secret !== undefined);
  }

  /**
   * Counts a failed guess (a wrong token, ticket or pairing code) from `address`; throws 429
   * instead while the address is locked out or the global budget is spent (such a guess is not
   * counted: a lock is not extended by the requests it refuses).
   */
  countFailure(address: string): void {
    const { failures } = this.#deps;
    const lockedMs = failures.lockedForMs(address);
    if (lockedMs > 0) {
      throw tooManyFailures('AUTH_LOCKED_OUT', lockedMs, `too many failed authentications from ${address}`);
    }
    const throttledMs = failures.throttledForMs();
    if (throttledMs > 0) {
      throw tooManyFailures('AUTH_THROTTLED', throttledMs, 'too many failed authentications on this daemon, from any address');
    }
    failures.recordFailure(address);
  }

  #verifySecret(secret: string): Principal | null {
    if (this.#deps.adminToken !== undefined && secretsEqual(secret, this.#deps.adminToken)) return ADMIN_PRINCIPAL;
    const record = this.#deps.tokens.verify(secret);
    return record ? { tokenId: record.id, name: record.name, scope: record.scope } : null;
  }
}

function tooManyFailures(code: 'AUTH_LOCKED_OUT' | 'AUTH_THROTTLED', waitMs: number, what: string): SpectermError {
  const seconds = Math.ceil(waitMs / 1000);
  return new SpectermError({
    code, title: 'Too many failed authentications',
    detail: `${what}; try again in ${seconds} s. A valid token is never refused for this: check the one you sent`,
    retryAfterSeconds: seconds,
  });
}
