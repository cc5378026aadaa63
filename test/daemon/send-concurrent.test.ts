/**
 * Two messages sent at once to one session, each waiting for its turn to end (two scripts, or a
 * task and a person): the agent takes them one after the other, and each answer is the one to
 * its own message — the first turn's end is not the second message's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonWithIdleSession, stopAll, type RunningDaemon } from './daemon-harness.js';

let daemon: RunningDaemon;
let id: string;

beforeAll(async () => {
  ({ daemon, sessionId: id } = await startDaemonWithIdleSession(60_000));
}, 90_000);
afterAll(stopAll, 60_000);

describe('concurrent sends to one session', () => {
  it('answers each waiting message with its own turn', async () => {
    const send = (text: string) => daemon.client.call('sendMessage', { params: { id }, body: { text, wait: 'idle', timeout_ms: 90_000 } });
    const [first, second] = await Promise.all([send('hello there'), send('what can you do')]);
    expect(first).toMatchObject({ delivery: 'idle', answer: { text: expect.stringMatching(/^Hello! I'm Demo Agent/) } });
    expect(second).toMatchObject({ delivery: 'idle', answer: { text: expect.stringMatching(/^Got it\. This is a scripted demo/) } });
    expect(second.answer!.turn.user?.text).toBe('what can you do');
  }, 180_000);
});
