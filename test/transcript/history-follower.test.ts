/**
 * Following a history file as the CLI writes it, on real files: only new bytes are read, a line
 * being written waits for its newline, and every kind of trouble is a counted warning.
 */
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryReader } from '../../src/transcript/index.js';

let home: string;
let file: string;
const rec = (r: Record<string, unknown>) => `${JSON.stringify({ at: '2026-01-01T00:00:00.000Z', ...r })}\n`;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'st-follow-'));
  mkdirSync(path.join(home, 'sessions'));
  file = path.join(home, 'sessions', 's1.jsonl');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const reader = (opts: { chunkBytes?: number; maxLineBytes?: number } = {}) => new HistoryReader({ format: 'demo-jsonl', path: file, homeDir: home, ...opts });
const codes = (r: HistoryReader) => r.transcript().warnings.map((w) => [w.code, w.count]);

describe('HistoryFollower through HistoryReader (demo-jsonl)', () => {
  it('reads only what was appended, and keeps a partial last line until its newline', () => {
    const r = reader({ chunkBytes: 7 });
    r.poll();
    expect(r.transcript().turns).toEqual([]);
    expect(codes(r)).toEqual([]); // not written yet is not a problem
    writeFileSync(file, rec({ type: 'session', session_id: 's1' }) + rec({ type: 'user', text: 'hi' }));
    r.poll();
    const line = rec({ type: 'assistant', text: 'hello there' });
    appendFileSync(file, line.slice(0, 20));
    r.poll();
    expect(r.transcript().turns[0]?.items).toEqual([]);
    appendFileSync(file, line.slice(20));
    r.poll();
    expect(r.transcript().turns[0]?.items).toEqual([{ kind: 'text', text: 'hello there', at: Date.parse('2026-01-01T00:00:00.000Z') }]);
    expect(r.offset).toBe(Buffer.byteLength(rec({ type: 'session', session_id: 's1' }) + rec({ type: 'user', text: 'hi' }) + line));
    expect(r.transcript().native_session_ids).toEqual(['s1']);
    expect(codes(r)).toEqual([]);
  });

  it('counts corrupt lines and unknown record types (with the type, a drift note), and goes on', () => {
    writeFileSync(file, `${rec({ type: 'user', text: 'a' })}{"type": "assist\n${rec({ type: 'mystery' })}${rec({ type: 'mystery' })}not json\n${rec({ type: 'assistant', text: 'b' })}`);
    const r = reader();
    r.poll();
    expect(r.transcript().turns[0]?.items.map((i) => i.kind === 'text' && i.text)).toEqual(['b']);
    expect(codes(r)).toEqual([['HISTORY_CORRUPT_LINE', 2], ['HISTORY_UNKNOWN_RECORD', 2]]);
    expect(r.transcript().warnings[1]).toMatchObject({ record_type: 'mystery' });
  });

  it('reports a last line that never completed when the session ends', () => {
    writeFileSync(file, rec({ type: 'user', text: 'a' }) + '{"type":"assistant","te');
    const r = reader();
    r.finish();
    expect(codes(r)).toEqual([['HISTORY_TRUNCATED_LINE', 1]]);
    expect(r.transcript().turns).toHaveLength(1);
  });

  it('skips a line over the cap without holding it in memory', () => {
    writeFileSync(file, rec({ type: 'user', text: 'x'.repeat(5000) }) + rec({ type: 'user', text: 'small' }));
    const r = reader({ chunkBytes: 512, maxLineBytes: 1024 });
    r.poll();
    expect(r.transcript().turns.map((t) => t.user?.text)).toEqual(['small']);
    expect(codes(r)).toEqual([['HISTORY_LINE_TOO_LONG', 1]]);
  });

  it('starts again from the top of a replaced file (inode change) and keeps what was read', () => {
    writeFileSync(file, rec({ type: 'user', text: 'first' }));
    const r = reader();
    r.poll();
    writeFileSync(`${file}.new`, rec({ type: 'user', text: 'second' }));
    renameSync(`${file}.new`, file);
    r.poll();
    expect(r.transcript().turns.map((t) => t.user?.text)).toEqual(['first', 'second']);
    expect(codes(r)).toEqual([['HISTORY_FILE_ROTATED', 1]]);
  });

  it('says once that the file was deleted, and keeps the transcript', () => {
    writeFileSync(file, rec({ type: 'user', text: 'kept' }));
    const r = reader();
    r.poll();
    rmSync(file);
    r.poll();
    r.poll();
    expect(r.transcript().turns.map((t) => t.user?.text)).toEqual(['kept']);
    expect(codes(r)).toEqual([['HISTORY_FILE_DELETED', 1]]);
  });

  it('does not read a symlink that leads out of the home directory', () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'st-outside-'));
    try {
      writeFileSync(path.join(outside, 'secret.jsonl'), rec({ type: 'user', text: 'secret' }));
      symlinkSync(path.join(outside, 'secret.jsonl'), file);
      const r = reader();
      r.poll();
      r.poll();
      expect(r.transcript().turns).toEqual([]);
      expect(codes(r)).toEqual([['HISTORY_OUTSIDE_HOME', 1]]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('reports a path it cannot read as a file (a directory) as a read failure', () => {
    mkdirSync(file);
    const r = reader();
    r.poll();
    expect(codes(r)).toEqual([['HISTORY_READ_FAILED', 1]]);
  });

  it('refuses a format it has no parser for, with a stable code and the formats it reads', () => {
    expect(() => new HistoryReader({ format: 'gemini-json', path: file, homeDir: home })).toThrow(expect.objectContaining({ code: 'TRANSCRIPT_NO_PARSER', message: expect.stringContaining('no reader for the history format "gemini-json"') }));
  });
});
