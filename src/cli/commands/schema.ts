/**
 * `specterm schema`: the JSON Schema of the spec format, for editors and external tools.
 *
 * @module
 */
import { SPEC_JSON_SCHEMA } from '../../core/spec/index.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';

export const schemaCommand = defineCommand(
  {
    ...describeCommand('schema'),
    positionals: [],
    flags: {},
  },
  async (_args, io) => {
    io.stdout.write(`${JSON.stringify(SPEC_JSON_SCHEMA, null, 2)}\n`);
    return 0;
  },
);
