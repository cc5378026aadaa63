/**
 * `specterm kill <session>` and `specterm rm <session> [--force]`.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { withDaemon } from './daemon-connection.js';

const session = [{ name: '<session>', required: true, help: 'session id or name' }] as const;

export const killCommand = defineCommand(
  { ...describeCommand('kill'), positionals: session, flags: {} },
  ({ positionals }, io) => withDaemon('kill', io, async (client) => {
    const d = await client.call('killSession', { params: { id: positionals[0]! } });
    io.stdout.write(`${d.id} ${d.lifecycle}${d.exit ? ` code=${d.exit.code ?? '-'} signal=${d.exit.signal ?? '-'}${d.exit.killed_by ? ` killed by ${d.exit.killed_by.name}` : ''}` : ''}\n`);
    return 0;
  }),
);

export const rmCommand = defineCommand(
  { ...describeCommand('rm'), positionals: session, flags: { force: { type: 'boolean', flag: 'force', help: 'remove a worktree with uncommitted changes' } } },
  ({ flags, positionals }, io) => withDaemon('rm', io, async (client) => {
    await client.call('removeSession', { params: { id: positionals[0]! }, query: { force: flags.force ? 'true' : undefined } });
    io.stdout.write(`removed ${positionals[0]}\n`);
    return 0;
  }),
);
