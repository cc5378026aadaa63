/**
 * The `specterm` command: dispatches to one module per sub-command. Bad input (flags,
 * arguments, spec references, recordings) prints one clear message on stderr and exits 2;
 * nothing a user can type produces a stack trace.
 *
 * @module
 */
import type { RegisteredCommand } from './command.js';
import { attachCommand } from './commands/attach.js';
import { explainCommand } from './commands/explain.js';
import { graphCommand } from './commands/graph.js';
import { listCommand } from './commands/list.js';
import { recordCommand } from './commands/record.js';
import { replayCommand } from './commands/replay.js';
import { runCommand } from './commands/run.js';
import { schemaCommand } from './commands/schema.js';
import { serveCommand } from './commands/serve.js';
import { lsCommand } from './commands/ls.js';
import { newCommand } from './commands/new.js';
import { sendCommand } from './commands/send.js';
import { approveCommand } from './commands/approve.js';
import { logsCommand } from './commands/logs.js';
import { killCommand, rmCommand } from './commands/kill.js';
import { muteCommand } from './commands/mute.js';
import { tokenCommand } from './commands/token.js';
import { pairCommand } from './commands/pair.js';
import { testCommand } from './commands/test.js';
import { validateCommand } from './commands/validate.js';
import { mcpCommand } from './commands/mcp.js';
import { packageVersion } from './version.js';
import { CliUsageError, EXIT_INTERNAL, EXIT_USAGE, SYNTAX_ERROR_CODES } from './errors.js';
import { processIo, type CliIo } from './io.js';

/** Every sub-command, in help order. */
export const COMMANDS: readonly RegisteredCommand[] = [
  runCommand, recordCommand, replayCommand, explainCommand, testCommand,
  validateCommand, graphCommand, schemaCommand, listCommand, attachCommand,
  serveCommand, lsCommand, newCommand, sendCommand, approveCommand, logsCommand, killCommand, rmCommand, muteCommand, tokenCommand, pairCommand, mcpCommand,
];

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
    const sub = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    io.stdout.write(sub ? sub.help() : formatMainHelp());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`specterm ${packageVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`specterm: unknown command "${name}" (commands: ${COMMANDS.map((c) => c.name).join(', ')}); run \`specterm --help\`\n`);
    return EXIT_USAGE;
  }
  try {
    return await command.invoke(rest, io);
  } catch (err) {
    if (err instanceof CliUsageError) {
      io.stderr.write(`specterm ${command.name}: ${err.message}\n`);
      if (SYNTAX_ERROR_CODES.has(err.code)) io.stderr.write(`run \`specterm ${command.name} --help\` for usage\n`);
      return EXIT_USAGE;
    }
    // Not a user mistake: say so, without a stack trace unless asked for one.
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`specterm ${command.name}: internal error: ${message}\n`);
    if (io.env.SPECTERM_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT_INTERNAL;
  }
}
