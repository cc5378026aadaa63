/**
 * The daemon's VAPID key pair, made on the first start and kept in `<state>/push-vapid.json`
 * (0600, written to a temp file and linked into place, so two daemons starting at once keep one
 * pair). The pair must outlive restarts: every browser subscription is bound to its public key.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateFileOnce } from '../fs/private-file.js';
import { generateVapidKeys, rawPublicKey, type VapidKeys } from './push-crypto.js';

export const VAPID_KEYS_FILE = 'push-vapid.json';

export class PushKeysError extends Error {
  readonly code = 'PUSH_KEYS_INVALID';
}

/** Reads the pair, or makes and stores one when the file does not exist. */
export function ensureVapidKeys(stateDir: string): { keys: VapidKeys; path: string; created: boolean } {
  const file = path.join(stateDir, VAPID_KEYS_FILE);
  try {
    return { keys: readKeys(file), path: file, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = generateVapidKeys();
  if (!createPrivateFileOnce(file, JSON.stringify({ public_key: keys.publicKey, private_jwk: keys.privateJwk }) + '\n')) {
    return { keys: readKeys(file), path: file, created: false };
  }
  return { keys, path: file, created: true };
}

function readKeys(file: string): VapidKeys {
  const text = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  if ((stat.mode & 0o077) !== 0) {
    throw new PushKeysError(`${file} is readable by others (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 on it (it holds the Web Push private key)`);
  }
  let parsed: { public_key?: unknown; private_jwk?: { kty?: unknown; crv?: unknown; d?: unknown; x?: unknown; y?: unknown } };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new PushKeysError(`${file} is not JSON (${(error as Error).message}); remove it to make a new key pair (browsers then subscribe again)`);
  }
  const jwk = parsed.private_jwk;
  if (!jwk || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new PushKeysError(`${file}: private_jwk must be a P-256 EC private JWK; remove the file to make a new key pair (browsers then subscribe again)`);
  }
  const publicKey = rawPublicKey(jwk as { x: string; y: string });
  if (parsed.public_key !== publicKey) throw new PushKeysError(`${file}: public_key does not match private_jwk; remove the file to make a new key pair`);
  return { publicKey, privateJwk: jwk as VapidKeys['privateJwk'] };
}
