/**
 * Where a request comes from: the Host header must be one we answer to (DNS rebinding: a
 * hostile page's name re-pointed at 127.0.0.1 still sends its own Host → 421), and a browser
 * request (one with an Origin, or Sec-Fetch-Site) must be same-origin or explicitly allowed
 * (a foreign page → 403). Used for every HTTP request and every WebSocket upgrade.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { SpectermError } from '../protocol/index.js';

export interface OriginPolicy {
  /** Host header values (`name` or `name:port`, lower case) accepted. */
  readonly hosts: ReadonlySet<string>;
  /** Origins (`scheme://host[:port]`) accepted besides same-origin. */
  readonly origins: ReadonlySet<string>;
}

/** The hosts a loopback server answers to on `port`, plus the configured ones. */
export function buildOriginPolicy(port: number, allowedHosts: readonly string[] = [], allowedOrigins: readonly string[] = []): OriginPolicy {
  // A name without a port is allowed on our port only; "name:port" entries are taken as given.
  const withPort = (name: string) => (/:\d+$/.test(name) && !name.endsWith(']') ? name : `${name}:${port}`);
  const hosts = new Set(['127.0.0.1', 'localhost', '[::1]', ...allowedHosts].map((h) => withPort(h.toLowerCase())));
  return { hosts, origins: new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, ''))) };
}

/** Throws 421 for a Host we do not serve, 403 for a cross-origin browser request. */
export function checkOrigin(headers: IncomingHttpHeaders, policy: OriginPolicy): void {
  const host = headers.host?.toLowerCase();
  if (!host || !policy.hosts.has(host)) {
    throw new SpectermError({
      code: 'HOST_NOT_ALLOWED',
      title: 'Misdirected request: unknown Host',
      detail: `this server does not answer to Host '${headers.host ?? '(none)'}' (DNS rebinding protection). `
        + 'Use http://127.0.0.1:<port>, or start the server with --allowed-host <name> for a name you own.',
    });
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const normalized = origin.toLowerCase();
    const sameOrigin = normalized === `http://${host}` || normalized === `https://${host}`;
    if (!sameOrigin && !policy.origins.has(normalized)) {
      throw new SpectermError({
        code: 'ORIGIN_NOT_ALLOWED',
        title: 'Cross-origin request refused',
        detail: `requests from Origin '${origin}' are refused: only pages served by this daemon (or --allowed-origin entries) may call it`,
      });
    }
    return;
  }
  // Browsers that omit Origin (some GETs) still say where the request came from.
  if (headers['sec-fetch-site'] === 'cross-site') {
    throw new SpectermError({
      code: 'ORIGIN_NOT_ALLOWED', title: 'Cross-origin request refused',
      detail: 'a cross-site browser request (Sec-Fetch-Site: cross-site) is refused; call the API from the daemon\'s own pages or a non-browser client',
    });
  }
}
