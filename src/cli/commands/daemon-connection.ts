/**
 * What every daemon verb (`ls`, `new`, `send`, …) shares: finding the daemon and its token, and
 * turning the client's refusals into one line on stderr with their stable code.
 *
 * Exit codes of the daemon verbs: 0 done, 1 the daemon refused (the code says why), 2 bad input,
 * 3 no daemon running or the token is missing/wrong.
 *
 * @module
 */
import { ClientError, DaemonClient } from '../../client/index.js';
import { resolveRuntimeDir, resolveStateDir } from '../../server/paths.js';
import { EXIT_USAGE } from '../errors.js';
import type { CliIo } from '../io.js';

/** The daemon is not reachable or does not accept our token. */
export const EXIT_NO_DAEMON = 3;
/** The daemon refused the request. */
export const EXIT_REFUSED = 1;
/** `send --wait`: the turn waits for a person (an approval, a picker, a confirm) — answer it, then wait again. */
export const EXIT_BLOCKED = 4;

const NO_DAEMON_CODES = new Set(['DAEMON_NOT_RUNNING', 'TOKEN_MISSING', 'PROTOCOL_MISMATCH', 'AUTH_REQUIRED', 'AUTH_INVALID', 'AUTH_MALFORMED']);

/** Runs `work` with a client of the running daemon; refusals become one stderr line and an exit code. */
export async function withDaemon(command: string, io: CliIo, work: (client: DaemonClient) => Promise<number>): Promise<number> {
  try {
    const client = DaemonClient.discover({ runtimeDir: resolveRuntimeDir(io.env), stateDir: resolveStateDir(io.env), env: io.env });
    return await work(client);
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    const hint = error.code === 'AUTH_INVALID' ? ' (check SPECTERM_TOKEN, or unset it to use the admin token file)' : '';
    // A request's field errors say what to fix by themselves; the request line before them is the API's, not the user's.
    const listed: unknown = error.code === 'VALIDATION_FAILED' ? error.problem?.errors : undefined;
    const fields = Array.isArray(listed)
      ? listed.flatMap((e: { message?: unknown }) => (typeof e?.message === 'string' ? [e.message.replace(/^\//, '')] : []))
      : [];
    const message = fields.length > 0 ? fields.join('; ') : error.message.replace(`${error.code}: `, '');
    io.stderr.write(`specterm ${command}: ${error.code}: ${message}${hint}\n`);
    if (NO_DAEMON_CODES.has(error.code)) return EXIT_NO_DAEMON;
    // The daemon found the request itself wrong (a field the caller gave): bad input, as for flags.
    return error.code === 'VALIDATION_FAILED' ? EXIT_USAGE : EXIT_REFUSED;
  }
}

/** Prints a table of rows (first row = header), columns padded. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}
