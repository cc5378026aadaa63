/**
 * The PTY transport: what the driver needs from "a child in a terminal".
 * Two implementations: a real PTY (pty-transport.ts) and a recording player
 * (replay-transport.ts). The driver never knows which one it holds.
 */

export interface Disposable {
  dispose(): void;
}

export interface SpawnRequest {
  /** Executable (absolute path or a name the OS resolves). */
  file: string;
  args: string[];
  cwd: string;
  /** Passed verbatim: the child sees exactly this environment. */
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface ExitInfo {
  /** Exit code; null when the child was killed by a signal. */
  exitCode: number | null;
  /** Signal name (e.g. `SIGTERM`) or null. */
  signal: string | null;
}

export interface PtyTransport {
  /** Starts the child. Throws a `SpawnError` (with code) when it cannot be started. */
  spawn(req: SpawnRequest): void;
  /**
   * Sends input to the child. Never blocks: the real PTY queues it and writes it in order, paced
   * (throws `TerminalError` `PTY_WRITE_QUEUE_FULL` when 16 MiB are already waiting).
   */
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Ends the child (SIGHUP then SIGKILL after a grace period on POSIX). Idempotent. */
  kill(): void;
  onData(listener: (chunk: string) => void): Disposable;
  onExit(listener: (info: ExitInfo) => void): Disposable;
  /** Child pid, when there is a real process. */
  readonly pid: number | undefined;
}

export type PtyTransportFactory = () => PtyTransport;
