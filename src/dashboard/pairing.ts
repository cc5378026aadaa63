/**
 * Reading the pairing code from the URL fragment (`#pair=CODE`) and taking it out of the
 * address bar at once, so it stays neither in history nor on screen; the fragment never
 * reached the server (browsers do not send it).
 * @module
 */
import { PAIR_FRAGMENT_KEY } from '../protocol/pairing.js';

/** The code in `hash` (`#pair=CODE`, possibly among other `&`-separated keys), or null. */
export function pairingCodeFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get(PAIR_FRAGMENT_KEY);
  return code === null || code.trim() === '' ? null : code.trim();
}

/** Takes the pairing code out of the current location (replaceState: no history entry). */
export function takePairingCodeFromLocation(): string | null {
  const code = pairingCodeFromHash(window.location.hash);
  if (code !== null) window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return code;
}
