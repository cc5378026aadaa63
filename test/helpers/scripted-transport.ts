/**
 * A transport the test plays by hand: it records what the driver writes and lets the test
 * emit output and exits at chosen (virtual) times. Used with the VirtualScheduler for timing
 * rules; behaviour that needs a real child uses a real PTY instead.
 */
import type { Scheduler } from '../../src/core/clock.js';
import type { Disposable, ExitInfo, PtyTransport, SpawnRequest } from '../../src/terminal/transport.js';

export interface WriteRecord { at: number; data: string }

export class ScriptedTransport implements PtyTransport {
  readonly writes: WriteRecord[] = [];
  readonly resizes: Array<{ at: number; cols: number; rows: number }> = [];
  spawned: SpawnRequest | null = null;
  killed = false;
  pid: number | undefined = undefined;
  onWrite: ((data: string) => void) | null = null;
  #data = new Set<(chunk: string) => void>();
  #exit = new Set<(info: ExitInfo) => void>();

  constructor(private readonly scheduler: Scheduler, private readonly spawnError?: Error) {}

  spawn(req: SpawnRequest): void {
    if (this.spawnError) throw this.spawnError;
    this.spawned = req;
  }
  write(data: string): void {
    this.writes.push({ at: this.scheduler.now(), data });
    this.onWrite?.(data);
  }
  resize(cols: number, rows: number): void { this.resizes.push({ at: this.scheduler.now(), cols, rows }); }
  kill(): void { this.killed = true; }
  onData(listener: (chunk: string) => void): Disposable {
    this.#data.add(listener);
    return { dispose: () => this.#data.delete(listener) };
  }
  onExit(listener: (info: ExitInfo) => void): Disposable {
    this.#exit.add(listener);
    return { dispose: () => this.#exit.delete(listener) };
  }

  /** Sends output to the driver now. */
  emit(chunk: string): void { for (const l of [...this.#data]) l(chunk); }
  /** Ends the child. */
  exit(exitCode: number | null, signal: string | null = null): void { for (const l of [...this.#exit]) l({ exitCode, signal }); }
  /** Everything written, concatenated. */
  written(): string { return this.writes.map((w) => w.data).join(''); }
  listenerCount(): number { return this.#data.size + this.#exit.size; }
}

/** Clears the screen and paints `lines` from the top-left, cursor left at the end of `cursorLine` (default last). */
export function paint(lines: string[], cursor?: { row: number; col: number }): string {
  const body = '\x1b[H\x1b[2J' + lines.join('\r\n');
  return cursor ? `${body}\x1b[${cursor.row + 1};${cursor.col + 1}H` : body;
}
