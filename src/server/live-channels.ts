/**
 * The live channels of each token — WebSocket connections and SSE streams — so that revoking a
 * token (`DELETE /api/v1/tokens/:id`, a device's sign-out) ends every one of them at once,
 * instead of letting them deliver until the client reconnects. A channel opening just after its
 * token was revoked (authenticated a moment before the revocation) is ended as it opens.
 * @module
 */

export class LiveChannels {
  readonly #byToken = new Map<string, Set<() => void>>();
  /** Tokens revoked while the server runs (a handful: revocations are rare, deliberate acts). */
  readonly #revoked = new Set<string>();

  /** Registers a channel of `tokenId`; `end` closes it. Returns what unregisters it (call it when the channel closes). */
  open(tokenId: string, end: () => void): () => void {
    if (this.#revoked.has(tokenId)) {
      end();
      return () => {};
    }
    let channels = this.#byToken.get(tokenId);
    if (!channels) this.#byToken.set(tokenId, (channels = new Set()));
    const mine = channels;
    mine.add(end);
    return () => {
      mine.delete(end);
      if (mine.size === 0 && this.#byToken.get(tokenId) === mine) this.#byToken.delete(tokenId);
    };
  }

  /** Ends every channel of a revoked token, and any it opens from now on. */
  endToken(tokenId: string): void {
    this.#revoked.add(tokenId);
    const channels = this.#byToken.get(tokenId);
    this.#byToken.delete(tokenId);
    for (const end of channels ?? []) end();
  }
}
