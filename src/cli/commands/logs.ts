/**
 * `specterm logs <session>`: a session's state history from the daemon's database, oldest first.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { formatTable, withDaemon } from './daemon-connection.js';

export const logsCommand = defineCommand(
  { ...describeCommand('logs'), positionals: [{ name: '<session>', required: true, help: 'session id or name' }], flags: { limit: { type: 'number', flag: 'limit', value: 'N', min: 1, help: 'at most this many entries, newest kept (default 100)' } } },
  ({ flags, positionals }, io) => withDaemon('logs', io, async (client) => {
    const page = await client.call('getHistory', { params: { id: positionals[0]! }, query: { limit: Math.min(flags.limit ?? 100, 500) } });
    const rows = [...page.entries].reverse().map((e) => [new Date(e.at).toISOString(), e.state.id, e.state.status, e.duration_ms === null ? '-' : `${e.duration_ms} ms`]);
    io.stdout.write(formatTable([['AT (UTC)', 'STATE', 'STATUS', 'LASTED'], ...rows]));
    return 0;
  }),
);
