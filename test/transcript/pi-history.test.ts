/**
 * pi's session file (`pi-jsonl`) read as pi writes it, on real files: a line being written is
 * waited for, a corrupt line and an entry or message role of a newer pi are counted warnings, and
 * pi's screen diff becomes a unified diff.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/protocol/transcripts.js';
import { HistoryReader } from '../../src/transcript/index.js';
import { unifiedFromPiDiff } from '../../src/transcript/parsers/pi.js';

let home: string;
let file: string;
const at = '2026-12-06T15:55:21.090Z';
const line = (r: Record<string, unknown>) => `${JSON.stringify({ timestamp: at, ...r })}\n`;
const message = (m: Record<string, unknown>) => line({ type: 'message', id: Math.random().toString(16).slice(2, 10), message: m });
const HEADER = line({ type: 'session', version: 3, id: '01a24c11-2281-7338-9636-bc016664dcb9', cwd: '/w' });

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'st-pi-'));
  file = path.join(home, 's.jsonl');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const reader = () => new HistoryReader({ format: 'pi-jsonl', path: file, homeDir: home });
const calls = (r: HistoryReader) => r.transcript().turns.flatMap((t) => t.items.filter((i): i is ToolCall => i.kind === 'tool_call'));

describe('pi-jsonl', () => {
  it('waits for a line being written, then reads it once', () => {
    writeFileSync(file, HEADER + message({ role: 'user', content: [{ type: 'text', text: 'say hello' }] }));
    const r = reader();
    r.poll();
    const answer = message({ role: 'assistant', content: [{ type: 'text', text: 'Hello!' }], model: 'm', usage: { input: 3, output: 2, cacheRead: 1, cacheWrite: 0, cost: { total: 0.5 } } });
    appendFileSync(file, answer.slice(0, 30));
    r.poll();
    expect(r.transcript().turns[0]?.items).toEqual([]);
    appendFileSync(file, answer.slice(30));
    r.poll();
    const t = r.transcript();
    expect(t.native_session_ids).toEqual(['01a24c11-2281-7338-9636-bc016664dcb9']);
    expect(t.turns[0]).toMatchObject({ user: { text: 'say hello' }, items: [{ kind: 'text', text: 'Hello!' }], model: 'm', usage: { input_tokens: 3, output_tokens: 2, cache_read_tokens: 1, cache_write_tokens: 0, cost_usd: 0.5 } });
    expect(t.warnings).toEqual([]);
  });

  it('counts a corrupt line, an unknown entry and an unknown message role, and reads on', () => {
    writeFileSync(file, HEADER + '{"type":"message",\n' + line({ type: 'hologram', id: 'x' }) + line({ type: 'hologram', id: 'y' }) + message({ role: 'oracle', content: 'x' })
      + line({ type: 'model_change', id: 'm', provider: 'lab', modelId: 'lab-model' }) + message({ role: 'user', content: 'go on' }));
    const r = reader();
    r.finish();
    const t = r.transcript();
    expect(t.turns.map((x) => x.user?.text)).toEqual(['go on']);
    expect(t.warnings.map((w) => [w.code, w.count, w.record_type])).toEqual([
      ['HISTORY_CORRUPT_LINE', 1, undefined],
      ['HISTORY_UNKNOWN_RECORD', 2, 'hologram'],
      ['HISTORY_UNKNOWN_RECORD', 1, 'message:oracle'],
    ]);
  });

  it('a last line that never completes is a truncated-line warning when the session ends', () => {
    writeFileSync(file, HEADER + message({ role: 'user', content: 'hi' }).slice(0, 25));
    const r = reader();
    r.finish();
    expect(r.transcript().warnings.map((w) => w.code)).toEqual(['HISTORY_TRUNCATED_LINE']);
  });

  it('a failed tool is an error, an aborted answer says why, a "!" command is a turn of its own', () => {
    writeFileSync(file, HEADER
      + message({ role: 'user', content: 'run it' })
      + message({ role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'false' } }] })
      + message({ role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: 'Command exited with code 1' }], isError: true })
      + message({ role: 'assistant', content: [], stopReason: 'aborted', errorMessage: 'Operation aborted' })
      + message({ role: 'bashExecution', command: 'ls', output: 'a\nb', exitCode: 0, cancelled: false }));
    const r = reader();
    r.finish();
    const t = r.transcript();
    expect(t.turns.map((x) => x.user?.text)).toEqual(['run it', '!ls']);
    expect(t.turns[0]?.items.at(-1)).toMatchObject({ kind: 'text', text: '(aborted: Operation aborted)' });
    expect(calls(r).map((c) => [c.name, c.status, c.output, c.edits])).toEqual([['bash', 'error', 'Command exited with code 1', []], ['bash', 'ok', 'a\nb', []]]);
  });

  it('turns pi\'s screen diff (line numbers, "..." between hunks) into unified hunks', () => {
    const diff = [' 1 a', '-2 b', '+2 B', ' 3 c', '   ...', ' 9 i', '+10 J', '+11 K', '-10 j'].join('\n');
    expect(unifiedFromPiDiff('/w/f.txt', diff)).toEqual({
      path: '/w/f.txt',
      kind: 'edit',
      diff: '--- a/w/f.txt\n+++ b/w/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -9,2 +9,3 @@\n i\n+J\n+K\n-j\n',
    });
  });
});
