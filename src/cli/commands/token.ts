/**
 * `specterm token create --scope S --name N | list | revoke ID`: the daemon's device tokens.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import { formatTable, withDaemon } from './daemon-connection.js';

export const tokenCommand = defineCommand(
  {
    ...describeCommand('token'),
    positionals: [{ name: '<create|list|revoke>', required: true, help: 'what to do' }, { name: '[id]', required: false, help: 'the token id (revoke)' }],
    flags: {
      scope: { type: 'string', flag: 'scope', value: 'S', choices: ['read', 'approve', 'input', 'admin'], help: 'scope of the new token (create)' },
      name: { type: 'string', flag: 'name', value: 'N', help: 'name of the new token, e.g. phone (create)' },
    },
  },
  ({ flags, positionals }, io) => withDaemon('token', io, async (client) => {
    const action = positionals[0];
    if (action === 'create') {
      if (!flags.scope || !flags.name) throw new CliUsageError('token', 'token create needs --scope read|approve|input|admin and --name NAME', 'CLI_MISSING_ARGUMENT');
      const made = await client.call('createToken', { body: { name: flags.name, scope: flags.scope as 'read' } });
      io.stdout.write(`${made.token}\n`);
      io.stderr.write(`token ${made.record.id} (${flags.scope}) created; the secret above is shown once\n`);
      return 0;
    }
    if (action === 'list') {
      const { tokens } = await client.call('listTokens');
      io.stdout.write(formatTable([['ID', 'NAME', 'SCOPE', 'CREATED'], ...tokens.map((t) => [t.id, t.name, t.scope, new Date(t.created_at).toISOString()])]));
      return 0;
    }
    if (action === 'revoke') {
      if (!positionals[1]) throw new CliUsageError('token', 'token revoke needs the token id (see `specterm token list`)', 'CLI_MISSING_ARGUMENT');
      await client.call('revokeToken', { params: { id: positionals[1] } });
      io.stdout.write(`revoked ${positionals[1]}\n`);
      return 0;
    }
    throw new CliUsageError('token', `unknown action ${JSON.stringify(action)}; use create, list or revoke`, 'CLI_BAD_VALUE');
  }),
);
