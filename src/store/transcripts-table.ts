/**
 * The transcript tables: each session's transcript as turns (one row a turn, rewritten while the
 * turn grows), its source and warnings, and an FTS5 index over the words of every turn so a
 * search across all sessions is one indexed query. The FTS index is an external-content table
 * kept in step by triggers, so a turn deleted with its session leaves no stale match.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { Transcript, TranscriptSearchHit, Turn } from '../protocol/transcripts.js';
import { withConstraintErrors } from './constraint-errors.js';
import { StoreError } from './errors.js';

export const TRANSCRIPTS_SCHEMA = `
CREATE TABLE transcript_turns (
  id                INTEGER PRIMARY KEY,
  session_id        TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_index        INTEGER NOT NULL,
  native_session_id TEXT,
  started_at        INTEGER,
  ended_at          INTEGER,
  user_text         TEXT NOT NULL,
  assistant_text    TEXT NOT NULL,
  tool_text         TEXT NOT NULL,
  body              TEXT NOT NULL,       -- the Turn (src/protocol/transcripts.ts) as JSON
  UNIQUE (session_id, turn_index)
);
CREATE TABLE transcript_meta (
  session_id         TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  source             TEXT NOT NULL,      -- JSON TranscriptSource
  native_session_ids TEXT NOT NULL,      -- JSON array
  usage              TEXT,               -- JSON TokenUsage or NULL
  warnings           TEXT NOT NULL,      -- JSON array of TranscriptWarning
  updated_at         INTEGER NOT NULL
);
CREATE VIRTUAL TABLE transcript_fts USING fts5(
  user_text, assistant_text, tool_text, content='transcript_turns', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER transcript_turns_ai AFTER INSERT ON transcript_turns BEGIN
  INSERT INTO transcript_fts(rowid, user_text, assistant_text, tool_text) VALUES (new.id, new.user_text, new.assistant_text, new.tool_text);
END;
CREATE TRIGGER transcript_turns_ad AFTER DELETE ON transcript_turns BEGIN
  INSERT INTO transcript_fts(transcript_fts, rowid, user_text, assistant_text, tool_text) VALUES ('delete', old.id, old.user_text, old.assistant_text, old.tool_text);
END;
CREATE TRIGGER transcript_turns_au AFTER UPDATE ON transcript_turns BEGIN
  INSERT INTO transcript_fts(transcript_fts, rowid, user_text, assistant_text, tool_text) VALUES ('delete', old.id, old.user_text, old.assistant_text, old.tool_text);
  INSERT INTO transcript_fts(rowid, user_text, assistant_text, tool_text) VALUES (new.id, new.user_text, new.assistant_text, new.tool_text);
END;
`;

/** Longest search text accepted; a longer one is a mistake, not a query. */
const MAX_QUERY_CHARS = 500;
const MAX_SEARCH_LIMIT = 200;
const ROLES = ['user', 'assistant', 'tool'] as const;

interface TurnRow { body: string }
interface MetaRow { source: string; native_session_ids: string; usage: string | null; warnings: string }
interface HitRow { session_id: string; turn_index: number; started_at: number | null; s0: string; s1: string; s2: string }

