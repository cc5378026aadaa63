/**
 * The webhook signature, one function for each side: the daemon signs, a receiver verifies.
 *
 * Header `X-Specterm-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The timestamp is inside the signed text so a captured request cannot be replayed later with a
 * fresh timestamp; a receiver refuses timestamps older than its tolerance.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-specterm-signature';
/** Five minutes: clock skew between machines plus a few retries' worth of delay. */
export const DEFAULT_TOLERANCE_SEC = 300;

/** The hex HMAC-SHA256 of `<timestampSec>.<body>` under `secret`. */
export function signWebhookBody(secret: string, timestampSec: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestampSec}.${body}`, 'utf8').digest('hex');
}

/** The header value for a body sent at `timestampSec`. */
export function signatureHeader(secret: string, timestampSec: number, body: string): string {
  return `t=${timestampSec},v1=${signWebhookBody(secret, timestampSec, body)}`;
}

/** Why a signature was refused (or `ok`). */
export type SignatureCheck = { ok: true; timestampSec: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * Verifies a received request: `body` must be the raw bytes as received (not re-serialised JSON).
 *
 * @example verifyWebhookSignature(secret, req.headers['x-specterm-signature'], rawBody, Math.floor(Date.now() / 1000))
 */
export function verifyWebhookSignature(secret: string, header: string | undefined, body: string, nowSec: number, toleranceSec = DEFAULT_TOLERANCE_SEC): SignatureCheck {
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return { ok: false, reason: 'malformed' };
  const timestampSec = Number(match[1]);
  if (Math.abs(nowSec - timestampSec) > toleranceSec) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signWebhookBody(secret, timestampSec, body), 'hex');
  const given = Buffer.from(match[2]!, 'hex');
  return timingSafeEqual(expected, given) ? { ok: true, timestampSec } : { ok: false, reason: 'mismatch' };
}
