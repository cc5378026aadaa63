/**
 * `--nats URL` and `--nats-creds FILE`, as `serve` and `hub` take them: a URL (or a cluster's,
 * separated by commas) without credentials (a command line is visible to every process) and the credentials from a private
 * file (src/nats/credentials.ts). Refusals are usage errors naming the flag.
 * @module
 */
import type { Authenticator } from '@nats-io/transport-node';
import { CliUsageError } from './errors.js';

export async function readNatsFlags(command: string, flags: { nats?: string; natsCreds?: string }): Promise<{ url: string; authenticator?: Authenticator } | undefined> {
  if (flags.natsCreds !== undefined && flags.nats === undefined) {
    throw new CliUsageError(command, '--nats-creds needs --nats <url>', 'CLI_BAD_VALUE');
  }
  if (flags.nats === undefined) return undefined;
  const { parseNatsServers } = await import('../nats/servers.js');
  const parsed = parseNatsServers(flags.nats);
  if ('error' in parsed) throw new CliUsageError(command, `--nats: ${parsed.error}`, 'CLI_BAD_VALUE');
  if (flags.natsCreds === undefined) return { url: flags.nats };
  const { readNatsCredentials, NatsCredentialsError } = await import('../nats/credentials.js');
  try {
    return { url: flags.nats, authenticator: readNatsCredentials(flags.natsCreds) };
  } catch (error) {
    if (error instanceof NatsCredentialsError) throw new CliUsageError(command, `--nats-creds: ${error.message}`, 'CLI_BAD_VALUE');
    throw error;
  }
}
