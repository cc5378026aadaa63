/**
 * `specterm ls`: the daemon's sessions, running and exited.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { formatTable, withDaemon } from './daemon-connection.js';

export const lsCommand = defineCommand(
  { ...describeCommand('ls'), positionals: [], flags: { json: { type: 'boolean', flag: 'json', help: 'print the API\'s JSON' } } },
  ({ flags }, io) => withDaemon('ls', io, async (client) => {
    const { sessions } = await client.call('listSessions');
    if (flags.json) { io.stdout.write(JSON.stringify(sessions, null, 2) + '\n'); return 0; }
    const rows = sessions.map((s) => [
      s.id, s.name ?? '-', s.lifecycle === 'running' ? (s.state?.id ?? '-') + (s.state?.background ? ` · ${s.state.background.what}` : '') + (s.modal ? ' (needs you)' : '') : `${s.lifecycle}${s.exit ? ` code=${s.exit.code ?? '-'} signal=${s.exit.signal ?? '-'}${s.exit.killed_by ? ` killed by ${s.exit.killed_by.name}` : ''}` : ''}`,
      s.spec.id, s.cwd,
    ]);
    io.stdout.write(formatTable([['ID', 'NAME', 'STATE', 'SPEC', 'CWD'], ...rows]));
    return 0;
  }),
);
