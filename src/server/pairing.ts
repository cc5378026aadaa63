/**
 * One-time pairing codes: random (128 bits), valid `ttlMs` (10 minutes), single use, compared
 * in constant time. A code names the device token it will create and that token's scope, both
 * chosen by whoever made the code (the daemon, or an admin); redeeming it is the only way a
 * browser gets a session cookie without a secret being pasted around.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Scope } from '../protocol/index.js';
import { secretsEqual } from './auth.js';
import { SpectermError } from '../protocol/index.js';

export interface PairingGrant { deviceName: string; scope: Scope }
export interface IssuedPairing extends PairingGrant { code: string; expiresAt: number }

interface Entry extends IssuedPairing { usedAt: number | null }

/** Outstanding codes kept at most: an admin loop cannot make the daemon hold unbounded state. */
const MAX_CODES = 100;

const ASK_AGAIN = 'ask for a new pairing URL (`specterm serve` prints one at start; an admin can POST /api/v1/pairings)';

export class PairingCodes {
  readonly #ttlMs: number;
  readonly #now: () => number;
  #entries: Entry[] = [];

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  issue(grant: PairingGrant): IssuedPairing {
    this.#sweep();
    if (this.#entries.length >= MAX_CODES) this.#entries.shift();
    const entry: Entry = { ...grant, code: randomBytes(16).toString('base64url'), expiresAt: this.#now() + this.#ttlMs, usedAt: null };
    this.#entries.push(entry);
    return { code: entry.code, deviceName: entry.deviceName, scope: entry.scope, expiresAt: entry.expiresAt };
  }

  /** The code's grant, consuming it; throws PAIRING_CODE_UNKNOWN / _EXPIRED / _USED. */
  redeem(code: string): PairingGrant {
    // Every entry is compared (no early exit), each in constant time: timing tells nothing.
    let found: Entry | undefined;
    for (const entry of this.#entries) if (secretsEqual(code, entry.code)) found = entry;
    const now = this.#now();
    if (!found) {
      throw new SpectermError({ code: 'PAIRING_CODE_UNKNOWN', title: 'Unknown pairing code', detail: `this pairing code is not one the daemon issued (mistyped, or from a daemon that restarted); ${ASK_AGAIN}` });
    }
    if (found.usedAt !== null) {
      throw new SpectermError({ code: 'PAIRING_CODE_USED', title: 'Pairing code already used', detail: `this pairing code was already used (a code pairs one device, once); ${ASK_AGAIN}` });
    }
    if (found.expiresAt <= now) {
      throw new SpectermError({ code: 'PAIRING_CODE_EXPIRED', title: 'Pairing code expired', detail: `this pairing code expired ${Math.ceil((now - found.expiresAt) / 1000)} s ago (codes are valid ${Math.round(this.#ttlMs / 60_000)} minutes); ${ASK_AGAIN}` });
    }
    found.usedAt = now;
    return { deviceName: found.deviceName, scope: found.scope };
  }

  /** Used and expired codes are remembered one more ttl, so a late retry gets the clear answer. */
  #sweep(): void {
    const horizon = this.#now() - this.#ttlMs;
    this.#entries = this.#entries.filter((entry) => entry.expiresAt > horizon);
  }
}
