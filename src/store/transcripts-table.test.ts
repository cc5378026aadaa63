import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers/temp-store.js';
import type { Transcript, Turn } from '../protocol/transcripts.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

const T0 = Date.UTC(2026, 11, 1);
let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(() => {
  tmp = makeTempDir();
  store = openStore(tmp.dbPath, { now: () => T0 });
  store.sessions.insert({ id: 's1', cwd: '/work', createdAt: T0 });
  store.sessions.insert({ id: 's2', cwd: '/work', createdAt: T0 });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

const meta: Omit<Transcript, 'turns'> = { source: { kind: 'native', format: 'demo-jsonl' }, native_session_ids: ['n1'], usage: { input_tokens: 3, output_tokens: 4 }, warnings: [] };
const turn = (index: number, user: string, said: string, tool?: { name: string; output: string }): Turn => ({
  index, native_session_id: 'n1', user: { text: user, at: T0 }, model: null, usage: null, started_at: T0 + index, ended_at: T0 + index,
  items: [
    { kind: 'text', text: said, at: T0 },
    ...(tool ? [{ kind: 'tool_call' as const, id: `t${index}`, name: tool.name, input: { command: 'npm test' }, output: tool.output, status: 'ok' as const, at: T0, duration_ms: 5, edits: [] }] : []),
  ],
});

describe('TranscriptsTable', () => {
  it('stores turns and rewrites a turn that grew, and gives the transcript back', () => {
    store.transcripts.append('s1', meta, [turn(0, 'run the tests', 'I will')], T0);
    store.transcripts.append('s1', meta, [turn(0, 'run the tests', 'I will run them', { name: 'Bash', output: '12 passed' }), turn(1, 'thanks', 'welcome')], T0 + 1);
    const t = store.transcripts.get('s1');
    expect(t?.turns.map((x) => x.items.length)).toEqual([2, 1]);
    expect(t).toMatchObject({ source: meta.source, native_session_ids: ['n1'], usage: meta.usage, warnings: [] });
    expect(store.transcripts.get('s2')).toBeNull();
    expect(store.transcripts.lastTurn('s1')).toMatchObject({ index: 1, items: [{ text: 'welcome' }] });
    expect(store.transcripts.lastTurn('s2')).toBeNull();
  });

  it('searches every session by words, says where the match is, and finds nothing stale after a turn changed', () => {
    store.transcripts.append('s1', meta, [turn(0, 'run the tests', 'obsolete words')], T0);
    store.transcripts.append('s1', meta, [turn(0, 'run the tests', 'All 12 tests pass', { name: 'Bash', output: 'Tests 12 passed (12)' })], T0);
    store.transcripts.append('s2', meta, [turn(0, 'fix the parser', 'The parser is fixed')], T0);
    expect(store.transcripts.search('obsolete')).toEqual([]);
    expect(store.transcripts.search('parser fix')).toEqual([{ session_id: 's2', turn_index: 0, role: 'user', snippet: '[fix] the [parser]', at: T0 }]);
    expect(store.transcripts.search('passed').map((h) => [h.session_id, h.role])).toEqual([['s1', 'tool']]);
    expect(store.transcripts.search('pas').map((h) => h.session_id)).toEqual(['s1']); // the last word is a prefix
  });

  it('takes operators and quotes as plain words, and refuses an over-long text with a stable code', () => {
    store.transcripts.append('s1', meta, [turn(0, 'say "NEAR" OR AND', 'ok')], T0);
    expect(store.transcripts.search('"NEAR" OR')).toHaveLength(1);
    expect(store.transcripts.search('  ,;  ')).toEqual([]);
    expect(() => store.transcripts.search('x'.repeat(501))).toThrow(expect.objectContaining({ code: 'STORE_INVALID_INPUT', message: expect.stringContaining('at most 500 characters') }));
  });

  it('drops a session\'s transcript and its index entries with the session', () => {
    store.transcripts.append('s1', meta, [turn(0, 'unique-word-zebra', 'ok')], T0);
    expect(store.sessions.remove('s1')).toBe(true);
    expect(store.transcripts.get('s1')).toBeNull();
    expect(store.transcripts.search('zebra')).toEqual([]);
  });

  it('refuses a transcript for a session the store does not know', () => {
    expect(() => store.transcripts.append('nope', meta, [turn(0, 'a', 'b')], T0)).toThrow(expect.objectContaining({ code: 'STORE_UNKNOWN_SESSION' }));
  });
});
