/**
 * The two pieces of cryptography a Web Push sender needs, on node:crypto alone:
 * - RFC 8291 message encryption with the `aes128gcm` content coding (RFC 8188): an ephemeral
 *   P-256 key per message, ECDH with the subscription's `p256dh` key, HKDF with its `auth`
 *   secret, one AES-128-GCM record;
 * - RFC 8292 VAPID: an ES256 JWT naming the push service's origin (`aud`), an expiry (`exp`,
 *   at most 24 h ahead) and a contact (`sub`), sent with the daemon's public key.
 * Why not the `web-push` package: these ~100 lines are all of it that we need, and it would
 * bring five dependencies (asn1.js, http_ece, https-proxy-agent, jws, minimist) to a daemon.
 * @module
 */
import crypto from 'node:crypto';

/** The record size we declare: one record holds any payload we send (the push limit is 4 KB). */
const RECORD_SIZE = 4096;
/** Push services accept 4096 bytes of body; header (86) + tag (16) + delimiter (1) leave this. */
export const MAX_PUSH_PLAINTEXT_BYTES = 3993;
const P256_PUBLIC_BYTES = 65;

export interface PushKeys {
  /** The subscription's P-256 public key, uncompressed (65 bytes), as the browser gives it (base64url). */
  p256dh: string;
  /** The subscription's 16-byte authentication secret (base64url). */
  auth: string;
}

function hmac(key: Buffer, data: Buffer): Buffer {
  return crypto.createHmac('sha256', key).update(data).digest();
}

/** HKDF (RFC 5869) for outputs up to 32 bytes: one expand round. */
function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  const prk = hmac(salt, ikm);
  return hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);
}

/** Decodes a subscription's keys, saying which one is wrong and why. */
export function decodePushKeys(keys: PushKeys): { uaPublic: Buffer; authSecret: Buffer } {
  const uaPublic = Buffer.from(keys.p256dh, 'base64url');
  const authSecret = Buffer.from(keys.auth, 'base64url');
  if (uaPublic.length !== P256_PUBLIC_BYTES || uaPublic[0] !== 4) {
    throw new TypeError(`keys.p256dh must be an uncompressed P-256 public key (65 bytes starting 0x04, base64url); got ${uaPublic.length} bytes`);
  }
  if (authSecret.length !== 16) throw new TypeError(`keys.auth must be 16 bytes (base64url); got ${authSecret.length}`);
  return { uaPublic, authSecret };
}

/**
 * Encrypts `plaintext` for one subscription (RFC 8291 §3.4, one aes128gcm record). `salt` and
 * `senderPrivate` are fresh random values unless given (the RFC's test vector gives them).
 */
export function encryptPushPayload(plaintext: Buffer, keys: PushKeys, fixed: { salt?: Buffer; senderPrivate?: Buffer } = {}): Buffer {
  if (plaintext.length > MAX_PUSH_PLAINTEXT_BYTES) throw new RangeError(`a push payload holds at most ${MAX_PUSH_PLAINTEXT_BYTES} bytes; got ${plaintext.length}`);
  const { uaPublic, authSecret } = decodePushKeys(keys);
  const sender = crypto.createECDH('prime256v1');
  if (fixed.senderPrivate) sender.setPrivateKey(fixed.senderPrivate);
  else sender.generateKeys();
  const asPublic = sender.getPublicKey();
  const ecdhSecret = sender.computeSecret(uaPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const salt = fixed.salt ?? crypto.randomBytes(16);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const cipher = crypto.createCipheriv('aes-128-gcm', cek, nonce);
  // 0x02: the padding delimiter of the last (here: only) record.
  const ciphertext = Buffer.concat([cipher.update(Buffer.concat([plaintext, Buffer.from([2])])), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(16 + 4 + 1);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header.writeUInt8(asPublic.length, 20);
  return Buffer.concat([header, asPublic, ciphertext]);
}

/** The daemon's VAPID key pair: the public key as browsers take it (raw, base64url) and the private one as a JWK. */
export interface VapidKeys {
  publicKey: string;
  privateJwk: crypto.JsonWebKey;
}

export function generateVapidKeys(): VapidKeys {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { publicKey: rawPublicKey(publicKey.export({ format: 'jwk' })), privateJwk: privateKey.export({ format: 'jwk' }) };
}

/** `0x04 || x || y`, base64url: the form `applicationServerKey` and the `k=` parameter take. */
export function rawPublicKey(jwk: crypto.JsonWebKey): string {
  return Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]).toString('base64url');
}

/** 12 h: under the 24 h RFC 8292 allows, so a push service's clock skew never rejects it. */
export const VAPID_TTL_SEC = 12 * 60 * 60;

/** The `Authorization` header value for a request to `endpoint` (RFC 8292 §3: `vapid t=<jwt>, k=<key>`). */
export function vapidAuthorization(endpoint: string, keys: VapidKeys, subject: string, nowMs: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { aud: new URL(endpoint).origin, exp: Math.floor(nowMs / 1000) + VAPID_TTL_SEC, sub: subject };
  const signingInput = `${encode({ typ: 'JWT', alg: 'ES256' })}.${encode(claims)}`;
  const key = crypto.createPrivateKey({ key: keys.privateJwk, format: 'jwk' });
  const signature = crypto.sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${signingInput}.${signature.toString('base64url')}, k=${keys.publicKey}`;
}
