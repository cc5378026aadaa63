/**
 * OpenCode's database (`opencode-sqlite`) followed as OpenCode writes it, on real SQLite files with
 * OpenCode 1.18's own `event` DDL: only the new events of the one session are read, a part still
 * being written holds back the parts after it, and every kind of trouble is a counted warning.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryReader } from '../../src/transcript/index.js';

const FIXTURE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../fixtures/history/opencode/1.18.33/hello/opencode.db');
const SES = 'ses_test1';

let home: string;
let file: string;
let db: Database.Database;
let seq: number;

/** A database with the event tables exactly as OpenCode 1.18.33 creates them. */
function createDb(at: string): Database.Database {
  const src = new Database(FIXTURE, { readonly: true });
  const ddl = src.prepare("SELECT sql FROM sqlite_master WHERE tbl_name IN ('event_sequence', 'event') AND sql IS NOT NULL ORDER BY type = 'index'").all() as { sql: string }[];
  src.close();
  const out = new Database(at);
  out.pragma('journal_mode = WAL');
  for (const d of ddl) out.exec(d.sql);
  out.prepare('INSERT INTO event_sequence (aggregate_id, seq) VALUES (?, 0), (?, 0)').run(SES, 'ses_other');
  return out;
}

function append(type: string, data: unknown, session = SES): void {
  seq += 1;
  db.prepare('INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, ?)').run(`evt_${seq}`, session, seq, type, typeof data === 'string' ? data : JSON.stringify(data));
}
const message = (id: string, role: string, extra: Record<string, unknown> = {}) => append('message.updated.1', { sessionID: SES, info: { id, sessionID: SES, role, time: { created: 1000 }, ...extra } });
const part = (p: Record<string, unknown>) => append('message.part.updated.1', { sessionID: SES, part: { sessionID: SES, ...p }, time: 1000 });

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'st-oc-'));
  file = path.join(home, 'opencode.db');
  db = createDb(file);
  seq = 0;
});
afterEach(() => {
  db.close();
  rmSync(home, { recursive: true, force: true });
});

const reader = (sessionId: string | null = SES) => new HistoryReader({ format: 'opencode-sqlite', path: file, homeDir: home, sessionId });
const warnings = (r: HistoryReader) => r.transcript().warnings.map((w) => [w.code, w.count, w.record_type]);

