/**
 * Real history files the real CLIs wrote under the conformance lab (`npm run lab -- <cli>
 * --history-to DIR`, trimmed by lab/lib/trim-history.mjs) parse into transcripts that say exactly
 * what the lab's scripted model server sent (its log, committed beside each file, is the ground
 * truth), and each tool call's output is what the tool printed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HistoryFormat, ToolCall, Transcript } from '../../src/protocol/transcripts.js';
import { Transcript as TranscriptSchema } from '../../src/protocol/transcripts.js';
import { HistoryReader } from '../../src/transcript/index.js';
import { findNewestOpenCodeSession } from '../../src/transcript/opencode-db-follower.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/history');

function read(format: HistoryFormat, file: string, sessionId?: string): Transcript {
  const reader = new HistoryReader({ format, path: file, homeDir: FIXTURES, sessionId });
  reader.finish();
  const t = reader.transcript();
  expect(TranscriptSchema.parse(t)).toEqual(t);
  return t;
}

const texts = (t: Transcript) => t.turns.flatMap((turn) => turn.items.filter((i) => i.kind === 'text').map((i) => i.text));
const calls = (t: Transcript) => t.turns.flatMap((turn) => turn.items.filter((i): i is ToolCall => i.kind === 'tool_call'));
const scenarios = (cli: string, version: string) => readdirSync(path.join(FIXTURES, cli, version));

interface ClaudeEvent { kind: string; text?: string; preface?: string; matched?: string; tool_use_id?: string; name?: string; input?: unknown; content?: string; is_error?: boolean }

describe('Claude Code 2.1.332 (claude-jsonl)', () => {
  it.each(scenarios('claude-code', '2.1.332'))('%s: the transcript is what the scripted server sent', (scenario) => {
    const dir = path.join(FIXTURES, 'claude-code', '2.1.332', scenario);
    const log = JSON.parse(readFileSync(path.join(dir, 'server-log.json'), 'utf8')) as { events: ClaudeEvent[] };
    const t = read('claude-jsonl', path.join(dir, 'session.jsonl'));
    const ev = log.events;
    expect(t.warnings).toEqual([]);
    expect(t.native_session_ids).toHaveLength(1);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]?.user?.text).toBe(ev.find((e) => e.kind === 'prompt')?.matched);
    const sent = ev.filter((e) => e.kind === 'stream_end').flatMap((e) => [e.preface, e.text]).filter((s): s is string => typeof s === 'string' && s !== '');
    expect(texts(t)).toEqual(sent);
    const pending = ev.filter((e) => e.kind === 'tool_use_pending');
    expect(calls(t).map((c) => ({ id: c.id, name: c.name }))).toEqual(pending.map((e) => ({ id: e.tool_use_id, name: e.name })));
    for (const [i, c] of calls(t).entries()) {
      expect(c.input).toMatchObject(pending[i]?.input as object);
      const result = ev.find((e) => e.kind === 'tool_result' && e.tool_use_id === c.id);
      expect(c.status).toBe(result?.is_error ? 'error' : 'ok');
      expect(c.output?.slice(0, 200)).toBe(result?.content);
    }
    const streams = ev.filter((e) => e.kind === 'stream_start').length;
    expect(t.usage).toMatchObject({ input_tokens: 20 * streams });
    expect(t.usage?.cost_usd).toBeGreaterThan(0);
  });

  it('history-bash: the Bash call\'s output is exactly what printf printed', () => {
    const t = read('claude-jsonl', path.join(FIXTURES, 'claude-code/2.1.332/history-bash/session.jsonl'));
    expect(calls(t)[0]).toMatchObject({ name: 'Bash', status: 'ok', output: 'history-marker-one\nhistory-marker-two' });
    expect(calls(t)[0]?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('history-edit: the Edit is a unified diff of the change', () => {
    const t = read('claude-jsonl', path.join(FIXTURES, 'claude-code/2.1.332/history-edit/session.jsonl'));
    const edit = calls(t).find((c) => c.name === 'Edit');
    expect(edit?.edits).toHaveLength(1);
    expect(edit?.edits[0]?.kind).toBe('edit');
    expect(edit?.edits[0]?.diff).toMatch(/^--- a\/.*config\.txt\n\+\+\+ b\/.*config\.txt\n@@ -1,2 \+1,2 @@\n-mode = old\n\+mode = new\n level = 3\n$/);
  });
});

interface CodexEvent { event: string; user?: string; text?: string; call_id?: string; tool?: string; arguments?: string; output?: string }

describe('Codex 0.171.0 (codex-rollout-jsonl)', () => {
  it.each(scenarios('codex', '0.171.0'))('%s: the transcript is what the scripted server sent', (scenario) => {
    const dir = path.join(FIXTURES, 'codex', '0.171.0', scenario);
    const log = JSON.parse(readFileSync(path.join(dir, 'server-log.json'), 'utf8')) as { events: CodexEvent[] };
    const t = read('codex-rollout-jsonl', path.join(dir, 'rollout.jsonl'));
    const ev = log.events;
    expect(t.warnings).toEqual([]);
    expect(t.native_session_ids).toHaveLength(1);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]?.user?.text).toBe(ev.find((e) => e.event === 'request')?.user);
    expect(texts(t)).toEqual(ev.filter((e) => e.event === 'stream_end' && e.text !== undefined).map((e) => e.text));
    const pending = ev.filter((e) => e.event === 'tool_call_pending');
    expect(calls(t).map((c) => ({ id: c.id, name: c.name, input: c.input }))).toEqual(pending.map((e) => ({ id: e.call_id, name: e.tool, input: JSON.parse(e.arguments ?? 'null') })));
    for (const c of calls(t)) {
      expect(c.output?.slice(0, 300)).toBe(ev.find((e) => e.event === 'tool_result' && e.call_id === c.id)?.output);
      expect(c.status).toBe('ok');
    }
    const responses = ev.filter((e) => e.event === 'stream_start').length;
    expect(t.usage).toMatchObject({ input_tokens: 120 * responses, output_tokens: 40 * responses });
  });

  it('patch-yes: the added file is a diff that creates it', () => {
    const t = read('codex-rollout-jsonl', path.join(FIXTURES, 'codex/0.171.0/patch-yes/rollout.jsonl'));
    expect(calls(t)[0]?.edits).toEqual([expect.objectContaining({ kind: 'create', diff: expect.stringMatching(/^--- \/dev\/null\n\+\+\+ b\/.*outside\/note\.txt\n@@ -0,0 \+1,1 @@\n\+lab note\n$/) })]);
  });
});

/** The log of lab/lib/openai-chat-server.mjs (pi, OpenCode, Kilo Code): what it sent and got. */
interface ChatEvent { t?: number; event: string; text?: string; name?: string; call_id?: string; arguments?: unknown; id?: string; output?: string }