/** Typed access to the transcript tables. */
export class TranscriptsTable {
  readonly #db: Database.Database;
  #prepared: ReturnType<typeof prepare> | null = null;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Prepared on first use: a store opened at an older schema (migration tests) has no such tables. */
  get #sql(): ReturnType<typeof prepare> {
    this.#prepared ??= prepare(this.#db);
    return this.#prepared;
  }

  /**
   * Stores the turns that changed and the transcript's summary (source, native ids, usage,
   * warnings) in one transaction: what the daemon calls after each poll of a history.
   */
  append(sessionId: string, transcript: Pick<Transcript, 'source' | 'native_session_ids' | 'usage' | 'warnings'>, turns: readonly Turn[], at: number): void {
    withConstraintErrors({ what: `the transcript of session ${JSON.stringify(sessionId)}` }, () => this.#db.transaction(() => {
      for (const turn of turns) this.#sql.upsertTurn.run(turnRow(sessionId, turn));
      this.#sql.upsertMeta.run({
        session_id: sessionId, source: JSON.stringify(transcript.source), ids: JSON.stringify(transcript.native_session_ids),
        usage: transcript.usage ? JSON.stringify(transcript.usage) : null, warnings: JSON.stringify(transcript.warnings), at,
      });
    })());
  }

  /** The stored transcript of a session, or null when none was stored. */
  get(sessionId: string): Transcript | null {
    const meta = this.#sql.meta.get(sessionId) as MetaRow | undefined;
    if (!meta) return null;
    return {
      source: JSON.parse(meta.source) as Transcript['source'],
      native_session_ids: JSON.parse(meta.native_session_ids) as string[],
      turns: (this.#sql.turns.all(sessionId) as TurnRow[]).map((r) => JSON.parse(r.body) as Turn),
      usage: meta.usage ? (JSON.parse(meta.usage) as Transcript['usage']) : null,
      warnings: JSON.parse(meta.warnings) as Transcript['warnings'],
    };
  }

  /** The session's last turn as stored (one row, whatever the transcript's length), or null. */
  lastTurn(sessionId: string): Turn | null {
    const row = this.#sql.lastTurn.get(sessionId) as TurnRow | undefined;
    return row ? (JSON.parse(row.body) as Turn) : null;
  }

  /**
   * Turns whose words contain every word of `text` (prefixes of the last one too), newest first
   * (the index then stops at `limit`; ranking by relevance would score every match of a common word),
   * across every session. The text is words, never FTS syntax: quotes and operators are literal.
   */
  search(text: string, limit = 50): TranscriptSearchHit[] {
    if (typeof text !== 'string' || text.length > MAX_QUERY_CHARS) {
      throw new StoreError('STORE_INVALID_INPUT', `a search text is at most ${MAX_QUERY_CHARS} characters; shorten it to the words you look for`);
    }
    const words = text.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
    if (words.length === 0) return [];
    const query = words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
    const rows = this.#sql.search.all(query, Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit)))) as HitRow[];
    return rows.map((r) => {
      const snippets = [r.s0, r.s1, r.s2];
      const col = Math.max(0, snippets.findIndex((s) => s.includes('[')));
      return { session_id: r.session_id, turn_index: r.turn_index, role: ROLES[col] ?? 'assistant', snippet: snippets[col] ?? '', at: r.started_at };
    });
  }
}

function prepare(db: Database.Database) {
  return {
    upsertTurn: db.prepare(
      `INSERT INTO transcript_turns (session_id, turn_index, native_session_id, started_at, ended_at, user_text, assistant_text, tool_text, body)
       VALUES (@session_id, @turn_index, @native_session_id, @started_at, @ended_at, @user_text, @assistant_text, @tool_text, @body)
       ON CONFLICT (session_id, turn_index) DO UPDATE SET native_session_id = excluded.native_session_id, started_at = excluded.started_at,
         ended_at = excluded.ended_at, user_text = excluded.user_text, assistant_text = excluded.assistant_text, tool_text = excluded.tool_text, body = excluded.body`),
    upsertMeta: db.prepare(
      `INSERT INTO transcript_meta (session_id, source, native_session_ids, usage, warnings, updated_at) VALUES (@session_id, @source, @ids, @usage, @warnings, @at)
       ON CONFLICT (session_id) DO UPDATE SET source = excluded.source, native_session_ids = excluded.native_session_ids, usage = excluded.usage,
         warnings = excluded.warnings, updated_at = excluded.updated_at`),
    turns: db.prepare('SELECT body FROM transcript_turns WHERE session_id = ? ORDER BY turn_index'),
    lastTurn: db.prepare('SELECT body FROM transcript_turns WHERE session_id = ? ORDER BY turn_index DESC LIMIT 1'),
    meta: db.prepare('SELECT source, native_session_ids, usage, warnings FROM transcript_meta WHERE session_id = ?'),
    search: db.prepare(
      `SELECT t.session_id, t.turn_index, t.started_at,
         snippet(transcript_fts, 0, '[', ']', '…', 12) AS s0, snippet(transcript_fts, 1, '[', ']', '…', 12) AS s1, snippet(transcript_fts, 2, '[', ']', '…', 12) AS s2
       FROM transcript_fts JOIN transcript_turns t ON t.id = transcript_fts.rowid
       WHERE transcript_fts MATCH ? ORDER BY transcript_fts.rowid DESC LIMIT ?`),
  };
}

function turnRow(sessionId: string, turn: Turn) {
  const assistant: string[] = [];
  const tools: string[] = [];
  for (const item of turn.items) {
    if (item.kind === 'text') assistant.push(item.text);
    else tools.push(item.name, typeof item.input === 'string' ? item.input : JSON.stringify(item.input ?? null), item.output ?? '');
  }
  return {
    session_id: sessionId, turn_index: turn.index, native_session_id: turn.native_session_id, started_at: turn.started_at, ended_at: turn.ended_at,
    user_text: turn.user?.text ?? '', assistant_text: assistant.join('\n'), tool_text: tools.join('\n'), body: JSON.stringify(turn),
  };
}
