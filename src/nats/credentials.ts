/**
 * NATS credentials from a file (never from the command line, never logged): a `.creds` file
 * (a user JWT and its nkey seed, as `nsc` writes it), an nkey seed alone (`SU…`), or a JSON
 * file `{"user": …, "pass": …}` or `{"token": …}`. The file must be private (0600).
 * @module
 */
import fs from 'node:fs';
import { credsAuthenticator, nkeyAuthenticator, tokenAuthenticator, usernamePasswordAuthenticator, type Authenticator } from '@nats-io/transport-node';

export class NatsCredentialsError extends Error {
  readonly code = 'NATS_CREDENTIALS_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'NatsCredentialsError';
  }
}

export function readNatsCredentials(file: string): Authenticator {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if ((stat.mode & 0o077) !== 0) throw new NatsCredentialsError(`${file} has mode ${(stat.mode & 0o777).toString(8)}; credentials need a private file: run \`chmod 600 ${file}\``);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof NatsCredentialsError) throw error;
    throw new NatsCredentialsError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the path of a NATS credentials file`);
  }
  if (text.includes('-----BEGIN NATS USER JWT-----')) return credsAuthenticator(new TextEncoder().encode(text));
  const trimmed = text.trim();
  if (/^SU[A-Z2-7]{56}$/.test(trimmed)) return nkeyAuthenticator(new TextEncoder().encode(trimmed));
  let parsed: unknown;
  try { parsed = JSON.parse(trimmed); } catch { parsed = null; }
  const o = parsed as { user?: unknown; pass?: unknown; token?: unknown } | null;
  if (o && typeof o.user === 'string' && typeof o.pass === 'string') return usernamePasswordAuthenticator(o.user, o.pass);
  if (o && typeof o.token === 'string') return tokenAuthenticator(o.token);
  throw new NatsCredentialsError(`${file} holds no NATS credentials this reads: a .creds file (user JWT + nkey seed), an nkey seed (SU…), or JSON {"user": "…", "pass": "…"} or {"token": "…"}`);
}
