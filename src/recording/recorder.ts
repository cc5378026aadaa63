/**
 * Writes a live session as an asciicast v2 file that asciinema can play.
 *
 * @module
 */

import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { serializeAsciicastEvent, serializeAsciicastHeader, type AsciicastHeader, type CastEventType } from './asciicast.js';
import { RecordingError } from './errors.js';

/** Options for {@link AsciicastRecorder.open}. */
export interface AsciicastRecorderOptions {
  cols: number;
  rows: number;
  /** Milliseconds clock; event times are `(clock() - clock() at open) / 1000` seconds. */
  clock: () => number;
  /** Unix time in seconds for the header (omitted when not given). */
  timestamp?: number;
  title?: string;
  env?: Record<string, string>;
}

/**
 * Appends events to an asciicast file as they happen. Every event is written with one
 * synchronous `write` so a crash loses at most the line being written (which
 * `parseAsciicast(text, { tolerateTruncatedTail: true })` then drops).
 *
 * @example
 * const rec = AsciicastRecorder.open('session.cast', { cols: 120, rows: 40, clock: Date.now });
 * transport.onData((chunk) => rec.output(chunk));
 * // … later
 * rec.close();
 */
export class AsciicastRecorder {
  readonly #fd: number;
  readonly #path: string;
  readonly #clock: () => number;
  readonly #startMs: number;
  #lastT = 0;
  #closed = false;

  private constructor(fd: number, path: string, clock: () => number) {
    this.#fd = fd;
    this.#path = path;
    this.#clock = clock;
    this.#startMs = clock();
  }

  /**
   * Creates (or truncates) `path` with mode 0600 — recordings hold everything the agent printed
   * and everything typed, so only the owner may read them — and writes the header.
   *
   * @throws RecordingError (`RECORDING_IO_FAILED`) when the file cannot be opened or written.
   */
  static open(path: string, options: AsciicastRecorderOptions): AsciicastRecorder {
    const header: Omit<AsciicastHeader, 'version'> = { width: options.cols, height: options.rows };
    if (options.timestamp !== undefined) header.timestamp = options.timestamp;
    if (options.title !== undefined) header.title = options.title;
    if (options.env !== undefined) header.env = options.env;
    let fd: number;
    try {
      fd = openSync(path, 'w', 0o600);
    } catch (cause) {
      throw new RecordingError('RECORDING_IO_FAILED', `cannot create recording ${JSON.stringify(path)}: ${(cause as Error).message}; check that the directory exists and is writable`, {
        source: path,
        cause,
      });
    }
    try {
      // The mode argument only applies to new files; an existing file keeps its old mode.
      fchmodSync(fd, 0o600);
    } catch {
      // Not fatal (e.g. a file system without permissions); the content is what matters.
    }
    const recorder = new AsciicastRecorder(fd, path, options.clock);
    recorder.#writeLine(serializeAsciicastHeader(header));
    return recorder;
  }

  /** Path of the file being written. */
  get path(): string {
    return this.#path;
  }

  /** Whether `close()` was called. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /** Records output from the child (`o`). */
  output(data: string): void {
    this.#event('o', data);
  }

  /** Records input sent to the child (`i`). */
  input(data: string): void {
    this.#event('i', data);
  }

  /** Records a terminal resize (`r`, `"COLSxROWS"`). */
  resize(cols: number, rows: number): void {
    this.#event('r', `${cols}x${rows}`);
  }

  /** Records a marker (`m`), e.g. a state change, so players can jump to it. */
  marker(label: string): void {
    this.#event('m', label);
  }

  /** Closes the file. Idempotent; events after close are ignored (late PTY output at exit). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      closeSync(this.#fd);
    } catch {
      // Closing a descriptor can only fail if it is already gone.
    }
  }

  #event(type: CastEventType, data: string): void {
    if (this.#closed) return;
    // A clock that steps backwards (NTP) must not produce a file with decreasing times.
    const t = Math.max(this.#lastT, (this.#clock() - this.#startMs) / 1000);
    this.#lastT = t;
    this.#writeLine(serializeAsciicastEvent({ t, type, data }));
  }

  #writeLine(line: string): void {
    try {
      writeSync(this.#fd, `${line}\n`);
    } catch (cause) {
      throw new RecordingError('RECORDING_IO_FAILED', `cannot write to recording ${JSON.stringify(this.#path)}: ${(cause as Error).message}; check free disk space`, {
        source: this.#path,
        cause,
      });
    }
  }
}
