/**
 * Reaching a daemon that serves HTTPS with the self-signed certificate of `specterm serve --lan`:
 * the CLI on the same computer trusts that one certificate (kept in the state dir) besides the
 * system's CAs. Node 20's `fetch` takes no CA option, so HTTPS calls then go through
 * `https.request`, answered as a standard `Response`.
 *
 * @module
 */
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import tls from 'node:tls';

/** `serve --lan`'s certificate (PEM, mode 0600) in the state dir; clients trust it. */
export const LAN_CERT_FILE = 'lan-cert.pem';
/** Its private key, beside it. */
export const LAN_KEY_FILE = 'lan-key.pem';

/** The part of `fetch` the client uses. */
export type FetchLike = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

/**
 * The CAs to trust for the daemon of `stateDir`: the system's plus its LAN certificate, or
 * undefined (the defaults) when it has none.
 */
export function readDaemonTrust(stateDir: string): string[] | undefined {
  let cert: string;
  try { cert = fs.readFileSync(path.join(stateDir, LAN_CERT_FILE), 'utf8'); } catch { return undefined; }
  return [...tls.rootCertificates, cert];
}

/** A `fetch` whose HTTPS connections trust exactly `ca`; rejects as `fetch` does (TypeError, `cause`). */
export function createTrustedFetch(ca: readonly string[]): FetchLike {
  return (url, init = {}) => new Promise<Response>((resolve, reject) => {
    const request = https.request(url, { method: init.method ?? 'GET', headers: init.headers, ca: [...ca], signal: init.signal }, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const status = res.statusCode ?? 502;
      // A Response with 204/304 must have no body.
      const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, headers }));
    });
    request.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
    request.end(init.body);
  });
}
