/**
 * Follows one history file as it grows: reads only the bytes added since the last poll (a byte
 * offset, never the whole file again), hands out complete lines, and keeps a partial last line
 * until its newline arrives. Memory is bounded by the chunk size and the line cap, whatever the
 * file's size. What goes wrong — the file replaced (inode change) or shrunk, deleted, unreadable,
 * a symlink out of the home directory, an over-long line — is reported as a warning, never thrown.
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import type { TranscriptWarningCode } from '../protocol/transcripts.js';

export interface FollowerOptions {
  path: string;
  /** History is read from under this directory only (after resolving symlinks). */
  homeDir: string;
  /** A line longer than this is skipped with a warning (default 16 MiB). */
  maxLineBytes?: number;
  /** Bytes read per system call (default 1 MiB). */
  chunkBytes?: number;
}

export type FollowerWarning = (code: TranscriptWarningCode, detail: string) => void;

const NEWLINE = 0x0a;

export class HistoryFollower {
  readonly #path: string;
  readonly #home: string;
  readonly #maxLine: number;
  readonly #chunk: Buffer;
  #offset = 0;
  #ino: number | null = null;
  /** Bytes of the line being written (no newline yet). */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** Inside a line over the cap: drop bytes until its newline. */
  #skipping = false;
  /** The last problem reported, so a lasting condition is counted once, not once per poll. */
  #lastProblem: string | null = null;

  constructor(opts: FollowerOptions) {
    this.#path = opts.path;
    this.#home = opts.homeDir;
    this.#maxLine = opts.maxLineBytes ?? 16 * 1024 * 1024;
    this.#chunk = Buffer.allocUnsafe(opts.chunkBytes ?? 1024 * 1024);
  }

  /** Bytes consumed so far (complete lines and the partial one). */
  get offset(): number {
    return this.#offset;
  }

  /** Reads what was appended since the last call; `onLine` gets each complete line (no newline). */
  poll(onLine: (line: string) => void, warn: FollowerWarning): void {
    const problem = this.#checkPath();
    if (problem) {
      this.#report(problem, warn);
      return;
    }
    let fd: number;
    try {
      fd = openSync(this.#path, 'r');
    } catch (err) {
      this.#report(errorProblem(err, this.#path), warn);
      return;
    }
    try {
      const st = fstatSync(fd);
      if (this.#ino !== null && (st.ino !== this.#ino || st.size < this.#offset)) {
        warn('HISTORY_FILE_ROTATED', st.ino !== this.#ino ? `${this.#path} is a new file` : `${this.#path} shrank to ${st.size} bytes`);
        this.#restart();
      }
      this.#ino = st.ino;
      this.#lastProblem = null;
      for (;;) {
        const n = readSync(fd, this.#chunk, 0, this.#chunk.length, this.#offset);
        if (n <= 0) break;
        this.#offset += n;
        this.#consume(this.#chunk.subarray(0, n), onLine, warn);
      }
    } catch (err) {
      this.#report(errorProblem(err, this.#path), warn);
    } finally {
      closeSync(fd);
    }
  }

  /** The file is final (the session ended): a partial last line is reported as truncated. */
  finish(warn: FollowerWarning): void {
    if (this.#partialBytes > 0) warn('HISTORY_TRUNCATED_LINE', `${this.#partialBytes} bytes at the end of ${this.#path} without a newline`);
    this.#partial = [];
    this.#partialBytes = 0;
  }

  #restart(): void {
    this.#offset = 0;
    this.#partial = [];
    this.#partialBytes = 0;
    this.#skipping = false;
  }

  #consume(buf: Buffer, onLine: (line: string) => void, warn: FollowerWarning): void {
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const piece = buf.subarray(start, nl);
      start = nl + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      const line = this.#partialBytes ? Buffer.concat([...this.#partial, piece]) : piece;
      this.#partial = [];
      this.#partialBytes = 0;
      if (line.length > this.#maxLine) warn('HISTORY_LINE_TOO_LONG', `a line of ${line.length} bytes in ${this.#path}`);
      else if (line.length > 0) onLine(line.toString('utf8'));
    }
    if (start >= buf.length || this.#skipping) return;
    const rest = buf.subarray(start);
    if (this.#partialBytes + rest.length > this.#maxLine) {
      warn('HISTORY_LINE_TOO_LONG', `a line of more than ${this.#maxLine} bytes in ${this.#path}`);
      this.#partial = [];
      this.#partialBytes = 0;
      this.#skipping = true;
      return;
    }
    // The chunk buffer is reused by the next read: keep a copy.
    this.#partial.push(Buffer.from(rest));
    this.#partialBytes += rest.length;
  }

  #checkPath(): HistoryProblem | null {
    return checkHistoryPath(this.#path, this.#home, this.#ino !== null);
  }

  #report(problem: HistoryProblem, warn: FollowerWarning): void {
    // A file not written yet is the normal start of a session, not a problem.
    if (problem.key !== this.#lastProblem && problem.key !== 'absent') warn(problem.code, problem.detail);
    this.#lastProblem = problem.key;
  }
}

/** What is wrong with a history path; `key` tells a lasting condition from a new one. */
export interface HistoryProblem { code: TranscriptWarningCode; detail: string; key: string }

/**
 * Whether `path` can be read as history: it exists (`key: "absent"` before the CLI wrote it is
 * normal), resolves (symlinks) under `home` and is readable. Shared by the file and database followers.
 */
export function checkHistoryPath(path: string, home: string, wasRead: boolean): HistoryProblem | null {
  let real: string;
  let realHome: string;
  try {
    real = realpathSync(path);
    realHome = realpathSync(home);
  } catch (err) {
    return errorProblem(err, path, wasRead);
  }
  if (real !== realHome && !real.startsWith(realHome.endsWith(sep) ? realHome : realHome + sep)) {
    return { code: 'HISTORY_OUTSIDE_HOME', detail: `${path} leads to ${real}`, key: `outside:${real}` };
  }
  try {
    statSync(real);
  } catch (err) {
    return errorProblem(err, path, wasRead);
  }
  return null;
}

export function errorProblem(err: unknown, path: string, wasRead = false): HistoryProblem {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') {
    // Not there yet is normal before the CLI writes its first record; gone after reading is not.
    return wasRead ? { code: 'HISTORY_FILE_DELETED', detail: `${path} was removed`, key: 'deleted' } : { code: 'HISTORY_READ_FAILED', detail: `${path} does not exist yet`, key: 'absent' };
  }
  if (code === 'EACCES' || code === 'EPERM') return { code: 'HISTORY_PERMISSION_DENIED', detail: `${path} (${code}); give the user running specterm read access`, key: 'perm' };
  return { code: 'HISTORY_READ_FAILED', detail: `${path}: ${(err as Error)?.message ?? String(err)}`, key: `read:${code ?? ''}` };
}
