/**
 * Authentication shared by HTTP requests and WebSocket upgrades: lockout first (a locked
 * address is refused without its token being looked at), then the credential (on an upgrade, an
 * offered single-use ticket first; otherwise the Bearer header, then the session cookie), the admin token compared in
 * constant time, then the store.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { WS_TICKET_PROTOCOL_PREFIX } from '../protocol/index.js';
import { ADMIN_PRINCIPAL, presentedSecret, secretsEqual, unauthorized, type Principal, type TokenStore } from './auth.js';
import { ApiError } from './errors.js';
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
    this.refuseIfLockedOut(address);
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
      this.#deps.failures.recordFailure(address);
      throw error;
    }
    if (principal) {
      this.#deps.failures.recordSuccess(address);
      return principal;
    }
    // A request with no credential at all is not a guess: it does not count toward lockout.
    if (hadCredential) this.#deps.failures.recordFailure(address);
    throw unauthorized(hadCredential);
  }

  /** Throws 429 while `address` is locked out (also guards pairing codes, which are guessable secrets too). */
  refuseIfLockedOut(address: string): void {
    const lockedMs = this.#deps.failures.lockedForMs(address);
    if (lockedMs <= 0) return;
    const seconds = Math.ceil(lockedMs / 1000);
    throw new ApiError({
      status: 429, code: 'AUTH_LOCKED_OUT', title: 'Too many failed authentications',
      detail: `too many failed authentications from ${address}; try again in ${seconds} s with a valid token`,
      headers: { 'retry-after': String(seconds) },
    });
  }

  /** Counts a failed guess (a wrong pairing code) toward `address`'s lockout. */
  recordFailure(address: string): void {
    this.#deps.failures.recordFailure(address);
  }

  #verifySecret(secret: string): Principal | null {
    if (this.#deps.adminToken !== undefined && secretsEqual(secret, this.#deps.adminToken)) return ADMIN_PRINCIPAL;
    const record = this.#deps.tokens.verify(secret);
    return record ? { tokenId: record.id, name: record.name, scope: record.scope } : null;
  }
}
