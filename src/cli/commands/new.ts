/**
 * `specterm new <spec> [--cwd DIR] [--name N] [--worktree BRANCH] [-- args]`: starts a session in the daemon.
 * @module
 */
import path from 'node:path';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { withDaemon } from './daemon-connection.js';

export const newCommand = defineCommand(
  {
    ...describeCommand('new'),
    positionals: [{ name: '<spec>', required: true, help: 'built-in spec id or path to a spec.json' }],
    flags: {
      cwd: { type: 'string', flag: 'cwd', value: 'DIR', help: 'working directory (default: the current one)' },
      name: { type: 'string', flag: 'name', value: 'NAME', help: 'a unique name to address the session by' },
      worktree: { type: 'string', flag: 'worktree', value: 'BRANCH', help: 'run in a fresh git worktree on this new branch' },
    },
    passthrough: 'arguments for the agent',
  },
  ({ flags, positionals, passthrough }, io) => withDaemon('new', io, async (client) => {
    const specRef = positionals[0]!;
    // A path is resolved here: the daemon's cwd is not ours.
    const spec = specRef.includes('/') || specRef.endsWith('.json') ? path.resolve(io.cwd, specRef) : specRef;
    const created = await client.call('createSession', {
      body: {
        spec, cwd: path.resolve(io.cwd, flags.cwd ?? '.'), args: passthrough,
        ...(flags.name ? { name: flags.name } : {}), ...(flags.worktree ? { worktree: { branch: flags.worktree } } : {}),
      },
    });
    io.stdout.write(`${created.id}\n`);
    return 0;
  }),
);