describe('opencode-sqlite', () => {
  it('reads only the new events of its session; a text part being written holds back the call after it', () => {
    append('session.created.1', { sessionID: SES, info: { id: SES, time: { created: 900 } } });
    message('msg_u', 'user');
    part({ id: 'prt_1', messageID: 'msg_u', type: 'text', text: 'make it' });
    append('session.created.1', { sessionID: 'ses_other', info: { id: 'ses_other' } }, 'ses_other');
    const r = reader();
    r.poll();
    expect(r.transcript().turns.map((t) => t.user?.text)).toEqual(['make it']);
    message('msg_a', 'assistant', { modelID: 'lab-model' });
    part({ id: 'prt_2', messageID: 'msg_a', type: 'step-start' });
    part({ id: 'prt_3', messageID: 'msg_a', type: 'text', text: '', time: { start: 1001 } });
    part({ id: 'prt_4', messageID: 'msg_a', type: 'tool', callID: 'c1', tool: 'bash', state: { status: 'running', input: { command: 'ls' }, time: { start: 1002 } } });
    r.poll();
    expect(r.transcript().turns[0]?.items).toEqual([]);
    part({ id: 'prt_3', messageID: 'msg_a', type: 'text', text: 'Listing.', time: { start: 1001, end: 1003 } });
    r.poll();
    expect(r.transcript().turns[0]?.items.map((i) => (i.kind === 'text' ? i.text : `${i.name}:${i.status}`))).toEqual(['Listing.', 'bash:pending']);
    part({ id: 'prt_4', messageID: 'msg_a', type: 'tool', callID: 'c1', tool: 'bash', state: { status: 'completed', input: { command: 'ls' }, output: 'a\nb', time: { start: 1002, end: 1010 } } });
    part({ id: 'prt_5', messageID: 'msg_a', type: 'step-finish', tokens: { input: 5, output: 2, reasoning: 0, cache: { read: 1, write: 0 } }, cost: 0.01 });
    message('msg_a', 'assistant', { modelID: 'lab-model', time: { created: 1000, completed: 1011 } });
    r.poll();
    const t = r.transcript();
    expect(t.native_session_ids).toEqual([SES]);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]?.items[1]).toMatchObject({ kind: 'tool_call', id: 'c1', input: { command: 'ls' }, output: 'a\nb', status: 'ok', duration_ms: 8 });
    expect(t.turns[0]).toMatchObject({ model: 'lab-model', usage: { input_tokens: 5, output_tokens: 2, cache_read_tokens: 1, cache_write_tokens: 0, reasoning_tokens: 0, cost_usd: 0.01 } });
    expect(t.warnings).toEqual([]);
    expect(r.offset).toBe(seq);
    r.poll();
    expect(r.transcript().turns[0]?.items).toHaveLength(2);
  });

  it('an aborted text part is shown when its message ends, with why it ended', () => {
    message('msg_u', 'user');
    part({ id: 'prt_1', messageID: 'msg_u', type: 'text', text: 'go' });
    message('msg_a', 'assistant');
    part({ id: 'prt_2', messageID: 'msg_a', type: 'text', text: 'Half a sen', time: { start: 1 } });
    const r = reader();
    r.poll();
    expect(r.transcript().turns[0]?.items).toEqual([]);
    message('msg_a', 'assistant', { time: { created: 1, completed: 2 }, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } });
    message('msg_a', 'assistant', { time: { created: 1, completed: 2 }, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } });
    r.poll();
    expect(r.transcript().turns[0]?.items).toMatchObject([{ kind: 'text', text: 'Half a sen' }, { kind: 'text', text: '(MessageAbortedError: Aborted)' }]);
  });

  it('counts a corrupt event, an unknown event type and an unknown part type, and reads on', () => {
    message('msg_u', 'user');
    append('message.part.updated.1', '{"sessionID": "ses_test1", "part": ');
    append('hologram.projected.1', { sessionID: SES });
    part({ id: 'prt_1', messageID: 'msg_u', type: 'hologram' });
    part({ id: 'prt_2', messageID: 'msg_u', type: 'text', text: 'still here' });
    const r = reader();
    r.finish();
    expect(r.transcript().turns.map((t) => t.user?.text)).toEqual(['still here']);
    expect(warnings(r)).toEqual([['HISTORY_CORRUPT_LINE', 1, undefined], ['HISTORY_UNKNOWN_RECORD', 1, 'hologram.projected.1'], ['HISTORY_UNKNOWN_RECORD', 1, 'part:hologram']]);
  });

  it('a database not there yet is no warning; one without an event log, or no session id, is one warning', () => {
    const absent = new HistoryReader({ format: 'opencode-sqlite', path: path.join(home, 'none.db'), homeDir: home, sessionId: SES });
    absent.poll();
    absent.poll();
    expect(warnings(absent)).toEqual([]);
    const old = new Database(path.join(home, 'old.db'));
    old.exec('CREATE TABLE session (id text)');
    old.close();
    const noLog = new HistoryReader({ format: 'opencode-sqlite', path: path.join(home, 'old.db'), homeDir: home, sessionId: SES });
    noLog.poll();
    noLog.poll();
    expect(warnings(noLog)).toEqual([['HISTORY_READ_FAILED', 1, undefined]]);
    expect(noLog.transcript().warnings[0]?.message).toMatch(/has no event log/);
    const noId = reader(null);
    noId.poll();
    noId.poll();
    expect(warnings(noId)).toEqual([['HISTORY_READ_FAILED', 1, undefined]]);
  });

  it('a database replaced by another is read again from its start, the turns read before kept', () => {
    message('msg_u', 'user');
    part({ id: 'prt_1', messageID: 'msg_u', type: 'text', text: 'first' });
    const r = reader();
    r.poll();
    db.close();
    const next = path.join(home, 'next.db');
    db = createDb(next);
    seq = 0;
    message('msg_v', 'user');
    part({ id: 'prt_9', messageID: 'msg_v', type: 'text', text: 'second' });
    db.pragma('wal_checkpoint(TRUNCATE)');
    renameSync(next, file);
    r.poll();
    expect(r.transcript().turns.map((t) => t.user?.text)).toEqual(['first', 'second']);
    expect(warnings(r)).toEqual([['HISTORY_FILE_ROTATED', 1, undefined]]);
  });
});
