import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../protocol/events.js';
import type { Turn } from '../protocol/transcripts.js';
import { lastLines, noteTranscriptEvent } from './last-lines.js';

const turnEvent = (session: string, index: number, said: string): DaemonEvent => ({
  seq: index + 1, ts: 1, node: 'n', session_id: session, type: 'transcript.turn',
  turn: { index, native_session_id: 'x', user: { text: `q${index}`, at: 1 }, items: [{ kind: 'text', text: said, at: null }], usage: null, model: null, started_at: 1, ended_at: 2 } satisfies Turn,
} as unknown as DaemonEvent);

describe("the overview's last line of a session", () => {
  it('follows each new turn as it comes', () => {
    noteTranscriptEvent(turnEvent('s_a', 0, 'first answer'));
    noteTranscriptEvent(turnEvent('s_a', 1, 'second answer'));
    expect(lastLines.value.get('s_a')).toBe('second answer');
  });

  it('never goes back to an older turn replayed after a newer one (a topic replaying its history)', () => {
    noteTranscriptEvent(turnEvent('s_b', 1, 'All 12 tests pass.'));
    noteTranscriptEvent(turnEvent('s_b', 0, 'That is the end of the long answer.'));
    expect(lastLines.value.get('s_b')).toBe('All 12 tests pass.');
  });
});
