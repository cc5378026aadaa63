/**
 * Sealing a session's environment overrides for the store, so `restart` after a daemon restart
 * starts the agent with the same env while the values never sit in the database in clear.
 *
 * AES-256-GCM with a 256-bit key kept in `<state>/env-key` (0600, made on first use, never
 * logged), the session id as associated data (a sealed blob cannot be moved to another
 * session). Someone who copies only the database (a backup, a bug report) learns the variable
 * names, not their values. Why not keep the values in the PTY host's memory: they would then be
 * lost with the host (a reboot) although the session's record stays and can be restarted, and
 * the host would hold secrets for a daemon feature.
 *
 * @module
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateFileOnce } from '../fs/private-file.js';
import { DaemonError } from './errors.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Blob layout version (first byte), so the format can change without guessing. */
const FORMAT = 1;

/** Seals and opens env maps for one state dir. */
export interface EnvSeal {
  seal(sessionId: string, env: Readonly<Record<string, string>>): Buffer;
  /** @throws DaemonError `ENV_UNSEALABLE` when the blob was not sealed with this key for this session. */
  open(sessionId: string, sealed: Buffer): Record<string, string>;
}

/** Reads `<stateDir>/env-key`, creating it (0600, link so two daemons agree on one key) when missing. */
function ensureKey(stateDir: string): Buffer {
  const file = path.join(stateDir, 'env-key');
  try {
    return checkedKey(file, fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  createPrivateFileOnce(file, randomBytes(KEY_BYTES));
  return checkedKey(file, fs.readFileSync(file));
}

function checkedKey(file: string, key: Buffer): Buffer {
  if (key.length !== KEY_BYTES) {
    throw new DaemonError('ENV_UNSEALABLE', `${file} holds ${key.length} bytes, not a ${KEY_BYTES}-byte key; move it away (sessions sealed with it lose their env overrides on restart)`);
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) {
    throw new DaemonError('ENV_UNSEALABLE', `${file} is readable by others; chmod 600 it`);
  }
  return key;
}

/** The seal of `stateDir` (the key is made on first call). */
export function openEnvSeal(stateDir: string): EnvSeal {
  const key = ensureKey(stateDir);
  return {
    seal(sessionId, env) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(sessionId, 'utf8'));
      const body = Buffer.concat([cipher.update(JSON.stringify(env), 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]);
    },
    open(sessionId, sealed) {
      try {
        if (sealed[0] !== FORMAT) throw new Error(`unknown format ${sealed[0]}`);
        const iv = sealed.subarray(1, 1 + IV_BYTES);
        const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(sessionId, 'utf8'));
        decipher.setAuthTag(tag);
        const text = Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
        return JSON.parse(text) as Record<string, string>;
      } catch (error) {
        throw new DaemonError('ENV_UNSEALABLE', `session ${sessionId}: its env overrides cannot be opened with this state dir's env-key (${(error as Error).message}); recreate the session with its env`);
      }
    },
  };
}
