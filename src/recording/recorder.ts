/**
 * Writes a live session as an asciicast v2 file that asciinema can play.
 *
 * @module
 */

import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
 * The events go to a private temp file beside the target until {@link commit} renames it into
 * place (`close()` commits too), so a session that fails to start can {@link discard} its
 * recording and an existing file at the path is never truncated by a failed start.
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
  readonly #tempPath: string;
  readonly #clock: () => number;
  readonly #startMs: number;
  #lastT = 0;
  #closed = false;
  /** 'writing' → the temp file; 'committed' → renamed to the path; 'discarded' → removed. */
  #fate: 'writing' | 'committed' | 'discarded' = 'writing';

  private constructor(fd: number, path: string, tempPath: string, clock: () => number) {
    this.#fd = fd;
    this.#path = path;
    this.#tempPath = tempPath;
    this.#clock = clock;
    this.#startMs = clock();
  }

  /**
   * Starts a recording for `path` with mode 0600 — recordings hold everything the agent printed
   * and everything typed, so only the owner may read them — and writes the header. Nothing at
   * `path` changes before {@link commit} (or {@link close}).
   *
   * @throws RecordingError (`RECORDING_IO_FAILED`) when the file cannot be created or written.
   */
  static open(path: string, options: AsciicastRecorderOptions): AsciicastRecorder {
    const header: Omit<AsciicastHeader, 'version'> = { width: options.cols, height: options.rows };
    if (options.timestamp !== undefined) header.timestamp = options.timestamp;
    if (options.title !== undefined) header.title = options.title;
    if (options.env !== undefined) header.env = options.env;
    const target = followSymlink(path);
    const refusal = refuseTarget(target);
    if (refusal) {
      throw new RecordingError('RECORDING_IO_FAILED', `cannot create recording ${JSON.stringify(path)}: ${refusal}`, { source: path });
    }
    // Same directory as the target, so the final rename is atomic and never crosses devices.
    const tempPath = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    let fd: number;
    try {
      fd = openSync(tempPath, 'wx', 0o600);
    } catch (cause) {
      throw new RecordingError('RECORDING_IO_FAILED', `cannot create recording ${JSON.stringify(path)}: ${(cause as Error).message}; check that the directory exists and is writable`, {
        source: path,
        cause,
      });
    }
    const recorder = new AsciicastRecorder(fd, target, tempPath, options.clock);
    try {
      recorder.#writeLine(serializeAsciicastHeader(header));
    } catch (err) {
      recorder.discard();
      throw err;
    }
    return recorder;
  }

  /** Path of the recording (the symlink's target when the path given was a symlink). */
  get path(): string {
    return this.#path;
  }

  /** Whether `close()` was called. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /**
   * Moves the recording into place at its path (replacing any file there); later events keep
   * landing in it. Idempotent; a no-op after {@link discard}.
   *
   * @throws RecordingError (`RECORDING_IO_FAILED`) when the rename fails (the temp file is kept).
   */
  commit(): void {
    if (this.#fate !== 'writing') return;
    try {
      renameSync(this.#tempPath, this.#path);
    } catch (cause) {
      throw new RecordingError('RECORDING_IO_FAILED', `cannot move the recording into place at ${JSON.stringify(this.#path)}: ${(cause as Error).message}; the recording so far is in ${JSON.stringify(this.#tempPath)}`, {
        source: this.#path,
        cause,
      });
    }
    this.#fate = 'committed';
  }

  /** Closes and deletes an uncommitted recording; the file at the path stays as it was. Idempotent. */
  discard(): void {
    if (this.#fate !== 'writing') return;
    this.#fate = 'discarded';
    this.#closeFd();
    rmSync(this.#tempPath, { force: true });
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

  /**
   * Commits (unless discarded) and closes the file. Idempotent; events after close are ignored
   * (late PTY output at exit).
   *
   * @throws RecordingError when the commit fails (the file is closed and the temp file kept).
   */
  close(): void {
    if (this.#closed) return;
    try {
      this.commit();
    } finally {
      this.#closeFd();
    }
  }

  #closeFd(): void {
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

/** Why an existing file at `target` must not be replaced, or null (absent, or a writable file). */
function refuseTarget(target: string): string | null {
  let st;
  try {
    st = statSync(target);
  } catch {
    return null;
  }
  if (st.isDirectory()) return 'it is a directory; pass the path of a .cast file';
  if (!st.isFile()) return 'it is not a regular file; pass the path of a .cast file';
  // The rename would succeed, but a file made read-only is one its owner meant to keep.
  if ((st.mode & 0o222) === 0) return 'the existing file is read-only; make it writable or choose another path';
  return null;
}

/** A symlink's target (written through, as opening the link for writing did); otherwise `path`. */
function followSymlink(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path; // absent, or a dangling link: created at the path given
  }
}
