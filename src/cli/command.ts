/**
 * A sub-command: its syntax table and its action, erased to one shape so `main` can keep a
 * plain list of commands while each command keeps fully typed flag values.
 *
 * @module
 */
import { formatCommandHelp, parseCommandLine, type CommandSyntax, type FlagTable, type ParsedCommandLine } from './flags.js';
import type { CliIo } from './io.js';

/** A command as `main` sees it. */
export interface RegisteredCommand {
  name: string;
  summary: string;
  /** The generated help text. */
  help(): string;
  /** Parses `argv` (after the command name) and runs; resolves to the exit code. */
  invoke(argv: readonly string[], io: CliIo): Promise<number>;
}

/**
 * Declares a command from its flag table and action. `--help` is handled here for every command.
 *
 * @example
 * export const schemaCommand = defineCommand({ name: 'schema', summary: '…', positionals: [], flags: {} },
 *   async (_args, io) => { io.stdout.write('{}\n'); return 0; });
 */
export function defineCommand<T extends FlagTable>(
  syntax: CommandSyntax<T>,
  run: (args: ParsedCommandLine<T>, io: CliIo) => Promise<number>,
): RegisteredCommand {
  return {
    name: syntax.name,
    summary: syntax.summary,
    help: () => formatCommandHelp(syntax),
    invoke: async (argv, io) => {
      const parsed = parseCommandLine(syntax, argv);
      if (parsed.help) {
        io.stdout.write(formatCommandHelp(syntax));
        return 0;
      }
      return run(parsed, io);
    },
  };
}
