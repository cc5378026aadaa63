/**
 * `specterm graph <spec> [--format mermaid|dot]`: the state machine as a diagram.
 *
 * @module
 */
import { renderGraph } from '../../core/spec/index.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { loadSpecArg } from '../spec-arg.js';

export const graphCommand = defineCommand(
  {
    ...describeCommand('graph'),
    positionals: [{ name: '<spec>', required: true, help: 'built-in spec id or path to a spec.json' }],
    flags: {
      format: { type: 'string', flag: 'format', value: 'FORMAT', choices: ['mermaid', 'dot'], help: 'diagram language (default mermaid)' },
    },
  },
  async ({ flags, positionals }, io) => {
    const spec = loadSpecArg('graph', positionals[0]!, io.cwd);
    const format = flags.format === 'dot' ? 'dot' : 'mermaid';
    const text = renderGraph(spec.spec, format);
    io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return 0;
  },
);