/** Checks a chat-lab transcript against its server log: the person's words, every answer, every call and its result (`denied`: the person rejected every call), the tokens. */
function expectChatLog(t: Transcript, ev: ChatEvent[], { denied = false } = {}): void {
  expect(t.native_session_ids).toHaveLength(1);
  expect(t.turns).toHaveLength(1);
  expect(t.turns[0]?.user?.text).toBe(ev.find((e) => e.event === 'prompt')?.text);
  // What each stream sent (all of it, or up to the interrupt); an answer cut by an error or an
  // interrupt ends with the CLI's note of why, e.g. "(aborted: Operation aborted)".
  const notes = texts(t).filter((x) => /^\([A-Za-z]+: [^\n]*\)$/.test(x));
  expect(texts(t).filter((x) => !notes.includes(x))).toEqual(ev.filter((e) => (e.event === 'stream_end' || e.event === 'stream_aborted') && e.text).map((e) => e.text));
  expect(notes).toHaveLength(ev.filter((e) => e.event === 'api_error' || e.event === 'stream_aborted').length);
  const pending = ev.filter((e) => e.event === 'tool_call_pending');
  expect(calls(t).map((c) => ({ id: c.id, name: c.name, input: c.input }))).toEqual(pending.map((e) => ({ id: e.call_id, name: e.name, input: e.arguments })));
  for (const c of calls(t)) {
    const result = ev.find((e) => e.event === 'tool_result' && e.id === c.id);
    // A rejected call: OpenCode tells the model nothing, Kilo Code tells it the person said no.
    if (result || !denied) expect(c.output?.slice(0, 200)).toBe(result?.output);
    expect(c.status).toBe(denied ? 'denied' : 'ok');
  }
  // The server counts 120 + 40 tokens for each answer it finished; a cut one counts none.
  const responses = ev.filter((e) => e.event === 'stream_end').length;
  expect([t.usage?.input_tokens ?? 0, t.usage?.output_tokens ?? 0]).toEqual([120 * responses, 40 * responses]);
}

const chatLog = (dir: string) => (JSON.parse(readFileSync(path.join(dir, 'server-log.json'), 'utf8')) as { events: ChatEvent[] }).events;

