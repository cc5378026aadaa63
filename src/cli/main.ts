/**
 * The `specterm` command: dispatches to one module per sub-command, loaded only when that
 * command runs (./command-table.ts). Bad input (flags, arguments, spec references, recordings)
 * prints one clear message on stderr and exits 2; nothing a user can type produces a stack trace.
 *
 * @module
 */
import { COMMANDS, findCommand } from './command-table.js';
import { CliUsageError, EXIT_INTERNAL, EXIT_USAGE, SYNTAX_ERROR_CODES } from './errors.js';
import { processIo, type CliIo } from './io.js';
import { packageVersion } from './version.js';

export { COMMANDS } from './command-table.js';

/** The top-level help, generated from the command list. */
export function formatMainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const firstSentence = (s: string) => s.split(/(?<=\.)\s/)[0]!;
  return [
    'Usage: specterm <command> [args] [flags]',
    '',
    'Run interactive AI coding-agent CLIs under a declarative state-machine spec (adhdev:cli/spec@4).',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${firstSentence(c.summary)}`),
    '',
    'Run `specterm <command> --help` for the flags of a command.',
    'Exit code 2 means bad input (flags, arguments, specs, recordings); 127 that the agent could not be started; 70 an internal error.',
    '',
  ].join('\n');
}

/**
 * Runs the command line `argv` (without `node` and the script) and resolves to the exit code.
 *
 * @param io - streams to use (default: the process's); tests pass an in-memory one.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(formatMainHelp());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const sub = name === 'help' ? findCommand(rest[0]) : undefined;
    io.stdout.write(sub ? (await sub.load()).help() : formatMainHelp());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`specterm ${packageVersion()}\n`);
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) {
    io.stderr.write(`specterm: unknown command "${name}" (commands: ${COMMANDS.map((c) => c.name).join(', ')}); run \`specterm --help\`\n`);
    return EXIT_USAGE;
  }
  try {
    return await (await entry.load()).invoke(rest, io);
  } catch (err) {
    if (err instanceof CliUsageError) {
      io.stderr.write(`specterm ${entry.name}: ${err.message}\n`);
      if (SYNTAX_ERROR_CODES.has(err.code)) io.stderr.write(`run \`specterm ${entry.name} --help\` for usage\n`);
      return EXIT_USAGE;
    }
    // Not a user mistake: say so, without a stack trace unless asked for one.
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`specterm ${entry.name}: internal error: ${message}\n`);
    if (io.env.SPECTERM_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT_INTERNAL;
  }
}
