/**
 * Device tokens the fleet issued, as a node reads them: the hub writes one record per token into
 * the KV bucket `specterm_tokens` (key: the token's id; value: the SHA-256 of its secret — never
 * the secret — its scope, name and when it was revoked), and a node watches the bucket and
 * accepts a secret whose hash is there and not revoked, besides its own tokens. Only the hub's
 * NATS user may write the bucket (docs/fleet.md, "Permissions").
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Principal } from '../ops/principal.js';
import { SCOPES, type Scope } from '../protocol/index.js';

export const FLEET_TOKENS_BUCKET = 'specterm_tokens';

/** What the bucket holds under a token's id. */
export interface FleetTokenRecord { sha256: string; scope: Scope; name: string; revoked_at: number | null }

/** The SHA-256 of a secret, hex: what the bucket stores and compares. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The bucket (made when missing: whoever links first). */
export async function openFleetTokensBucket(nc: NatsConnection): Promise<KV> {
  return await new Kvm(nc).create(FLEET_TOKENS_BUCKET, { history: 1 });
}

/** A record read from the bucket, or null when it is not one (a hand-written key, a newer writer). */
export function parseFleetTokenRecord(bytes: Uint8Array): FleetTokenRecord | null {
  try {
    const r = JSON.parse(new TextDecoder().decode(bytes)) as Partial<FleetTokenRecord>;
    const valid = typeof r.sha256 === 'string' && /^[0-9a-f]{64}$/.test(r.sha256) && SCOPES.includes(r.scope as Scope)
      && typeof r.name === 'string' && (r.revoked_at === null || typeof r.revoked_at === 'number');
    return valid ? { sha256: r.sha256!, scope: r.scope!, name: r.name!, revoked_at: r.revoked_at! } : null;
  } catch {
    return null;
  }
}

/** How long a node waits for the bucket to bring a token it does not know yet (one the hub has just made). */
const LATE_TOKEN_WAIT_MS = 1_500;

/** A node's view of the fleet's tokens, kept current by a watch on the bucket. */
export class FleetTokens {
  /** Live records by hash; a revoked token is dropped. */
  readonly #byHash = new Map<string, { id: string; record: FleetTokenRecord }>();
  readonly #hashOfId = new Map<string, string>();
  readonly #waiters = new Set<() => void>();
  #stop: (() => void) | null = null;

  /** Starts watching the bucket (every current record, then each change). */
  static async watch(nc: NatsConnection): Promise<FleetTokens> {
    const tokens = new FleetTokens();
    const kv = await openFleetTokensBucket(nc);
    const watcher = await kv.watch();
    tokens.#stop = () => watcher.stop();
    void (async () => {
      for await (const entry of watcher) tokens.#apply(entry.key, entry.operation === 'PUT' ? parseFleetTokenRecord(entry.value) : null);
    })().catch(() => {});
    return tokens;
  }

  /** The principal of a fleet token's secret, or null (unknown, revoked). */
  verify(secret: string | undefined): Principal | null {
    if (secret === undefined) return null;
    const hash = secretHash(secret);
    const found = this.#byHash.get(hash);
    // The map lookup matched the hash; the constant-time compare is the check that decides.
    if (!found || !timingSafeEqual(Buffer.from(found.record.sha256, 'hex'), Buffer.from(hash, 'hex'))) return null;
    return { tokenId: `fleet/${found.id}`, name: found.record.name, scope: found.record.scope };
  }

  /** `verify`, waiting a moment for the bucket when the secret is not known yet (made on the hub an instant ago). */
  async verifySoon(secret: string | undefined, waitMs = LATE_TOKEN_WAIT_MS): Promise<Principal | null> {
    const now = this.verify(secret);
    if (now || secret === undefined) return now;
    return await new Promise((resolve) => {
      const check = () => {
        const principal = this.verify(secret);
        if (principal) finish(principal);
      };
      const finish = (principal: Principal | null) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(principal);
      };
      const timer = setTimeout(() => finish(null), waitMs);
      this.#waiters.add(check);
    });
  }

  close(): void {
    this.#stop?.();
  }

  #apply(id: string, record: FleetTokenRecord | null): void {
    const old = this.#hashOfId.get(id);
    if (old !== undefined) this.#byHash.delete(old);
    this.#hashOfId.delete(id);
    if (record && record.revoked_at === null) {
      this.#byHash.set(record.sha256, { id, record });
      this.#hashOfId.set(id, record.sha256);
    }
    for (const waiter of [...this.#waiters]) waiter();
  }
}
