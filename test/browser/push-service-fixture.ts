/**
 * A push service on loopback for the Web Push tests: it records every request, answers each
 * subscription's requests from a script of statuses (default 201), and can decrypt a message
 * (RFC 8291 aes128gcm, with the browser-side keys it made) and check its VAPID JWT (RFC 8292)
 * with node:crypto's own HKDF and ECDSA, independently of the daemon's code.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PushRequest { path: string; headers: http.IncomingHttpHeaders; body: Buffer; at: number }

export interface BrowserKeys { p256dh: string; auth: string; ecdh: crypto.ECDH; authSecret: Buffer }

/** What a browser makes when it subscribes: a P-256 pair and a 16-byte auth secret. */
export function makeBrowserKeys(): BrowserKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = crypto.randomBytes(16);
  return { p256dh: ecdh.getPublicKey('base64url'), auth: authSecret.toString('base64url'), ecdh, authSecret };
}

export async function startPushService(): Promise<{ url: string; requests: PushRequest[]; script: Map<string, number[]>; close(): Promise<void> }> {
  const requests: PushRequest[] = [];
  const script = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      const status = script.get(req.url ?? '')?.shift() ?? 201;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, script, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** RFC 8291 §3.4 in reverse: the plaintext of a single-record aes128gcm message. */
export function decryptPushMessage(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, keys.authSecret, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('not the last record: no 0x02 delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`; returns the JWT's claims and `k`. */
export function verifyVapid(authorization: string | undefined): { claims: { aud: string; exp: number; sub: string }; k: string } {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, head, payload, signature, k] = match as unknown as [string, string, string, string, string];
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string };
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  const raw = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
  if (!crypto.verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('the VAPID signature does not verify');
  return { claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as { aud: string; exp: number; sub: string }, k };
}
