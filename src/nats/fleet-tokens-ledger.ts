/**
 * The hub's side of the fleet's tokens: every token the hub makes (created, paired) or revokes
 * becomes a record in the bucket `specterm_tokens` (./fleet-tokens.ts). The hub's SQLite store
 * keeps only each secret's hash and does not hand it out, so the ledger keeps its own copy of
 * the records (`<state>/fleet-tokens.json`, 0600 — hashes, never secrets): it is what the hub
 * writes into the bucket again whenever it links to NATS, so a token made while NATS was away,
 * or a bucket lost with its server, comes back.
 * @module
 */
import fs from 'node:fs';
import type { KV } from '@nats-io/kv';
import { writePrivateFile } from '../fs/private-file.js';
import { parseFleetTokenRecord, type FleetTokenRecord } from './fleet-tokens.js';

export class FleetTokenLedger {
  readonly #file: string;
  readonly #records: Map<string, FleetTokenRecord>;
  readonly #log: (message: string) => void;
  /** Writes into the bucket under way, by token id: a forwarded call waits for its token's. */
  readonly #pending = new Map<string, Promise<void>>();
  #kv: KV | null = null;

  constructor(options: { file: string; log: (message: string) => void }) {
    this.#file = options.file;
    this.#log = options.log;
    this.#records = readLedger(options.file);
  }

  /** Records a token (new, or revoked now) and writes it into the bucket when linked. */
  record(id: string, record: FleetTokenRecord): void {
    this.#records.set(id, record);
    writePrivateFile(this.#file, JSON.stringify(Object.fromEntries(this.#records), null, 1) + '\n');
    this.#put(id, record);
  }

  /** Marks a token revoked (known to the ledger or not: its record then says so). */
  revoke(id: string, at: number): void {
    const known = this.#records.get(id);
    if (known && known.revoked_at === null) this.record(id, { ...known, revoked_at: at });
  }

  /** Links to the bucket: writes every record into it (the bucket catches up with what it missed). */
  attach(kv: KV): void {
    this.#kv = kv;
    for (const [id, record] of this.#records) this.#put(id, record);
  }

  detach(): void {
    this.#kv = null;
  }

  /** Resolves once the bucket has the token's latest record (or the write failed: the node then refuses it). */
  async settled(id: string): Promise<void> {
    await this.#pending.get(id);
  }

  #put(id: string, record: FleetTokenRecord): void {
    const kv = this.#kv;
    if (!kv) return;
    const write = kv.put(id, JSON.stringify(record)).then(() => {}, (error: unknown) => {
      this.#log(`the fleet token ${id} could not be written to NATS (${(error as Error).message}); it is written again when the hub links`);
    });
    const settled = write.finally(() => { if (this.#pending.get(id) === settled) this.#pending.delete(id); });
    this.#pending.set(id, settled);
  }
}

function readLedger(file: string): Map<string, FleetTokenRecord> {
  const records = new Map<string, FleetTokenRecord>();
  let parsed: unknown;
  try { parsed = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return records; }
  if (typeof parsed !== 'object' || parsed === null) return records;
  for (const [id, value] of Object.entries(parsed)) {
    const record = parseFleetTokenRecord(new TextEncoder().encode(JSON.stringify(value)));
    if (record) records.set(id, record);
  }
  return records;
}
