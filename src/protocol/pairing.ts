/**
 * Pairing a browser: the daemon makes a one-time code (10 minutes, single use) for a device
 * name and a scope; the pairing URL carries it in the fragment (`/#pair=CODE`, never sent to
 * the server in a request line, so never in a log); the page posts it to `pair`, which
 * creates the named device token and answers with the session cookie bound to it.
 * @module
 */
import { z } from 'zod';
import { EpochMs } from './common.js';
import { CreateTokenRequest, ScopeSchema, TokenView } from './tokens.js';

/** The fragment key of the pairing URL: `http://127.0.0.1:PORT/#pair=CODE`. */
export const PAIR_FRAGMENT_KEY = 'pair';

/**
 * The host of `url` when it is this computer's loopback (`127.x.x.x`, `localhost`, `::1`), else
 * null: a pairing link there can never be opened from a phone, so no QR code is drawn for it
 * (the terminal's and the dashboard's rule alike).
 */
export function loopbackHostOf(url: string): string | null {
  const { hostname, host } = new URL(url);
  return isLoopbackHostname(hostname.replace(/^\[(.*)\]$/, '$1')) ? host : null;
}

/** Whether a bare host name (`127.x.x.x`, `localhost`, `::1`) is this computer's loopback. */
export function isLoopbackHostname(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Why a pairing link on `host` (a loopback one) has no QR code, in a person's words. */
export function noQrReason(host: string): string {
  return `no QR code for a phone: the daemon listens only on this computer (${host}), which a phone cannot reach`;
}

/** `POST /api/v1/pairings` (admin): a code for a device to pair with. */
export const CreatePairingRequest = z.strictObject({
  device_name: CreateTokenRequest.shape.name,
  scope: ScopeSchema,
}).meta({ examples: [{ device_name: 'phone', scope: 'approve' }] });

export const Pairing = z.strictObject({
  code: z.string().meta({ description: 'the one-time code; single use' }),
  url: z.string().meta({ description: 'the pairing URL, the code in its fragment' }),
  device_name: z.string(),
  scope: ScopeSchema,
  expires_at: EpochMs,
});
export type Pairing = z.infer<typeof Pairing>;

/** `POST /api/v1/pair` (no credential: the code is the credential). */
export const PairRequest = z.strictObject({
  code: z.string().min(1).max(128).meta({ description: 'the code from the pairing URL\'s fragment' }),
}).meta({ examples: [{ code: 'q3Yw1m2Hc8bX0Zr4nT6uVg' }] });

export const PairResult = z.strictObject({
  device: TokenView.meta({ description: 'the device token created (its secret is only in the HttpOnly cookie)' }),
});

/** `POST /api/v1/sign-out`: revokes the caller's device token and clears the cookie. */
export const SignOutResult = z.strictObject({
  revoked: z.boolean().meta({ description: 'false when the caller was the admin token, which cannot be revoked' }),
});
