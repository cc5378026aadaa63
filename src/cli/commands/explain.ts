/**
 * `specterm explain <file.cast> --spec X --at T`: the screen, the sections, the state and the
 * full transition table with per-condition results at one instant of a recording.
 *
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import { readRecordingArg } from '../recording-arg.js';
import { loadSpecArg } from '../spec-arg.js';
import { explainReplayAt, formatExplanation, formatSeconds, recordingEndMs } from '../../harness/explain.js';

export const explainCommand = defineCommand(
  {
    ...describeCommand('explain'),
    positionals: [{ name: '<file.cast>', required: true, help: 'asciicast v2 recording' }],
    flags: {
      spec: { type: 'string', flag: 'spec', value: '<id|path>', help: 'built-in spec id or path to a spec.json (required)' },
      at: { type: 'number', flag: 'at', value: 'T', min: 0, help: 'instant to explain, in seconds of recording time (required)' },
      allowTruncated: { type: 'boolean', flag: 'allow-truncated', help: 'read a recording whose last line was cut off (drops that line)' },
    },
    notes: ['Exit codes: 0 ok, 2 bad input (flags, spec, recording, --at beyond the end).'],
  },
  async ({ flags, positionals }, io) => {
    if (!flags.spec) throw new CliUsageError('explain', 'missing --spec <id|path>: name the spec that reads this recording', 'CLI_MISSING_ARGUMENT');
    if (flags.at === undefined) throw new CliUsageError('explain', 'missing --at T: the instant to explain, in seconds (see `specterm replay` for the change times)', 'CLI_MISSING_ARGUMENT');
    const file = positionals[0]!;
    const cast = readRecordingArg('explain', file, io.cwd, flags.allowTruncated);
    const spec = loadSpecArg('explain', flags.spec, io.cwd);
    const atMs = Math.round(flags.at * 1000);
    const endMs = recordingEndMs(cast);
    if (atMs > endMs) {
      throw new CliUsageError('explain', `--at ${flags.at} is beyond the end of ${file} (its last event is at ${formatSeconds(endMs)} s); pass a time between 0 and ${formatSeconds(endMs)}`, 'CLI_BAD_VALUE');
    }
    const e = explainReplayAt({ cast, spec: spec.spec, specPath: spec.path, atMs });
    io.stdout.write(`${file} under ${spec.builtinId ?? spec.path}\n`);
    io.stdout.write(formatExplanation(e));
    return 0;
  },
);
