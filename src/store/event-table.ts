/**
 * What the append-only tables (`state_changes`, `notifications`, `audit`) share: a row by id and
 * keyset pages ordered by (t, id), each row turned into its record by one function. Each table
 * keeps its own `insert`, which is where they differ.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { KeysetPager, type Page, type PageRequest } from './paging.js';

/** An append-only table with an integer `id`, a time column `t` and a `session_id` column. */
export class EventTable<Row, Rec> {
  readonly #get: Database.Statement;
  readonly #pager: KeysetPager<Row>;
  readonly #toRecord: (row: Row) => Rec;

  constructor(db: Database.Database, table: string, toRecord: (row: Row) => Rec) {
    this.#get = db.prepare(`SELECT * FROM ${table} WHERE id = ?`);
    this.#pager = new KeysetPager(db, { table, timeColumn: 't', idColumn: 'id', sessionColumn: 'session_id' });
    this.#toRecord = toRecord;
  }

  /** The record with this id, or null. */
  get(id: number): Rec | null {
    const row = this.#get.get(id) as Row | undefined;
    return row ? this.#toRecord(row) : null;
  }

  /** One page ordered by (t, id). */
  page(request: PageRequest = {}): Page<Rec> {
    return this.#pager.page(request, this.#toRecord);
  }
}
