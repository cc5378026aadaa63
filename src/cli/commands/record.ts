/**
 * `specterm record <spec-id|path> -o FILE.cast`: `run`, recording output, input and resizes.
 *
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import { runInteractive } from '../interactive.js';

export const recordCommand = defineCommand(
  {
    ...describeCommand('record'),
    positionals: [{ name: '<spec-id|path>', required: true, help: 'built-in spec id or path to a spec.json' }],
    flags: {
      output: { type: 'string', flag: 'output', short: 'o', value: 'FILE.cast', help: 'where to write the recording (required)' },
      cwd: { type: 'string', flag: 'cwd', value: 'DIR', help: 'working directory of the agent (default: the current directory)' },
      noTrust: { type: 'boolean', flag: 'no-trust', help: 'do not pre-trust the folder in the agent\'s settings (pre_launch_trust)' },
      binary: { type: 'string', flag: 'binary', value: 'PATH', help: 'run this executable instead of the spec\'s binary (e.g. a CLI installed outside PATH)' },
    },
    passthrough: 'extra arguments for the agent, after the spec\'s spawn_args',
    notes: ['Exit code: the agent\'s (128+N when it died of signal N); 2 bad input; 127 the agent could not be started (its binary was not found: install it or pass --binary PATH).'],
  },
  async ({ flags, positionals, passthrough }, io) => {
    if (!flags.output) throw new CliUsageError('record', 'missing -o FILE.cast: where to write the recording', 'CLI_MISSING_ARGUMENT');
    return runInteractive({
      command: 'record',
      specRef: positionals[0]!,
      cwd: flags.cwd,
      record: flags.output,
      applyTrust: !flags.noTrust,
      binary: flags.binary,
      extraArgs: passthrough,
    }, io);
  },
);
