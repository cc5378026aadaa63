/**
 * What `specterm serve --lan` adds to a plain `serve`: the address to bind (./lan-address), the
 * kept self-signed certificate (./lan-certificate), and the lines that tell a person how to
 * check it from a phone. Everything else — tokens, pairing, the dashboard — is the daemon's as
 * on loopback; only the address and the TLS differ.
 *
 * @module
 */
import os from 'node:os';
import { CliUsageError } from './errors.js';
import { chooseLanAddress } from './lan-address.js';
import { ensureLanCertificate } from './lan-certificate.js';

/** The address and TLS options for the daemon, and the text to print once it listens. */
export interface LanServing {
  address: string;
  tls: { cert: string; key: string };
  /** Lines for stdout after "listening on …". */
  describe: string;
}

/** The flags `--lan` decides itself. */
export interface LanConflicts { bind?: string; tlsCert?: string; tlsKey?: string }

/** `--lan` with `--bind` or `--tls-cert/--tls-key` would leave two answers to one question. */
export function refuseLanConflicts(flags: LanConflicts): void {
  if (flags.bind !== undefined) {
    throw new CliUsageError('serve', `--lan chooses the address itself; give the address as --lan ${flags.bind} instead of --bind`, 'CLI_BAD_VALUE');
  }
  if (flags.tlsCert !== undefined || flags.tlsKey !== undefined) {
    throw new CliUsageError('serve', '--lan makes its own certificate; to serve yours, use --bind <address> --allow-remote --tls-cert FILE --tls-key FILE instead', 'CLI_BAD_VALUE');
  }
}

/**
 * Chooses the LAN address (`requested` `auto` = this computer's) and the certificate for it.
 *
 * @throws CliUsageError when there is no such address; PrivatePathError when the state dir is not private.
 */
export function prepareLanServing(requested: string, stateDir: string): LanServing {
  const { address, others } = chooseLanAddress(os.networkInterfaces(), requested === 'auto' ? undefined : requested);
  const made = ensureLanCertificate(stateDir, { address, hostname: os.hostname(), now: new Date() });
  const kept = made.status === 'kept' ? `the self-signed certificate kept in ${made.certFile}` : `a new self-signed certificate (kept in ${made.certFile})`;
  const lines = [
    `specterm serve: on the local network, HTTPS with ${kept}; its SHA-256 fingerprint:`,
    `  ${made.fingerprint256}`,
    'specterm serve: a browser warns about a self-signed certificate: accept it only if the certificate it shows has this fingerprint',
  ];
  if (made.status === 'replaced') lines.push('specterm serve: the certificate changed (new address, host name or expiry): a phone that accepted the old one asks again');
  if (others.length > 0) lines.push(`specterm serve: this computer also has ${others.join(', ')}; choose one with --lan <address>`);
  return { address, tls: { cert: made.cert, key: made.key }, describe: `${lines.join('\n')}\n` };
}
