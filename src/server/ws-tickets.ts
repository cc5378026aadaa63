/**
 * Single-use, short-lived WebSocket tickets: a browser cannot put an Authorization header on
 * a WebSocket, so it fetches a ticket (authenticated normally) and offers it as a subprotocol.
 * A ticket works once, within `ttlMs`, and carries the principal that asked for it.
 * @module
 */
import type { Principal } from './auth.js';
import { generateSecret } from './admin-token.js';

interface Pending { principal: Principal; expiresAt: number }

export class WsTickets {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #pending = new Map<string, Pending>();

  /** `ttlMs`: 30 s is ample for a page to open its socket right after asking. */
  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  issue(principal: Principal): { ticket: string; expiresAt: number } {
    this.#sweep();
    const ticket = generateSecret();
    const expiresAt = this.#now() + this.#ttlMs;
    this.#pending.set(ticket, { principal, expiresAt });
    return { ticket, expiresAt };
  }

  /** The ticket's principal, consuming it; null when unknown, used or expired. */
  redeem(ticket: string): Principal | null {
    const pending = this.#pending.get(ticket);
    this.#pending.delete(ticket);
    if (!pending || pending.expiresAt < this.#now()) return null;
    return pending.principal;
  }

  /** Forgets the unused tickets of a revoked token. */
  forgetToken(tokenId: string): void {
    for (const [ticket, pending] of this.#pending) if (pending.principal.tokenId === tokenId) this.#pending.delete(ticket);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [ticket, pending] of this.#pending) if (pending.expiresAt < now) this.#pending.delete(ticket);
  }
}
