/**
 * `specterm test [spec…]`: replays every recording that has expectations and checks them.
 *
 * @module
 */
import { discoverSpecTests, runSpecTestCase } from '../../harness/spec-test.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';

export const testCommand = defineCommand(
  {
    ...describeCommand('test'),
    positionals: [{ name: '[spec]', required: false, variadic: true, help: 'built-in spec ids or spec.json paths (default: every built-in spec)' }],
    flags: {},
    notes: ['Exit codes: 0 all passed, 1 a test failed, 2 bad input (unknown spec).'],
  },
  async ({ positionals }, io) => {
    const { cases, errors } = discoverSpecTests(positionals);
    if (errors.length) throw new CliUsageError('test', errors.join('\n'), 'CLI_UNKNOWN_SPEC');
    if (cases.length === 0) {
      io.stdout.write('no recordings with expectations found (specs/<id>/recordings/<name>.cast + <name>.expect.json)\n');
      return 0;
    }
    let failed = 0;
    for (const c of cases) {
      const r = runSpecTestCase(c);
      io.stdout.write(`${r.report}\n`);
      if (!r.ok) failed += 1;
    }
    io.stdout.write(`\n${cases.length - failed} passed, ${failed} failed (${cases.length} recordings)\n`);
    return failed ? 1 : 0;
  },
);