describe('pi 0.73.1 (pi-jsonl)', () => {
  it.each(scenarios('pi', '0.73.1'))('%s: the transcript is what the scripted server sent', (scenario) => {
    const dir = path.join(FIXTURES, 'pi', '0.73.1', scenario);
    const t = read('pi-jsonl', path.join(dir, 'session.jsonl'));
    expect(t.warnings).toEqual([]);
    expectChatLog(t, chatLog(dir));
    expect(t.usage?.cost_usd).toBe(0);
    expect(t.turns[0]?.model).toBe('lab-model');
  });

  it('edit-unasked: the edit is a unified diff of the change', () => {
    const t = read('pi-jsonl', path.join(FIXTURES, 'pi/0.73.1/edit-unasked/session.jsonl'));
    expect(calls(t)[0]?.edits).toEqual([{ kind: 'edit', path: expect.stringMatching(/README\.md$/), diff: expect.stringMatching(/^--- a\/.*README\.md\n\+\+\+ b\/.*README\.md\n@@ -1,1 \+1,1 @@\n-# lab workspace\n\+# lab workspace \(edited\)\n$/) }]);
  });

  it('write-unasked: the written file is a diff that creates it', () => {
    const t = read('pi-jsonl', path.join(FIXTURES, 'pi/0.73.1/write-unasked/session.jsonl'));
    expect(calls(t)[0]?.edits).toEqual([{ kind: 'create', path: expect.stringMatching(/notes\.txt$/), diff: expect.stringMatching(/^--- \/dev\/null\n\+\+\+ b\/.*notes\.txt\n@@ -0,0 \+1,2 @@\n\+lab notes\n\+second line\n$/) }]);
  });
});

/** The session the lab's CLI started in its cwd: found as the daemon finds it, by cwd and start time. */
function labSession(dir: string, file: string): string {
  const log = JSON.parse(readFileSync(path.join(dir, 'server-log.json'), 'utf8')) as { cwd: string; events: ChatEvent[] };
  const id = findNewestOpenCodeSession(file, log.cwd, log.events[0]?.t ?? 0);
  expect(id).toMatch(/^ses_/);
  expect(findNewestOpenCodeSession(file, log.cwd, Date.now())).toBeNull();
  expect(findNewestOpenCodeSession(file, '/elsewhere', 0)).toBeNull();
  return id ?? '';
}

describe.each([
  { cli: 'opencode', version: '1.18.33', db: 'opencode.db' },
  { cli: 'kilocode', version: '7.7.7', db: 'kilo.db' },
])('$cli $version (opencode-sqlite)', ({ cli, version, db }) => {
  it.each(scenarios(cli, version))('%s: the transcript is what the scripted server sent', (scenario) => {
    const dir = path.join(FIXTURES, cli, version, scenario);
    const file = path.join(dir, db);
    const id = labSession(dir, file);
    const t = read('opencode-sqlite', file, id);
    expect(t.warnings).toEqual([]);
    expect(t.native_session_ids).toEqual([id]);
    expectChatLog(t, chatLog(dir), { denied: scenario === 'approve-no' });
    // OpenCode writes a cost with each finished step; an answer cut short has none.
    expect(t.usage?.cost_usd ?? 0).toBe(0);
    expect(t.turns[0]?.model).toBe('lab-model');
  });

  it('approve-no: the rejected call says the person rejected it', () => {
    const dir = path.join(FIXTURES, cli, version, 'approve-no');
    const file = path.join(dir, db);
    expect(calls(read('opencode-sqlite', file, labSession(dir, file)))[0]).toMatchObject({ name: 'bash', status: 'denied', output: expect.stringMatching(/rejected permission/) });
  });

  it('edit-readme-yes: the edit is a unified diff of the change', () => {
    const dir = path.join(FIXTURES, cli, version, 'edit-readme-yes');
    const file = path.join(dir, db);
    expect(calls(read('opencode-sqlite', file, labSession(dir, file)))[0]?.edits).toEqual([{ kind: 'edit', path: expect.stringMatching(/README\.md$/), diff: expect.stringMatching(/^--- a\/.*README\.md\n\+\+\+ b\/.*README\.md\n@@ -1,1 \+1,1 @@\n-# lab workspace\n\+# lab workspace \(edited\)\n$/) }]);
  });
});

/** The scripted server's log of the Gemini API and OpenAI Chat labs (lab/gemini/server.mjs, lab/lib/openai-chat-server.mjs). */
interface LabEvent { event: string; text?: string; name?: string; id?: string; call_id?: string; args?: unknown; arguments?: unknown; output?: string }
/** The log and the id the lab launched the CLI with (`--session-id`, as the daemon does). */
const labLog = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'server-log.json'), 'utf8')) as { session_id: string; events: LabEvent[] };
const streamed = (ev: LabEvent[]) => ev.filter((e) => e.event === 'stream_end' && e.text).map((e) => e.text);

/** What every lab transcript says: the CLI's id, one turn of the prompt, the streamed texts, the tokens of each response. */
function readLabTranscript(format: 'gemini-jsonl' | 'qwen-jsonl', dir: string): { t: Transcript; ev: LabEvent[] } {
  const { session_id, events: ev } = labLog(dir);
  const t = read(format, path.join(dir, 'session.jsonl'));
  expect(t.warnings).toEqual([]);
  expect(t.native_session_ids).toEqual([session_id]);
  expect(t.turns).toHaveLength(1);
  expect(t.turns[0]?.user?.text).toBe(ev.find((e) => e.event === 'prompt')?.text);
  expect(texts(t)).toEqual(streamed(ev));
  const streams = ev.filter((e) => e.event === 'stream_start').length;
  expect(t.usage).toMatchObject({ input_tokens: 120 * streams, output_tokens: 40 * streams });
  return { t, ev };
}

describe('Gemini CLI 0.61.0 (gemini-jsonl)', () => {
  it.each(scenarios('gemini', '0.61.0'))('%s: the transcript is what the scripted server sent', (scenario) => {
    const { t, ev } = readLabTranscript('gemini-jsonl', path.join(FIXTURES, 'gemini', '0.61.0', scenario));
    const pending = ev.filter((e) => e.event === 'tool_call_pending');
    expect(calls(t).map((c) => ({ name: c.name, input: c.input }))).toEqual(pending.map((e) => ({ name: e.name, input: e.args })));
    const results = ev.filter((e) => e.event === 'tool_result');
    for (const [i, c] of calls(t).entries()) {
      // The server logs the function response it got, as JSON cut at 200 characters.
      expect(JSON.stringify({ output: c.output }).slice(0, 200)).toBe(results[i]?.output);
      expect(c.status).toBe('ok');
    }
  });

  it('edit-yes: the written file is a diff that creates it', () => {
    const t = read('gemini-jsonl', path.join(FIXTURES, 'gemini/0.61.0/edit-yes/session.jsonl'));
    expect(calls(t)[0]?.edits).toEqual([{ path: expect.stringMatching(/\/work\/notes\.txt$/), kind: 'create', diff: expect.stringMatching(/^--- \/dev\/null\n\+\+\+ b\/.*work\/notes\.txt\n@@ -0,0 \+1,1 @@\n\+lab notes\n$/) }]);
  });
});

describe('Qwen Code 0.15.10 (qwen-jsonl)', () => {
  it.each(scenarios('qwen-code', '0.15.10'))('%s: the transcript is what the scripted server sent', (scenario) => {
    const { t, ev } = readLabTranscript('qwen-jsonl', path.join(FIXTURES, 'qwen-code', '0.15.10', scenario));
    const pending = ev.filter((e) => e.event === 'tool_call_pending');
    expect(calls(t).map((c) => ({ id: c.id, name: c.name, input: c.input }))).toEqual(pending.map((e) => ({ id: e.call_id ?? e.id, name: e.name, input: e.arguments })));
    for (const c of calls(t)) {
      const result = ev.find((e) => e.event === 'tool_result' && e.id === c.id);
      // A denied call never reaches the model again: no result in the log, "cancelled" in the history.
      if (result) expect([c.status, c.output?.slice(0, 200)]).toEqual(['ok', result.output]);
      else expect([c.status, c.output]).toEqual(['denied', expect.stringContaining('User did not allow tool call')]);
    }
  });

  it('edit-yes: the written file is a diff that creates it', () => {
    const t = read('qwen-jsonl', path.join(FIXTURES, 'qwen-code/0.15.10/edit-yes/session.jsonl'));
    expect(calls(t)[0]?.edits).toEqual([{ path: expect.stringMatching(/\/work\/notes\.txt$/), kind: 'create', diff: expect.stringMatching(/^--- \/dev\/null\n\+\+\+ b\/.*work\/notes\.txt\n@@ -0,0 \+1,2 @@\n\+lab notes\n\+second line\n$/) }]);
  });
});
