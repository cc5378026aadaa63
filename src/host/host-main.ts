/**
 * Entry of the PTY host process (`bin/specterm-host.js`). Started detached by the daemon (or by
 * {@link startHostProcess}); lives until asked to shut down (the `shutdown` request, SIGTERM or
 * SIGINT) and ignores SIGHUP, so it outlives the terminal and the daemon that started it.
 *
 * Usage: `specterm-host [--ring-bytes N] [--max-client-backlog-bytes N] [--max-daemon-backlog-bytes N]`; the socket is `host.sock` in the runtime dir
 * (`SPECTERM_RUNTIME_DIR`, see runtime-dir.ts). Exit codes: 0 after shutdown, 1 on a start
 * failure, 3 when a host already runs.
 *
 * @module
 */
import { HostError, messageOf } from './errors.js';
import { DEFAULT_MAX_CLIENT_BACKLOG_BYTES, DEFAULT_MAX_DAEMON_BACKLOG_BYTES, DEFAULT_RING_BYTES, HostServer } from './host-server.js';
import { ensureRuntimeDir, hostSocketPath } from './runtime-dir.js';

/** Exit code when another host already serves the runtime dir. */
export const EXIT_ALREADY_RUNNING = 3;

const USAGE = 'usage: specterm-host [--ring-bytes N] [--max-client-backlog-bytes N] [--max-daemon-backlog-bytes N]';

const FLAGS = { '--ring-bytes': 'ringBytes', '--max-client-backlog-bytes': 'maxClientBacklogBytes', '--max-daemon-backlog-bytes': 'maxDaemonBacklogBytes' } as const;

/** Parses the flags; throws naming the flag and the value. */
export function parseHostArgs(argv: string[]): { ringBytes: number; maxClientBacklogBytes: number; maxDaemonBacklogBytes: number } {
  const parsed = { ringBytes: DEFAULT_RING_BYTES, maxClientBacklogBytes: DEFAULT_MAX_CLIENT_BACKLOG_BYTES, maxDaemonBacklogBytes: DEFAULT_MAX_DAEMON_BACKLOG_BYTES };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const key = Object.hasOwn(FLAGS, arg) ? FLAGS[arg as keyof typeof FLAGS] : null;
    if (!key) throw new Error(`unknown argument ${JSON.stringify(arg)}; ${USAGE}`);
    const value = argv[++i];
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1024 || n > 1024 ** 3) {
      throw new Error(`${arg} must be an integer between 1024 and ${1024 ** 3}, got ${JSON.stringify(value)}`);
    }
    parsed[key] = n;
  }
  return parsed;
}

/** Runs the host until shutdown; resolves with the process exit code. */
export async function hostMain(argv: string[]): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} specterm-host[${process.pid}]: ${line}\n`);
  try {
    const { ringBytes, maxClientBacklogBytes, maxDaemonBacklogBytes } = parseHostArgs(argv);
    const dir = ensureRuntimeDir();
    let stopped!: () => void;
    const exit = new Promise<void>((resolve) => { stopped = resolve; });
    const server = new HostServer({ socketPath: hostSocketPath(dir), ringBytes, maxClientBacklogBytes, maxDaemonBacklogBytes, log, onShutdown: () => stopped() });
    await server.listen();
    // The terminal or the daemon that started us may go away; the sessions must not.
    process.on('SIGHUP', () => log('ignoring SIGHUP'));
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.requestShutdown());
    // Last line of defence: a bug reached from one request must not end every session.
    process.on('uncaughtException', (error) => log(`uncaught exception (host keeps running): ${error.stack ?? messageOf(error)}`));
    await exit;
    log('stopped');
    return 0;
  } catch (error) {
    log(`${error instanceof HostError ? `${error.code}: ` : ''}${messageOf(error)}`);
    return error instanceof HostError && error.code === 'HOST_ALREADY_RUNNING' ? EXIT_ALREADY_RUNNING : 1;
  }
}
