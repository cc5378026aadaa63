import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AsciicastRecorder } from './recorder.js';
import { parseAsciicast } from './asciicast.js';
import { RecordingError } from './errors.js';

const dir = mkdtempSync(join(tmpdir(), 'specterm-rec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A manual clock in milliseconds. */
function manualClock(startMs: number): { clock: () => number; set: (ms: number) => void } {
  let now = startMs;
  return { clock: () => now, set: (ms) => (now = ms) };
}

describe('AsciicastRecorder', () => {
  it('writes a header and events with times relative to open, in seconds', () => {
    const path = join(dir, 'basic.cast');
    const time = manualClock(1_000_000);
    const rec = AsciicastRecorder.open(path, { cols: 100, rows: 30, clock: time.clock, timestamp: 1767225600, title: 'demo', env: { TERM: 'xterm-256color' } });
    time.set(1_000_250);
    rec.output('hello\r\n');
    time.set(1_001_000);
    rec.input('y');
    rec.resize(120, 40);
    time.set(1_001_500.1234567);
    rec.marker('approval');
    rec.close();
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n')).toEqual([
      '{"version":2,"width":100,"height":30,"timestamp":1767225600,"title":"demo","env":{"TERM":"xterm-256color"}}',
      '[0.25,"o","hello\\r\\n"]',
      '[1,"i","y"]',
      '[1,"r","120x40"]',
      '[1.500123,"m","approval"]',
      '',
    ]);
    expect(parseAsciicast(text).events).toHaveLength(4);
  });

  it('creates the file readable by the owner only', () => {
    const path = join(dir, 'private.cast');
    writeFileSync(path, 'old');
    chmodSync(path, 0o644);
    AsciicastRecorder.open(path, { cols: 80, rows: 24, clock: () => 0 }).close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('{"version":2,"width":80,"height":24}\n');
  });

  it('never writes decreasing times when the clock steps backwards', () => {
    const path = join(dir, 'backwards.cast');
    const time = manualClock(5000);
    const rec = AsciicastRecorder.open(path, { cols: 80, rows: 24, clock: time.clock });
    time.set(7000);
    rec.output('a');
    time.set(6000);
    rec.output('b');
    rec.close();
    expect(parseAsciicast(readFileSync(path, 'utf8')).events.map((e) => e.t)).toEqual([2, 2]);
  });

  it('ignores events after close and tolerates a second close', () => {
    const path = join(dir, 'closed.cast');
    const rec = AsciicastRecorder.open(path, { cols: 80, rows: 24, clock: () => 0 });
    rec.close();
    rec.output('late');
    rec.close();
    expect(rec.isClosed).toBe(true);
    expect(parseAsciicast(readFileSync(path, 'utf8')).events).toEqual([]);
  });

  it('leaves an existing file at the path untouched until commit, then replaces it whole', () => {
    const sub = join(dir, 'commit');
    mkdirSync(sub);
    const path = join(sub, 'keep.cast');
    writeFileSync(path, 'precious');
    const rec = AsciicastRecorder.open(path, { cols: 80, rows: 24, clock: () => 0 });
    rec.output('a');
    expect(readFileSync(path, 'utf8')).toBe('precious');
    rec.commit();
    rec.output('b');
    rec.close();
    expect(parseAsciicast(readFileSync(path, 'utf8')).events.map((e) => e.data)).toEqual(['a', 'b']);
    expect(readdirSync(sub)).toEqual(['keep.cast']);
  });

  it('discard removes what it wrote and keeps the existing file byte-identical', () => {
    const sub = join(dir, 'discard');
    mkdirSync(sub);
    const path = join(sub, 'keep.cast');
    writeFileSync(path, 'precious');
    const rec = AsciicastRecorder.open(path, { cols: 80, rows: 24, clock: () => 0 });
    rec.output('a');
    rec.discard();
    rec.close();
    expect(readFileSync(path, 'utf8')).toBe('precious');
    expect(readdirSync(sub)).toEqual(['keep.cast']);
  });

  it('refuses a directory or a read-only file at the path at open, leaving it as it was', () => {
    const sub = join(dir, 'refuse');
    mkdirSync(join(sub, 'd.cast'), { recursive: true });
    expect(() => AsciicastRecorder.open(join(sub, 'd.cast'), { cols: 80, rows: 24, clock: () => 0 })).toThrow(/cannot create recording .*d\.cast.*: it is a directory/);
    writeFileSync(join(sub, 'ro.cast'), 'keep');
    chmodSync(join(sub, 'ro.cast'), 0o444);
    expect(() => AsciicastRecorder.open(join(sub, 'ro.cast'), { cols: 80, rows: 24, clock: () => 0 })).toThrow(/read-only/);
    expect(readFileSync(join(sub, 'ro.cast'), 'utf8')).toBe('keep');
    expect(readdirSync(sub).sort()).toEqual(['d.cast', 'ro.cast']);
  });

  it('fails with RECORDING_IO_FAILED naming the path when the directory is missing', () => {
    const path = join(dir, 'missing', 'x.cast');
    let caught: unknown;
    try {
      AsciicastRecorder.open(path, { cols: 80, rows: 24, clock: () => 0 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RecordingError);
    expect((caught as RecordingError).code).toBe('RECORDING_IO_FAILED');
    expect((caught as RecordingError).message).toContain(`cannot create recording ${JSON.stringify(path)}`);
  });
});
