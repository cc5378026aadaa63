/**
 * Who is calling: the `TokenStore` contract (implemented over SQLite by src/store), the
 * credentials a request may carry (Bearer header or the dashboard's session cookie — never the
 * URL), and the admin token's constant-time check.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SESSION_COOKIE, type Scope } from '../protocol/index.js';
import { ADMIN_PRINCIPAL, ANONYMOUS_PRINCIPAL, type Principal } from '../ops/principal.js';

export { ADMIN_PRINCIPAL, ANONYMOUS_PRINCIPAL, type Principal };
import { SpectermError } from '../protocol/index.js';

export interface TokenRecord { id: string; name: string; scope: Scope; createdAt: number; lastUsedAt: number | null; revokedAt: number | null }

export interface TokenStore {
  /** Creates a token; `token` (the secret, 256-bit random, base64url) is returned once and only its SHA-256 is stored. */
  create(input: { name: string; scope: Scope }): { token: string; record: TokenRecord };
  /** Constant-time lookup by SHA-256 of the secret; null when unknown or revoked. Updates lastUsedAt. */
  verify(secret: string): TokenRecord | null;
  list(): TokenRecord[];
  revoke(id: string): boolean;
}


/** Query parameter names that look like credentials; a request carrying one is refused. */
const CREDENTIAL_PARAMS = ['token', 'access_token', 'auth', 'authorization', 'api_key', 'apikey', 'key', 'ticket', 'password', 'secret'];

/** Refuses a URL that carries a credential-like parameter (it would end up in logs and history). */
export function refuseCredentialInUrl(url: URL): void {
  const found = [...url.searchParams.keys()].find((name) => CREDENTIAL_PARAMS.includes(name.toLowerCase()));
  if (found === undefined) return;
  throw new SpectermError({
    code: 'TOKEN_IN_URL',
    title: 'Credentials are not accepted in the URL',
    detail: `the query parameter '${found}' looks like a credential; URLs end up in logs, proxies and browser history. `
      + 'Send the token as "Authorization: Bearer <token>" (WebSocket in a browser: a ticket from POST /api/v1/ws-ticket in Sec-WebSocket-Protocol), '
      + 'and revoke this token if it was a real one.',
    errors: [{ path: `/query/${found}`, code: 'credential_in_url', message: `remove '${found}' from the URL` }],
  });
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The secret a request presents (Bearer header first, then the session cookie), or undefined. */
export function presentedSecret(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new SpectermError({
        code: 'AUTH_MALFORMED', title: 'Malformed Authorization header',
        detail: 'the Authorization header must be "Bearer <token>"',
      });
    }
    return match[1];
  }
  return cookieValue(req.headers.cookie, SESSION_COOKIE);
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares two secrets in constant time (over their SHA-256, so lengths do not leak). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/**
 * The `Set-Cookie` value that hands a dashboard its session: HttpOnly (page scripts never see
 * the token), SameSite=Strict (no other site's page sends it), Path=/ (the pages and the API),
 * Secure under TLS.
 */
export function sessionCookie(secret: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${options.maxAgeSeconds}${options.secure ? '; Secure' : ''}`;
}

/** The `Set-Cookie` value that removes the session cookie (sign-out). */
export function clearSessionCookie(options: { secure: boolean }): string {
  return sessionCookie('', { ...options, maxAgeSeconds: 0 });
}

/** The 401 every failed authentication answers (same text whether the token is unknown or revoked). */
export function unauthorized(hadCredential: boolean): SpectermError {
  return new SpectermError({
    code: hadCredential ? 'AUTH_INVALID' : 'AUTH_REQUIRED',
    title: hadCredential ? 'Invalid token' : 'Authentication required',
    detail: hadCredential
      ? 'the token is unknown or revoked; create one with `specterm token create` (the admin token is in the state dir file admin-token)'
      : 'send "Authorization: Bearer <token>"; the admin token is in the state dir file admin-token, `specterm token create` makes scoped ones',
  });
}
