/**
 * Keyset pagination shared by every history table: rows are ordered by (time, id), a page ends
 * with the cursor of its last row, and the next page starts strictly after it. Unlike OFFSET, a
 * page costs the same at any depth and rows inserted meanwhile never shift or repeat a page.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';

/** Where a page ended: the time and id of its last row. */
export interface PageCursor {
  readonly t: number;
  readonly id: number;
}

/** Which rows a page holds. */
export interface PageRequest {
  /** Only this session's rows. */
  sessionId?: string;
  /** Continue after this cursor (from {@link Page.next}). */
  after?: PageCursor;
  /** Rows with time >= sinceMs. */
  sinceMs?: number;
  /** Rows with time < untilMs. */
  untilMs?: number;
  /** Oldest first (`asc`, the default) or newest first. */
  order?: 'asc' | 'desc';
  /**
   * `time` (default): ordered by (time, id). `id`: ordered by id alone, i.e. insertion order even
   * if the clock was set back — for resuming an event stream from the last id a client saw.
   */
  by?: 'time' | 'id';
  /** 1..{@link MAX_PAGE_LIMIT}; default {@link DEFAULT_PAGE_LIMIT}. */
  limit?: number;
}

/** One page; `next` is null on the last page. */
export interface Page<T> {
  readonly items: T[];
  readonly next: PageCursor | null;
}

/** Rows per page unless asked otherwise. */
export const DEFAULT_PAGE_LIMIT = 100;
/** Caps one answer's size, so one request cannot make the daemon read a whole table. */
export const MAX_PAGE_LIMIT = 1000;

/** `t.id` as text, for a URL or a `Last-Event-ID`. */
export function encodeCursor(cursor: PageCursor): string {
  return `${cursor.t}.${cursor.id}`;
}

/**
 * Parses {@link encodeCursor}'s text.
 *
 * @throws StoreError `STORE_INVALID_INPUT` naming the value and the expected form.
 */
export function decodeCursor(text: string): PageCursor {
  const match = /^(-?\d{1,16})\.(\d{1,16})$/.exec(text);
  if (!match) {
    throw new StoreError('STORE_INVALID_INPUT',
      `cursor ${JSON.stringify(text)} is not "<time>.<id>"; pass the "next" value of the previous page unchanged`);
  }
  return { t: Number(match[1]), id: Number(match[2]) };
}

/** The table facts a pager needs; the names are trusted constants from this folder, never input. */
export interface PagedTable {
  readonly table: string;
  readonly timeColumn: string;
  readonly idColumn: string;
  /** The column the `sessionId` filter compares. */
  readonly sessionColumn: string;
}

// Bounds that stand for "no bound" keep every variant one range scan over the (session, t, id)
// or (t, id) index; an `? IS NULL OR …` filter would hide the range from the query planner.
const LOWEST = Number.MIN_SAFE_INTEGER;
const HIGHEST = Number.MAX_SAFE_INTEGER;

/** Pages one table's rows; statements are prepared once per (filter, order) variant. */
export class KeysetPager<Row> {
  readonly #db: Database.Database;
  readonly #spec: PagedTable;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database, spec: PagedTable) {
    this.#db = db;
    this.#spec = spec;
  }

  /** Reads one page and maps its rows with `toItem`. */
  page<T>(request: PageRequest, toItem: (row: Row) => T): Page<T> {
    const limit = checkLimit(request.limit);
    const order = request.order ?? 'asc';
    if (order !== 'asc' && order !== 'desc') {
      throw new StoreError('STORE_INVALID_INPUT', `order ${JSON.stringify(order)} is not "asc" or "desc"`);
    }
    const by = request.by ?? 'time';
    if (by !== 'time' && by !== 'id') {
      throw new StoreError('STORE_INVALID_INPUT', `by ${JSON.stringify(by)} is not "time" or "id"`);
    }
    const bySession = request.sessionId !== undefined;
    const after = request.after;
    const params = {
      session: request.sessionId ?? null,
      since: request.sinceMs ?? LOWEST,
      until: request.untilMs ?? HIGHEST,
      ct: after ? after.t : order === 'asc' ? LOWEST : HIGHEST,
      cid: after ? after.id : order === 'asc' ? LOWEST : HIGHEST,
      limit: limit + 1,
    };
    const rows = this.#statement(bySession, order, by).all(params) as Row[];
    const more = rows.length > limit;
    const kept = more ? rows.slice(0, limit) : rows;
    const last = kept[kept.length - 1] as Record<string, number> | undefined;
    const next = more && last ? { t: last[this.#spec.timeColumn]!, id: last[this.#spec.idColumn]! } : null;
    return { items: kept.map(toItem), next };
  }

  #statement(bySession: boolean, order: 'asc' | 'desc', by: 'time' | 'id'): Database.Statement {
    const key = `${bySession}:${order}:${by}`;
    let statement = this.#statements.get(key);
    if (!statement) {
      const { table, timeColumn: t, idColumn: id, sessionColumn } = this.#spec;
      const past = order === 'asc' ? '>' : '<';
      const keyset = by === 'time' ? `(${t}, ${id}) ${past} (@ct, @cid) ORDER BY ${t} ${order}, ${id} ${order}` : `${id} ${past} @cid ORDER BY ${id} ${order}`;
      statement = this.#db.prepare(
        `SELECT * FROM ${table} WHERE ${bySession ? `${sessionColumn} = @session AND ` : ''}` +
        `${t} >= @since AND ${t} < @until AND ${keyset} LIMIT @limit`);
      this.#statements.set(key, statement);
    }
    return statement;
  }
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new StoreError('STORE_INVALID_INPUT',
      `limit ${JSON.stringify(limit)} is not an integer from 1 to ${MAX_PAGE_LIMIT}; ask for fewer rows and page with "next"`);
  }
  return limit;
}
