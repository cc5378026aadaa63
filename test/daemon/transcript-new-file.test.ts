/**
 * A CLI that goes on in a new history file with a new id after a command (Claude Code's `/clear`,
 * declared by the spec's `native_history.new_session_on`): the real daemon and the Demo Agent,
 * which does the same on `/clear`. The transcript follows the new file in the same session, with
 * both ids, and a resume continues the new conversation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startDaemonWithIdleSession, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let id: string;

beforeAll(async () => {
  ({ dirs, daemon, sessionId: id } = await startDaemonWithIdleSession(WAIT_MS, { name: 'clearing' }));
}, 90_000);
afterAll(stopAll, 60_000);

describe('a new history file after /clear', () => {
  it('the transcript goes on in the new file: both ids, the turns of both, the answer after it', async () => {
    expect((await runCli(dirs, ['send', 'clearing', 'hello', '--wait', 'idle'])).code).toBe(0);
    const first = (await daemon.client.call('getSession', { params: { id } })).native_session_id!;
    const files = () => fs.readdirSync(path.join(dirs.home, '.demo-agent', 'sessions'));
    expect(files()).toEqual([`${first}.jsonl`]);
    await daemon.client.call('sendMessage', { params: { id }, body: { text: '/clear', wait: 'accepted' } });
    await waitFor(() => files().length === 2 || undefined, WAIT_MS, 'the Demo Agent\'s new history file');
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle after /clear');
    // A command that starts no turn holds the driver's send queue until its in-flight latch
    // expires (30 s, src/driver/message-sender.ts): the next message is typed after that.
    const sent = await runCli(dirs, ['send', 'clearing', 'hello again', '--wait', 'idle', '--timeout-ms', '120000']);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toMatch(/^Hello! I'm Demo Agent/);
    const second = (await daemon.client.call('getSession', { params: { id } })).native_session_id!;
    expect(second).not.toBe(first);
    expect(files().sort()).toEqual([`${first}.jsonl`, `${second}.jsonl`].sort());
    const t = JSON.parse((await runCli(dirs, ['transcript', 'clearing', '--json'])).out);
    expect(t.native_session_ids).toEqual([first, second]);
    expect(t.turns.map((turn: any) => [turn.index, turn.user?.text, turn.native_session_id])).toEqual([[0, 'hello', first], [1, 'hello again', second]]);
  }, 240_000);

  it('a /clear typed key by key into the terminal is seen as well', async () => {
    const second = (await daemon.client.call('getSession', { params: { id } })).native_session_id!;
    const files = () => fs.readdirSync(path.join(dirs.home, '.demo-agent', 'sessions'));
    // Keys as a person types them, a typo taken back included.
    for (const data of ['/', 'c', 'l', 'e', 'e', '\x7f', 'a', 'r', '\r']) await daemon.client.call('sendKeys', { params: { id }, body: { data } });
    await waitFor(() => files().length === 3 || undefined, WAIT_MS, 'the third history file');
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle after /clear');
    const sent = await runCli(dirs, ['send', 'clearing', 'hello once more', '--wait', 'idle']);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toMatch(/^Hello! I'm Demo Agent/);
    const third = (await daemon.client.call('getSession', { params: { id } })).native_session_id!;
    expect(third).not.toBe(second);
    const t = JSON.parse((await runCli(dirs, ['transcript', 'clearing', '--json'])).out);
    expect(t.native_session_ids).toHaveLength(3);
    expect(t.native_session_ids.at(-1)).toBe(third);
    expect(t.turns.at(-1)).toMatchObject({ index: 2, user: { text: 'hello once more' }, native_session_id: third });
  }, 180_000);
});
