/**
 * `specterm schema`: the JSON Schema of the spec format, for editors and external tools.
 *
 * @module
 */
import { SPEC_JSON_SCHEMA } from '../../core/spec/index.js';
import { defineCommand } from '../command.js';

export const schemaCommand = defineCommand(
  {
    name: 'schema',
    summary: 'Print the JSON Schema of the adhdev:cli/spec@4 format.',
    positionals: [],
    flags: {},
  },
  async (_args, io) => {
    io.stdout.write(`${JSON.stringify(SPEC_JSON_SCHEMA, null, 2)}\n`);
    return 0;
  },
);
