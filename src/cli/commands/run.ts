/**
 * `specterm run <spec-id|path>`: the agent in your terminal with a one-row status bar.
 *
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { runInteractive } from '../interactive.js';

export const runCommand = defineCommand(
  {
    ...describeCommand('run'),
    positionals: [{ name: '<spec-id|path>', required: true, help: 'built-in spec id (see `specterm list`) or path to a spec.json' }],
    flags: {
      cwd: { type: 'string', flag: 'cwd', value: 'DIR', help: 'working directory of the agent (default: the current directory)' },
      record: { type: 'string', flag: 'record', value: 'FILE.cast', help: 'also record the session (asciicast v2, mode 0600)' },
      noTrust: { type: 'boolean', flag: 'no-trust', help: 'do not pre-trust the folder in the agent\'s settings (pre_launch_trust)' },
      binary: { type: 'string', flag: 'binary', value: 'PATH', help: 'run this executable instead of the spec\'s binary (e.g. a CLI installed outside PATH)' },
    },
    passthrough: 'extra arguments for the agent, after the spec\'s spawn_args',
    notes: ['Exit code: the agent\'s (128+N when it died of signal N); 2 bad input; 127 the agent could not be started (its binary was not found: install it or pass --binary PATH).'],
  },
  async ({ flags, positionals, passthrough }, io) => runInteractive({
    command: 'run',
    specRef: positionals[0]!,
    cwd: flags.cwd,
    record: flags.record,
    applyTrust: !flags.noTrust,
    binary: flags.binary,
    extraArgs: passthrough,
  }, io),
);
