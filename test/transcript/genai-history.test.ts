/**
 * Gemini CLI (`gemini-jsonl`) and Qwen Code (`qwen-jsonl`) histories on real files, beyond what the
 * lab's fixtures show: a message the CLI appends again as it changes is read once, a rewind and
 * bookkeeping are skipped, and a corrupt line, a line being written or a record of a newer CLI
 * is a counted warning, never a crash.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/protocol/transcripts.js';
import { HistoryReader } from '../../src/transcript/index.js';

let home: string;
let file: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'st-genai-'));
  file = path.join(home, 'session.jsonl');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const lines = (...records: unknown[]) => records.map((r) => `${typeof r === 'string' ? r : JSON.stringify(r)}\n`).join('');
const warnings = (r: HistoryReader) => r.transcript().warnings.map((w) => [w.code, w.count, w.record_type ?? null]);
const callsOf = (r: HistoryReader) => r.transcript().turns.flatMap((t) => t.items.filter((i): i is ToolCall => i.kind === 'tool_call'));

describe('gemini-jsonl', () => {
  const header = { sessionId: 'g-1', projectHash: 'ab'.repeat(32), startTime: '2026-12-06T10:00:00.000Z', lastUpdated: '2026-12-06T10:00:00.000Z', kind: 'main' };
  const user = (id: string, text: string) => ({ id, timestamp: '2026-12-06T10:00:01.000Z', type: 'user', content: [{ text }] });
  const call = { id: 'c1', name: 'run_shell_command', args: { command: 'ls' }, status: 'success', timestamp: '2026-12-06T10:00:03.000Z', result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'a.txt' } } }] };
  const gemini = (extra: Record<string, unknown>) => ({ id: 'm1', timestamp: '2026-12-06T10:00:02.000Z', type: 'gemini', content: 'Listing.', thoughts: [], model: 'gemini-x', ...extra });

  it('reads a message the CLI appended again as it changed once: tokens and the call\'s result added later', () => {
    writeFileSync(file, lines(header, { $set: { messages: [user('ctx', '<session_context>\nstuff\n</session_context>')] } }, user('u1', 'list files'), gemini({})));
    const r = new HistoryReader({ format: 'gemini-jsonl', path: file, homeDir: home });
    r.poll();
    appendFileSync(file, lines(
      gemini({ tokens: { input: 10, output: 4, cached: 2, thoughts: 1, tool: 0, total: 17 } }),
      gemini({ tokens: { input: 10, output: 4, cached: 2, thoughts: 1, tool: 0, total: 17 }, toolCalls: [{ ...call, status: 'executing', result: undefined }] }),
      gemini({ tokens: { input: 10, output: 4, cached: 2, thoughts: 1, tool: 0, total: 17 }, toolCalls: [call] }),
      { id: 'u2', timestamp: '2026-12-06T10:00:03.100Z', type: 'user', content: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'a.txt' } } }] },
      { $set: { lastUpdated: '2026-12-06T10:00:04.000Z' } },
      { id: 'i1', type: 'info', content: 'note' },
      { $rewindTo: 'u1' },
    ));
    r.finish();
    const t = r.transcript();
    expect(t.native_session_ids).toEqual(['g-1']);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]?.user?.text).toBe('list files');
    expect(t.turns[0]?.items.map((i) => i.kind)).toEqual(['text', 'tool_call']);
    expect(callsOf(r)).toEqual([expect.objectContaining({ id: 'c1', input: { command: 'ls' }, output: 'a.txt', status: 'ok', duration_ms: 1000 })]);
    expect(t.usage).toEqual({ input_tokens: 10, output_tokens: 4, cache_read_tokens: 2, reasoning_tokens: 1 });
    expect(warnings(r)).toEqual([]);
  });

  it('a cancelled call is denied; its error is the output', () => {
    const cancelled = { ...call, status: 'cancelled', result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { error: '[Operation Cancelled] Reason: User denied execution.' } } }] };
    writeFileSync(file, lines(header, user('u1', 'list files'), gemini({ toolCalls: [cancelled] })));
    const r = new HistoryReader({ format: 'gemini-jsonl', path: file, homeDir: home });
    r.finish();
    expect(callsOf(r)).toEqual([expect.objectContaining({ status: 'denied', output: '[Operation Cancelled] Reason: User denied execution.' })]);
  });

  it('counts a corrupt line, a record of a newer CLI and a last line never finished', () => {
    writeFileSync(file, `${lines(header, 'not json {', { $compact: true }, { id: 'x', type: 'summary_card', content: 'hi' }, user('u1', 'hello'))}{"id":"m9","type":"gem`);
    const r = new HistoryReader({ format: 'gemini-jsonl', path: file, homeDir: home });
    r.poll();
    expect(r.transcript().turns[0]?.user?.text).toBe('hello');
    r.finish();
    expect(warnings(r)).toEqual([
      ['HISTORY_CORRUPT_LINE', 1, null],
      ['HISTORY_UNKNOWN_RECORD', 1, '$compact'],
      ['HISTORY_UNKNOWN_RECORD', 1, 'message:summary_card'],
      ['HISTORY_TRUNCATED_LINE', 1, null],
    ]);
  });
});

describe('qwen-jsonl', () => {
  const base = { sessionId: 'q-1', timestamp: '2026-12-06T10:00:00.000Z', cwd: '/work/a', version: '0.15.10' };

  it('skips bookkeeping, counts a corrupt line, a newer record type and a line never finished', () => {
    writeFileSync(file, `${lines(
      { ...base, type: 'user', message: { role: 'user', parts: [{ text: 'hi' }] } },
      { ...base, type: 'system', subtype: 'ui_telemetry', systemPayload: {} },
      '{broken',
      { ...base, type: 'checkpoint' },
      { ...base, type: 'assistant', message: { role: 'model', parts: [{ text: 'thinking', thought: true }, { text: 'Hello.' }] }, usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3 } },
    )}{"type":"assis`);
    const r = new HistoryReader({ format: 'qwen-jsonl', path: file, homeDir: home });
    r.finish();
    const t = r.transcript();
    expect(t.native_session_ids).toEqual(['q-1']);
    expect(t.turns.map((turn) => [turn.user?.text, turn.items.map((i) => (i.kind === 'text' ? i.text : i.kind))])).toEqual([['hi', ['Hello.']]]);
    expect(t.usage).toEqual({ input_tokens: 7, output_tokens: 3, cache_read_tokens: 0, reasoning_tokens: 0 });
    expect(warnings(r)).toEqual([
      ['HISTORY_CORRUPT_LINE', 1, null],
      ['HISTORY_UNKNOWN_RECORD', 1, 'checkpoint'],
      ['HISTORY_TRUNCATED_LINE', 1, null],
    ]);
  });

  it('a failed tool is an error with its message as the output', () => {
    writeFileSync(file, lines(
      { ...base, type: 'user', message: { role: 'user', parts: [{ text: 'read it' }] } },
      { ...base, type: 'assistant', message: { role: 'model', parts: [{ functionCall: { id: 'k1', name: 'read_file', args: { absolute_path: '/nope' } } }] } },
      { ...base, type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'k1', name: 'read_file', response: { error: 'File not found: /nope' } } }] }, toolCallResult: { callId: 'k1', status: 'error' } },
    ));
    const r = new HistoryReader({ format: 'qwen-jsonl', path: file, homeDir: home });
    r.finish();
    expect(callsOf(r)).toEqual([expect.objectContaining({ id: 'k1', status: 'error', output: 'File not found: /nope', edits: [] })]);
  });
});
