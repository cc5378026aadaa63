/**
 * The daemon end to end, with real processes: `specterm serve`, the PTY host, demo-agent sessions
 * and real fetch. The restart test SIGKILLs the daemon while an approval modal is up (mid-turn):
 * the next daemon finds the session still running, resumes the stored `approval` state (not
 * `starting`), keeps the history, and a message sent before the kill is never typed twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DaemonClient } from '../../src/client/index.js';
import { makeDirs, startDaemon, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterEach(stopAll, 60_000);

async function stateOf(client: DaemonClient, id: string): Promise<string | undefined> {
  return (await client.call('getSession', { params: { id } })).state?.id;
}

describe('specterm serve: restart', () => {
  it('SIGKILL mid-turn (approval up): the session survives, the approval state is resumed, history intact, a message lands once', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs);
    const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, args: ['--speed', '0.3'], name: 'demo', env: { DEMO_SECRET: 'sekrit-value' } } });
    expect(created).toMatchObject({ name: 'demo', lifecycle: 'running', cwd: dirs.work, spec: { id: 'demo-agent' } });
    await waitFor(async () => (await stateOf(first.client, created.id)) === 'idle', WAIT_MS, 'idle');

    const sent = await first.client.call('sendMessage', { params: { id: 'demo' }, body: { text: 'please run the tests', idempotency_key: 'k-1', wait: 'started', timeout_ms: 30_000 } });
    expect(sent).toMatchObject({ delivery: 'turn_started', duplicate: false });
    const pending = await waitFor(async () => (await first.client.call('listApprovals')).approvals[0], WAIT_MS, 'the approval modal');
    expect(pending).toMatchObject({ session_id: created.id, kind: 'approval' });
    const before = await first.client.call('getSession', { params: { id: created.id } });
    expect(before.state?.id).toBe('approval');
    expect(before.modal?.approval_id).toBe(pending.id);
    const pid = before.pid;

    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startDaemon(dirs);
    const after = await waitFor(async () => {
      const d = await second.client.call('getSession', { params: { id: created.id } });
      return d.modal ? d : undefined;
    }, WAIT_MS, 'the resumed approval');
    expect(after).toMatchObject({ lifecycle: 'running', pid, state: { id: 'approval' } });
    // A new sighting after the restart: a new approval id, the same question.
    expect(after.modal!.fingerprint).toBe(pending.fingerprint);
    const history = await second.client.call('getHistory', { params: { id: created.id } });
    const states = history.entries.map((e) => e.state.id).reverse();
    expect(states.slice(0, 2)).toEqual(['starting', 'idle']);
    expect(states).toContain('approval');
    expect(states.filter((s) => s === 'starting')).toHaveLength(1);

    // The same key again: not typed a second time.
    const again = await second.client.call('sendMessage', { params: { id: created.id }, body: { text: 'please run the tests', idempotency_key: 'k-1' } });
    expect(again).toMatchObject({ message_id: sent.message_id, duplicate: true });

    // The approval is answered through the new daemon; the turn finishes.
    const answered = await second.client.call('answerApproval', { params: { id: after.modal!.approval_id }, body: { button: 1, fingerprint: after.modal!.fingerprint } });
    expect(answered).toMatchObject({ result: 'cleared', button: { index: 1 } });
    await waitFor(async () => (await stateOf(second.client, created.id)) === 'idle', WAIT_MS, 'idle after the turn');
    const screen = await second.client.call('getScreen', { params: { id: created.id } });
    const full = screen.content;
    expect(full).toContain('12 passed');
    // The message was typed once: one user line with it on the screen.
    expect(full.split('please run the tests').length - 1).toBe(1);
  }, 240_000);

  it('a child that dies while no daemon runs shows exited with its signal; the WS session topic replays its events since 0; the list carries its last notice and where to go on from', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs);
    const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, args: ['--speed', '0.3'] } });
    await waitFor(async () => (await stateOf(first.client, created.id)) === 'idle', WAIT_MS, 'idle');
    const { pid } = await first.client.call('getSession', { params: { id: created.id } });
    first.child.kill('SIGKILL');
    await first.exited;
    process.kill(pid!, 'SIGKILL');

    const second = await startDaemon(dirs);
    const detail = await waitFor(async () => {
      const d = await second.client.call('getSession', { params: { id: created.id } });
      return d.lifecycle === 'exited' ? d : undefined;
    }, WAIT_MS, 'the exit to be noticed');
    expect(detail).toMatchObject({ pid: null, exit: { signal: 'SIGKILL' } });

    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const socket = new WebSocket(`${second.url.replace('http', 'ws')}/api/v1/ws`, ['specterm.v1'], { headers: { authorization: `Bearer ${token}` } });
    const messages: Array<{ type: string; topic?: string; event?: { type: string; seq: number } }> = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    socket.send(JSON.stringify({ type: 'subscribe', topic: `session/${created.id}`, since: 0 }));
    await waitFor(() => messages.some((m) => m.event?.type === 'session.exited'), 10_000, () => `session.exited on the topic (got ${JSON.stringify(messages)})`);
    // The restarted daemon's list carries the exit as the session's last notice (read back from
    // the database) and the seq to go on from: a subscription from there replays nothing older.
    const exitedSeq = messages.find((m) => m.event?.type === 'session.exited')!.event!.seq;
    const listed = await second.client.call('listSessions');
    expect(listed.sessions.find((s) => s.id === created.id)?.last_notice).toMatchObject({ seq: exitedSeq, type: 'session.exited', text: 'exited on SIGKILL' });
    expect(listed.event_seq).toBeGreaterThanOrEqual(exitedSeq);
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'sessions', since: listed.event_seq }));
    // A topic sends its backlog before any live event: once the removal (a new event) is there,
    // a replay would be too. (A pong proves nothing: the socket answers it while a subscription opens.)
    await waitFor(() => messages.some((m) => m.type === 'subscribed' && m.topic === 'sessions'), 10_000, 'the sessions subscription');
    await second.client.call('removeSession', { params: { id: created.id } });
    await waitFor(() => messages.some((m) => m.topic === 'sessions' && m.event?.type === 'session.removed'), 10_000, 'the removal on the sessions topic');
    expect(messages.filter((m) => m.topic === 'sessions' && m.type === 'event').map((m) => m.event!.type)).toEqual(['session.removed']);
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'session/s_unknown' }));
    await waitFor(() => messages.some((m) => m.type === 'error'), 10_000, 'the refusal of an unknown session topic');
    expect(messages.find((m) => m.type === 'error')).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    socket.close();
  }, 180_000);
});

describe('specterm serve: the PTY host gone for good', () => {
  it('a SIGKILLed host: once its pid is gone, the session is failed and exited with the reason, and the daemon keeps answering', async () => {
    const dirs = makeDirs();
    const daemon = await startDaemon(dirs);
    const created = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, args: ['--speed', '0.3'] } });
    await waitFor(async () => (await stateOf(daemon.client, created.id)) === 'idle', WAIT_MS, 'idle');
    const hostLog = fs.readFileSync(path.join(dirs.runtimeDir, 'host.log'), 'utf8');
    const hostPid = Number(/listening on .* \(pid (\d+),/.exec(hostLog)?.[1]);
    expect(hostPid).toBeGreaterThan(0);
    process.kill(hostPid, 'SIGKILL');

    const ended = await waitFor(async () => {
      const d = await daemon.client.call('getSession', { params: { id: created.id } });
      return d.exit ? d : undefined;
    }, WAIT_MS, 'the session to end once the daemon gives up on the host');
    expect(ended).toMatchObject({ lifecycle: 'failed', exit: { code: null, signal: null }, pid: null });
    expect(daemon.stderr()).toMatch(/the PTY host \(pid \d+\) on .* exited/);
    expect(daemon.stderr()).toMatch(/the PTY host connection dropped/);
    expect((await daemon.client.call('listSessions')).sessions.map((s) => s.id)).toContain(created.id);
  }, 120_000);
});
