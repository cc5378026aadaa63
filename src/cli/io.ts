/**
 * Where a command reads and writes. `main` uses the process's streams; tests pass an in-memory
 * `CliIo` and read back exactly what a user would see.
 *
 * @module
 */

/** A text sink (stdout or stderr). */
export interface TextSink {
  write(text: string): void;
  /** A terminal a person reads (a QR code is worth drawing); absent = not one. */
  readonly isTTY?: boolean;
}

/** The streams and process facts a command may use. */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Working directory for relative paths. */
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The real process streams. */
export function processIo(): CliIo {
  exitQuietlyWhenStdoutCloses();
  return {
    stdout: { write: (t) => { process.stdout.write(t); }, isTTY: process.stdout.isTTY === true },
    stderr: { write: (t) => { process.stderr.write(t); } },
    cwd: process.cwd(),
    env: process.env,
  };
}

let watchingStdout = false;

/**
 * `specterm replay … | head` closes the pipe while output is still coming: stdout then fails with
 * EPIPE, which Node raises as an unhandled 'error' event (a crash with a stack trace). The reader
 * has all it wanted, so the command ends at once with 0, as `cat` and `grep` do.
 */
function exitQuietlyWhenStdoutCloses(): void {
  if (watchingStdout) return;
  watchingStdout = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

/** An in-memory `CliIo` for tests: `out()` / `err()` return everything written so far. */
export function createMemoryIo(overrides: Partial<Pick<CliIo, 'cwd' | 'env'>> = {}): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t) => { out += t; } },
    stderr: { write: (t) => { err += t; } },
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? process.env,
    out: () => out,
    err: () => err,
  };
}
