/**
 * The real PTY transport on `@lydell/node-pty`: spawn with synchronous failure reporting,
 * SIGHUP→SIGKILL termination, exit info with signal names, listener isolation.
 *
 * @module
 */

import { accessSync, constants as fsConstants, statSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { delimiter, isAbsolute, resolve as resolvePath } from 'node:path';
import pty from '@lydell/node-pty';
import type { IPty } from '@lydell/node-pty';
import { SpawnError, TerminalError, assertDimension } from './errors.js';
import { ListenerSet, warnListenerError, type ListenerErrorSink } from './listener-set.js';
import { PtyWriteQueue, type TryWrite } from './pty-write-queue.js';
import type { Disposable, ExitInfo, PtyTransport, SpawnRequest } from './transport.js';

/** Grace period between SIGHUP and SIGKILL: long enough for a CLI to save state, short for shutdown. */
export const DEFAULT_KILL_GRACE_MS = 2000;

/** PATH used by execvp when the child's environment has none (glibc's default). */
const DEFAULT_EXEC_PATH = '/bin:/usr/bin';

/**
 * node-pty's forked child prints this and exits 1 when chdir/exec fails after fork; that is the
 * only signal of a failure that happens after our synchronous pre-checks (e.g. a race).
 */
const CHILD_SPAWN_FAILURE = /^(execvp\(3\)|chdir\(2\)) failed\.: (.+?)\s*$/m;

/** Options for {@link createPtyTransport}. */
export interface PtyTransportOptions {
  /** Delay between SIGHUP and SIGKILL in `kill()`; default {@link DEFAULT_KILL_GRACE_MS}. */
  killGraceMs?: number;
  /** Receives exceptions thrown by data/exit listeners (default: a process warning). */
  onListenerError?: ListenerErrorSink;
}

/** The PTY transport plus the extras only a real process has. */
export interface PtyTransportHandle extends PtyTransport {
  /** Exit info once the child has exited, else undefined (for late subscribers). */
  readonly exitInfo: ExitInfo | undefined;
  /**
   * Bytes passed to `write()` that the child's terminal has not taken yet. Writes are queued and
   * paced so they never block the event loop; `kill()` and the child's exit drop the queue.
   */
  readonly pendingWriteBytes: number;
  /**
   * Fires when node-pty reports, after `spawn()` returned, that the child never started
   * (exec/chdir failed in the forked child). `onExit` still fires afterwards with exit code 1.
   */
  onSpawnError(listener: (error: SpawnError) => void): Disposable;
}

/**
 * Creates a transport that runs the child in a real pseudo-terminal.
 *
 * @example
 * const transport = createPtyTransport();
 * transport.onData((chunk) => screen.write(chunk));
 * transport.spawn({ file: 'claude', args: [], cwd, env, cols: 120, rows: 40 });
 */
export function createPtyTransport(options: PtyTransportOptions = {}): PtyTransportHandle {
  return new NodePtyTransport(options);
}

class NodePtyTransport implements PtyTransportHandle {
  readonly #killGraceMs: number;
  readonly #data: ListenerSet<string>;
  readonly #exit: ListenerSet<ExitInfo>;
  readonly #spawnErrors: ListenerSet<SpawnError>;
  #pty: IPty | undefined;
  /** Every write goes through this queue, in order (undefined where node-pty's own write is asynchronous). */
  #writes: PtyWriteQueue | undefined;
  #request: SpawnRequest | undefined;
  #exitInfo: ExitInfo | undefined;
  #killTimer: ReturnType<typeof setTimeout> | undefined;
  #killRequested = false;
  /** First output of the child, kept only until it is long enough to rule out a spawn failure. */
  #head = '';
  #subscriptions: Disposable[] = [];

  constructor(options: PtyTransportOptions) {
    const sink = options.onListenerError ?? warnListenerError;
    this.#killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.#data = new ListenerSet<string>('data', sink);
    this.#exit = new ListenerSet<ExitInfo>('exit', sink);
    this.#spawnErrors = new ListenerSet<SpawnError>('spawnError', sink);
  }

  get pid(): number | undefined {
    return this.#pty?.pid;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.#exitInfo;
  }

  get pendingWriteBytes(): number {
    return this.#writes?.pendingBytes ?? 0;
  }

  spawn(req: SpawnRequest): void {
    if (this.#request) {
      throw new SpawnError(`spawn() was already called on this transport (running ${JSON.stringify(this.#request.file)}); create a new transport per child`, {
        code: 'PTY_ALREADY_SPAWNED',
        file: String(req?.file),
        cwd: String(req?.cwd),
      });
    }
    validateRequest(req);
    preflight(req);
    let child: IPty;
    try {
      child = pty.spawn(req.file, req.args, {
        // node-pty overwrites TERM with `name`; use the caller's TERM so the env stays verbatim.
        name: req.env.TERM ?? 'xterm-256color',
        cols: req.cols,
        rows: req.rows,
        cwd: req.cwd,
        env: req.env,
        encoding: 'utf8',
      });
    } catch (cause) {
      throw new SpawnError(`could not start ${JSON.stringify(req.file)} in ${JSON.stringify(req.cwd)}: ${messageOf(cause)}; check the binary and the working directory`, {
        code: 'PTY_SPAWN_FAILED',
        file: req.file,
        cwd: req.cwd,
        cause,
      });
    }
    this.#request = req;
    this.#pty = child;
    const tryWrite = nonBlockingWriter(child);
    this.#writes = tryWrite ? new PtyWriteQueue(tryWrite) : undefined;
    // node-pty rethrows unexpected socket errors from a stream callback (an uncaught exception)
    // unless someone else listens for 'error'; EIO at exit is normal and handled by node-pty.
    const emitter = child as unknown as { on?: (event: string, listener: (error: unknown) => void) => void };
    emitter.on?.('error', () => {
      // The socket closes right after; the exit event reports the outcome.
    });
    this.#subscriptions.push(
      child.onData((chunk) => this.#handleData(chunk)),
      child.onExit(({ exitCode, signal }) => this.#handleExit(exitCode, signal)),
    );
  }

  write(data: string): void {
    if (typeof data !== 'string') {
      throw new TerminalError('TERMINAL_INVALID_ARGUMENT', `PtyTransport.write expects a string, got ${typeof data}`, data);
    }
    const child = this.#requireChild('write');
    // Writing to a child that already exited is a benign race (the driver may still be flushing).
    if (this.#exitInfo || this.#killRequested || data.length === 0) return;
    if (this.#writes) {
      // A write that fails because the child is gone closes the queue: same benign race.
      this.#writes.enqueue(data);
      return;
    }
    try {
      child.write(data);
    } catch {
      // EPIPE/EBADF after the child closed its side: same benign race.
    }
  }

  resize(cols: number, rows: number): void {
    assertDimension('cols', cols);
    assertDimension('rows', rows);
    const child = this.#requireChild('resize');
    if (this.#exitInfo) return;
    try {
      child.resize(cols, rows);
    } catch {
      // ioctl on a pty whose child just exited fails; the exit event follows.
    }
  }

  kill(): void {
    const child = this.#pty;
    if (!child || this.#exitInfo || this.#killRequested) return;
    this.#killRequested = true;
    // Input still queued for a child being ended is dropped, with its retry timer.
    this.#writes?.close();
    if (process.platform === 'win32') {
      // ConPTY has no signals; node-pty's kill() closes the console and ends the process tree.
      child.kill();
      return;
    }
    signalGroup(child.pid, 'SIGHUP');
    this.#killTimer = setTimeout(() => {
      this.#killTimer = undefined;
      if (!this.#exitInfo) signalGroup(child.pid, 'SIGKILL');
    }, this.#killGraceMs);
  }

  onData(listener: (chunk: string) => void): Disposable {
    return this.#data.add(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.#exit.add(listener);
  }

  onSpawnError(listener: (error: SpawnError) => void): Disposable {
    return this.#spawnErrors.add(listener);
  }

  #requireChild(operation: string): IPty {
    if (!this.#pty) {
      throw new TerminalError('PTY_NOT_SPAWNED', `PtyTransport.${operation}() called before spawn(); call spawn() first`);
    }
    return this.#pty;
  }

  #handleData(chunk: string): void {
    // Keep just enough of the start of the output to recognise node-pty's exec failure message.
    if (this.#head.length < 256) this.#head += chunk.slice(0, 256);
    this.#data.emit(chunk);
  }

  #handleExit(exitCode: number, signalNumber: number | undefined): void {
    if (this.#exitInfo) return;
    if (this.#killTimer !== undefined) {
      clearTimeout(this.#killTimer);
      this.#killTimer = undefined;
    }
    this.#writes?.close();
    const signal = signalName(signalNumber);
    const info: ExitInfo = signal ? { exitCode: null, signal } : { exitCode, signal: null };
    this.#exitInfo = info;
    const request = this.#request;
    const failure = exitCode === 1 && !signal ? CHILD_SPAWN_FAILURE.exec(this.#head) : null;
    if (failure && request) {
      const reason = failure[2] ?? 'unknown error';
      const isCwd = failure[1]?.startsWith('chdir') ?? false;
      this.#spawnErrors.emit(
        new SpawnError(
          isCwd
            ? `could not enter working directory ${JSON.stringify(request.cwd)}: ${reason}; pass an existing directory as cwd`
            : `could not execute ${JSON.stringify(request.file)}: ${reason}; check that it exists on the child's PATH and is executable`,
          { code: isCwd ? 'PTY_CWD_INVALID' : 'PTY_SPAWN_FAILED', file: request.file, cwd: request.cwd, cause: failure[0] },
        ),
      );
    }
    this.#head = '';
    for (const subscription of this.#subscriptions.splice(0)) subscription.dispose();
    this.#exit.emit(info);
  }
}

/**
 * A non-blocking write attempt on the child's PTY master, or undefined where there is none to
 * make (win32: ConPTY input goes through a pipe that node-pty already writes asynchronously).
 *
 * It writes to node-pty's master fd itself because node-pty's `write()` goes through a libuv tty
 * handle that retries EAGAIN in a loop until everything is written, blocking the event loop (see
 * pty-write-queue.ts). The fd is non-blocking (node-pty sets O_NONBLOCK on the master), so
 * `writeSync` takes what fits and fails with EAGAIN otherwise; it never waits.
 */
function nonBlockingWriter(child: IPty): TryWrite | undefined {
  if (process.platform === 'win32') return undefined;
  // `fd` is public on node-pty's UnixTerminal but not in its typings; `_socket` is the stream
  // that owns the fd (pinned dependency: @lydell/node-pty 1.1.0).
  const unix = child as unknown as { fd?: unknown; _socket?: { destroyed?: boolean } };
  const fd = unix.fd;
  const socket = unix._socket;
  if (typeof fd !== 'number' || typeof socket !== 'object' || socket === null) return undefined;
  return (bytes) => {
    // node-pty closes the fd when its socket is destroyed (EIO at exit); the number may then
    // already belong to another file, so never write after that.
    // Only the queue sees this error: it closes itself, like after EIO.
    if (socket.destroyed === true) throw new Error('the PTY is closed: the child has exited');
    try {
      return writeSync(fd, bytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK' || code === 'EINTR') return 0;
      throw error;
    }
  };
}

/** Checks types and ranges of a spawn request; throws `PTY_INVALID_REQUEST` naming the field. */
function validateRequest(req: SpawnRequest): void {
  const file = String(req?.file);
  const cwd = String(req?.cwd);
  const fail = (field: string, expected: string, got: unknown): never => {
    throw new SpawnError(`spawn request field ${field} must be ${expected}, got ${JSON.stringify(got) ?? String(got)}`, {
      code: 'PTY_INVALID_REQUEST',
      file,
      cwd,
    });
  };
  if (typeof req !== 'object' || req === null) fail('(request)', 'an object', req);
  if (typeof req.file !== 'string' || req.file.length === 0) fail('file', 'a non-empty string', req.file);
  if (!Array.isArray(req.args)) fail('args', 'an array of strings', req.args);
  req.args.forEach((arg, i) => {
    if (typeof arg !== 'string') fail(`args[${i}]`, 'a string', arg);
  });
  if (typeof req.cwd !== 'string' || req.cwd.length === 0) fail('cwd', 'a non-empty string', req.cwd);
  if (typeof req.env !== 'object' || req.env === null) fail('env', 'an object of strings', req.env);
  for (const [key, value] of Object.entries(req.env)) {
    if (typeof value !== 'string') fail(`env.${key}`, 'a string', value);
  }
  for (const field of ['cols', 'rows'] as const) {
    try {
      assertDimension(field, req[field], `spawn request field ${field}`);
    } catch (error) {
      throw new SpawnError((error as Error).message, { code: 'PTY_INVALID_REQUEST', file, cwd });
    }
  }
}

/**
 * Detects the common spawn failures before forking: node-pty reports them only asynchronously
 * (the forked child prints an error and exits 1), but callers need a thrown error.
 */
function preflight(req: SpawnRequest): void {
  const { file, cwd } = req;
  let cwdIsDirectory = false;
  try {
    cwdIsDirectory = statSync(cwd).isDirectory();
  } catch (cause) {
    throw new SpawnError(`working directory ${JSON.stringify(cwd)} does not exist; pass an existing directory as cwd`, { code: 'PTY_CWD_INVALID', file, cwd, cause });
  }
  if (!cwdIsDirectory) {
    throw new SpawnError(`working directory ${JSON.stringify(cwd)} is not a directory; pass a directory as cwd`, { code: 'PTY_CWD_INVALID', file, cwd });
  }
  // Windows resolves executables with PATHEXT inside ConPTY; leave it to node-pty there.
  if (process.platform === 'win32') return;
  const candidates = file.includes('/')
    ? [isAbsolute(file) ? file : resolvePath(cwd, file)]
    : (req.env.PATH ?? DEFAULT_EXEC_PATH)
        .split(delimiter)
        // execvp treats an empty PATH entry as the current directory (the child's cwd).
        .map((dir) => resolvePath(cwd, dir === '' ? '.' : dir, file));
  let foundButNotExecutable: string | undefined;
  for (const candidate of candidates) {
    const kind = probeExecutable(candidate);
    if (kind === 'ok') return;
    if (kind === 'not-executable') foundButNotExecutable ??= candidate;
  }
  if (foundButNotExecutable) {
    throw new SpawnError(`${JSON.stringify(foundButNotExecutable)} is not an executable file; check its permissions (chmod +x) or the path`, {
      code: 'PTY_BINARY_NOT_EXECUTABLE',
      file,
      cwd,
    });
  }
  throw new SpawnError(
    file.includes('/')
      ? `executable ${JSON.stringify(file)} not found; check the path`
      : `executable ${JSON.stringify(file)} not found on the child's PATH (${req.env.PATH ?? `default ${DEFAULT_EXEC_PATH}`}); install it or pass an absolute path`,
    { code: 'PTY_BINARY_NOT_FOUND', file, cwd },
  );
}

function probeExecutable(path: string): 'ok' | 'missing' | 'not-executable' {
  try {
    if (!statSync(path).isFile()) return 'not-executable';
  } catch {
    return 'missing';
  }
  try {
    accessSync(path, fsConstants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

/**
 * Signals the child's whole process group (node-pty's child is a session leader, so its pgid is
 * its pid): tools it started in the same group go too. Falls back to the pid alone.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone: the exit event is on its way.
    }
  }
}

function signalName(signal: number | undefined): string | null {
  if (!signal) return null;
  for (const [name, value] of Object.entries(osConstants.signals)) {
    if (value === signal) return name;
  }
  return `SIG${signal}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
