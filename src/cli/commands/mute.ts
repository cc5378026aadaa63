/**
 * `specterm mute <session> [--off]`: stop (or resume) a session's notifications — no toast,
 * push, desktop notification or webhook; its approvals stay listed (docs/daemon-approvals.md).
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { withDaemon } from './daemon-connection.js';

export const muteCommand = defineCommand(
  {
    ...describeCommand('mute'),
    positionals: [{ name: '<session>', required: true, help: 'session id or name' }],
    flags: { off: { type: 'boolean', flag: 'off', help: 'unmute: notify again' } },
  },
  ({ flags, positionals }, io) => withDaemon('mute', io, async (client) => {
    const d = await client.call('muteSession', { params: { id: positionals[0]! }, body: { muted: !flags.off } });
    io.stdout.write(`${d.id} ${d.muted ? 'muted: no notifications, approvals still listed' : 'notifying'}\n`);
    return 0;
  }),
);
