/**
 * `specterm replay <file.cast> --spec <id|path>`: the recording through the real driver in
 * virtual time; one line per committed change of state, status or modal.
 *
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import { readRecordingArg } from '../recording-arg.js';
import { formatChangeJson, formatChangeTable } from '../replay-format.js';
import { loadSpecArg } from '../spec-arg.js';
import { DEFAULT_TAIL_MS, replaySession } from '../../harness/replay-session.js';

export const replayCommand = defineCommand(
  {
    ...describeCommand('replay'),
    positionals: [{ name: '<file.cast>', required: true, help: 'asciicast v2 recording' }],
    flags: {
      spec: { type: 'string', flag: 'spec', value: '<id|path>', help: 'built-in spec id or path to a spec.json (required)' },
      json: { type: 'boolean', flag: 'json', help: 'one JSON object per line: {"t","state","status","modal"}' },
      tailMs: { type: 'number', flag: 'tail-ms', value: 'N', min: 0, help: `after the last event, let virtual time run N ms so time-based transitions settle (default ${DEFAULT_TAIL_MS})` },
      until: { type: 'number', flag: 'until', value: 'T', min: 0, help: 'stop at T seconds of recording time' },
      allowTruncated: { type: 'boolean', flag: 'allow-truncated', help: 'replay a recording whose last line was cut off (drops that line)' },
    },
    notes: [
      'JSON line: {"t": <seconds>, "state": <id>, "status": "idle"|"generating"|"approval"|"waiting_external",',
      '            "modal": null | {"title": string|null, "buttons": [{"index": n, "label": s}], "kind": "approval"|"picker"|"confirm"|null}}',
      'Exit codes: 0 ok, 2 bad input (flags, spec, recording).',
    ],
  },
  async ({ flags, positionals }, io) => {
    if (!flags.spec) throw new CliUsageError('replay', 'missing --spec <id|path>: name the spec that reads this recording (e.g. --spec demo-agent)', 'CLI_MISSING_ARGUMENT');
    const cast = readRecordingArg('replay', positionals[0]!, io.cwd, flags.allowTruncated);
    const spec = loadSpecArg('replay', flags.spec, io.cwd);
    const r = replaySession({
      cast,
      spec: spec.spec,
      specPath: spec.path,
      tailMs: flags.tailMs,
      untilMs: flags.until === undefined ? undefined : Math.round(flags.until * 1000),
    });
    r.driver.shutdown();
    if (flags.json) {
      for (const c of r.changes) io.stdout.write(`${formatChangeJson(c)}\n`);
    } else {
      io.stdout.write(formatChangeTable(r.changes));
    }
    return 0;
  },
);
