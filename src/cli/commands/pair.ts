/**
 * `specterm pair [--name N] [--scope S]`: a one-time pairing URL for another device (a second
 * browser, a phone). Opening it signs that device in to the dashboard with its own device token,
 * which `specterm token list` shows and `specterm token revoke` ends.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { withDaemon } from './daemon-connection.js';

export const pairCommand = defineCommand(
  {
    ...describeCommand('pair'),
    positionals: [],
    flags: {
      name: { type: 'string', flag: 'name', value: 'N', help: 'the device\'s name, shown in `specterm token list` (default: device)' },
      scope: { type: 'string', flag: 'scope', value: 'S', choices: ['read', 'approve', 'input', 'admin'], help: 'what the device may do (default approve: watch and answer approvals, not type)' },
    },
    notes: ['The URL works once and expires in 10 minutes. Revoke a device with `specterm token revoke <id>`.'],
  },
  ({ flags }, io) => withDaemon('pair', io, async (client) => {
    const scope = (flags.scope ?? 'approve') as 'read' | 'approve' | 'input' | 'admin';
    const pairing = await client.call('createPairing', { body: { device_name: flags.name ?? 'device', scope } });
    const minutes = Math.max(1, Math.round((pairing.expires_at - Date.now()) / 60_000));
    io.stdout.write(`${pairing.url}\n`);
    io.stderr.write(`specterm pair: open it on the device "${pairing.device_name}" (${scope} scope); it works once and expires in ${minutes} minutes\n`);
    const { phonePairingText } = await import('../../server/pairing-qr.js');
    const phone = phonePairingText(pairing.url);
    if ('noQr' in phone) io.stderr.write(`specterm pair: ${phone.noQr}\n`);
    else if (io.stdout.isTTY) io.stdout.write(`${phone.qr}\n`);
    return 0;
  }),
);
