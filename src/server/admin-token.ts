/**
 * The admin token: 256 random bits, created on first start in `<stateDir>/admin-token` (0600,
 * written to a temp file and renamed so a crash never leaves half a token). Never logged,
 * never on a command line. A file that exists but is not private or not a token is refused
 * with the fix, not overwritten (the user may rely on it).
 * @module
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateFileOnce } from '../fs/private-file.js';
import { ensurePrivateDir, PrivatePathError } from './paths.js';

/** 32 random bytes as base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh 256-bit secret, base64url (the format of every specterm token). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Returns the admin token, creating it on first call. `created` says whether it is new. */
export function ensureAdminToken(stateDir: string): { token: string; path: string; created: boolean } {
  ensurePrivateDir(stateDir);
  const file = path.join(stateDir, 'admin-token');
  try {
    return { token: readTokenFile(file), path: file, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = generateSecret();
  // Created once: two daemons starting at once cannot replace each other's token.
  if (!createPrivateFileOnce(file, token + '\n')) return { token: readTokenFile(file), path: file, created: false };
  return { token, path: file, created: true };
}

function readTokenFile(file: string): string {
  const stat = fs.lstatSync(file);
  if (!stat.isFile() || (stat.mode & 0o077) !== 0 || (process.getuid && stat.uid !== process.getuid())) {
    throw new PrivatePathError('ADMIN_TOKEN_NOT_PRIVATE', file,
      `${file} must be a regular file of yours with mode 0600 (it has ${(stat.mode & 0o777).toString(8)}); run \`chmod 600 ${file}\`, or delete it to create a new token`);
  }
  const token = fs.readFileSync(file, 'utf8').trim();
  if (!TOKEN_PATTERN.test(token)) {
    throw new PrivatePathError('ADMIN_TOKEN_INVALID', file, `${file} does not hold a specterm token (43 base64url characters); delete it to create a new one`);
  }
  return token;
}
