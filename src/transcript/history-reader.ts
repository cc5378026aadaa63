/**
 * A session's transcript from one history file: the follower hands out new lines, each is
 * decoded (a corrupt line is a counted warning), the format's parser turns records into events
 * and the builder folds them into turns. `poll()` after the file changed; `transcript()` at any time.
 */
import type { HistoryFormat, Transcript, Turn } from '../protocol/transcripts.js';
import { TranscriptBuilder } from './builder.js';
import type { HistoryParser, TranscriptEvent } from './events.js';
import { HistoryFollower } from './follower.js';
import { OpenCodeDbFollower } from './opencode-db-follower.js';
import { createHistoryParser } from './parsers/index.js';

export interface HistoryReaderOptions {
  format: HistoryFormat;
  path: string;
  homeDir: string;
  /** The CLI's session id: which conversation to read in a database that holds all of them (`opencode-sqlite`). */
  sessionId?: string | null;
  /** Each turn that changed during a poll (what the store appends). */
  onTurn?: (turn: Turn) => void;
  maxLineBytes?: number;
  chunkBytes?: number;
}

export class HistoryReader {
  readonly #opts: HistoryReaderOptions;
  #follower: HistoryFollower | OpenCodeDbFollower;
  #parser: HistoryParser;
  readonly #builder: TranscriptBuilder;
  #lineNo = 0;

  constructor(opts: HistoryReaderOptions) {
    this.#opts = opts;
    this.#parser = createHistoryParser(opts.format);
    this.#builder = new TranscriptBuilder({ kind: 'native', format: opts.format }, { onTurn: opts.onTurn });
    this.#follower = this.#followerOf(opts.path, opts.sessionId ?? null);
  }

  #followerOf(path: string, sessionId: string | null): HistoryFollower | OpenCodeDbFollower {
    const opts = this.#opts;
    return opts.format === 'opencode-sqlite'
      ? new OpenCodeDbFollower({ path, homeDir: opts.homeDir, sessionId })
      : new HistoryFollower({ path, homeDir: opts.homeDir, maxLineBytes: opts.maxLineBytes, chunkBytes: opts.chunkBytes });
  }

  /**
   * The CLI went on in a new file with a new id (Claude Code's `/clear`): the rest of the old
   * file is read, then the new one from its start; its turns follow the old ones in the same
   * transcript, its id joins `native_session_ids`.
   */
  continueIn(path: string, sessionId: string | null): void {
    this.finish();
    this.#follower = this.#followerOf(path, sessionId);
    this.#parser = createHistoryParser(this.#opts.format);
    this.#lineNo = 0;
  }

  /** Bytes of the file read so far (for a database: the last event's number). */
  get offset(): number {
    return this.#follower.offset;
  }

  /** Reads what the CLI appended since the last poll. */
  poll(): void {
    const events: TranscriptEvent[] = [];
    const warn = (code: Parameters<TranscriptBuilder['warn']>[0], detail: string) => this.#builder.warn(code, detail);
    if (this.#follower instanceof OpenCodeDbFollower) {
      this.#follower.poll((record) => events.push(...this.#parser.feed(record)), warn);
      this.#builder.apply(events);
      return;
    }
    this.#follower.poll((line) => {
      this.#lineNo += 1;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        this.#builder.warn('HISTORY_CORRUPT_LINE', `line ${this.#lineNo}`);
        return;
      }
      events.push(...this.#parser.feed(record));
    }, warn);
    this.#builder.apply(events);
  }

  /** The session is over: reads the rest and reports a last line that never completed. */
  finish(): void {
    this.poll();
    this.#follower.finish((code, detail) => this.#builder.warn(code, detail));
  }

  transcript(): Transcript {
    return this.#builder.snapshot();
  }
}
