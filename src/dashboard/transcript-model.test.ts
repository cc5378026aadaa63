import { describe, expect, it } from 'vitest';
import type { Turn } from '../protocol/transcripts.js';
import { diffLineKind, lastLineOf, mergeTurn, snippetParts, usageText } from './transcript-model.js';

const turn = (index: number, items: Turn['items'], ended = true): Turn => ({
  index, native_session_id: 'n', user: { text: `q${index}`, at: 1 }, items, usage: null, model: null, started_at: 1, ended_at: ended ? 2 : null,
});
const text = (t: string): Turn['items'][number] => ({ kind: 'text', text: t, at: null });
const tool: Turn['items'][number] = { kind: 'tool_call', id: 't', name: 'Bash', input: {}, output: null, status: 'pending', at: null, duration_ms: null, edits: [] };

describe('turns as they grow', () => {
  it('adds a new turn in order and replaces a grown one in place', () => {
    const a = turn(0, [text('a')]);
    const b1 = turn(1, [text('b')], false);
    const b2 = turn(1, [text('b'), tool], false);
    expect(mergeTurn(mergeTurn([a], b1), b2)).toEqual([a, b2]);
    expect(mergeTurn([b2], a)).toEqual([a, b2]);
  });

  it('never goes back to an older snapshot of a turn (an event that raced the first read)', () => {
    const grown = turn(1, [text('b'), tool]);
    expect(mergeTurn([grown], turn(1, [text('b')], false))).toEqual([grown]);
    expect(mergeTurn([grown], turn(1, [text('b'), tool], false))).toEqual([grown]);
  });
});

describe('the last line the agent said', () => {
  it('is the last non-empty line of the last text, looking back past turns without any', () => {
    expect(lastLineOf([turn(0, [text('first\n\nAll 12 tests pass.\n')]), turn(1, [tool])])).toBe('All 12 tests pass.');
    expect(lastLineOf([turn(0, [text('one'), tool, text('  two  ')])])).toBe('two');
    expect(lastLineOf([turn(0, [tool])])).toBeNull();
    expect(lastLineOf([])).toBeNull();
  });
});

describe('search snippets', () => {
  it('marks what is between [ and ] as the match, the rest as text', () => {
    expect(snippetParts('…said [hello] to [you]!')).toEqual([
      { text: '…said ', mark: false }, { text: 'hello', mark: true }, { text: ' to ', mark: false }, { text: 'you', mark: true }, { text: '!', mark: false },
    ]);
    expect(snippetParts('<img src=x onerror=alert(1)> [a')).toEqual([{ text: '<img src=x onerror=alert(1)> [a', mark: false }]);
  });
});

describe('usage and diffs', () => {
  it('says the tokens in words', () => {
    expect(usageText({ input_tokens: 1200, output_tokens: 34 })).toBe('1,200 in · 34 out');
    expect(usageText({ input_tokens: 1, output_tokens: 2, cache_read_tokens: 3, cost_usd: 0.0123 })).toBe('1 in · 2 out · 3 cached · $0.0123');
  });

  it('tells added, removed, hunk and file lines apart', () => {
    expect(['+++ b/x', '--- a/x', '@@ -1 +1 @@', '+new', '-old', ' same'].map(diffLineKind)).toEqual(['file', 'file', 'hunk', 'add', 'del', 'context']);
  });
});
