/**
 * The agent's work as text, end to end with the real daemon and the Demo Agent's own history
 * (issue 26): `send --wait idle` prints the answer, `transcript` and `search` read it, a
 * `transcript/<id>` topic streams it, and after the PTY host is SIGKILLed the session is
 * resumable and `resume` continues the same conversation.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HostClient } from '../../src/host/host-client.js';
import fs from 'node:fs';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon, runCli } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let id: string;

beforeAll(async () => {
  dirs = makeDirs();
  daemon = await startDaemon(dirs);
  id = (await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'worker', cols: 100, rows: 30 } })).id;
  await waitFor(async () => (await daemon.client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle');
}, 90_000);
afterAll(stopAll, 60_000);

describe('transcripts from the Demo Agent\'s own history', () => {
  it('send --wait idle prints the answer; transcript and search read the conversation', async () => {
    const sent = await runCli(dirs, ['send', 'worker', 'hello', '--wait', 'idle']);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toMatch(/^Hello! I'm Demo Agent/);
    expect(sent.err).toContain('specterm send: idle');
    const session = await daemon.client.call('getSession', { params: { id } });
    expect(session.native_session_id).toMatch(/^[0-9a-f-]{36}$/);
    const json = JSON.parse((await runCli(dirs, ['transcript', 'worker', '--json'])).out);
    expect(json.source).toEqual({ kind: 'native', format: 'demo-jsonl' });
    expect(json.turns.at(-1)).toMatchObject({ user: { text: 'hello' }, items: [expect.objectContaining({ kind: 'text', text: expect.stringMatching(/^Hello! I'm Demo Agent/) })] });
    const search = await runCli(dirs, ['search', 'scripted stand-in', '--json']);
    expect(JSON.parse(search.out)).toEqual([expect.objectContaining({ session_id: id, role: 'assistant' })]);
    expect((await runCli(dirs, ['transcript', 'worker'])).out).toContain('> hello');
  }, 120_000);

  it('streams each turn on the transcript/<id> topic, a tool call with its output', async () => {
    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const socket = new WebSocket(daemon.url.replace('http', 'ws') + '/api/v1/ws', ['specterm.v1'], { headers: { authorization: `Bearer ${token}` } });
    const turns: any[] = [];
    socket.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'hello') socket.send(JSON.stringify({ type: 'subscribe', topic: `transcript/${id}` }));
      if (m.type === 'event') turns.push(m.event);
    });
    const outcome = await daemon.client.call('sendMessage', { params: { id }, body: { text: 'run the tests', wait: 'idle', timeout_ms: 45_000 } });
    expect(outcome.delivery).toBe('blocked');
    await daemon.client.call('answerApproval', { params: { id: outcome.blocked_by!.approval_id }, body: { button: outcome.blocked_by!.buttons[0]!.index, fingerprint: (await daemon.client.call('listApprovals')).approvals[0]!.fingerprint } });
    const last = await waitFor(async () => {
      const t = turns.filter((e) => e.type === 'transcript.turn' && e.turn.user?.text === 'run the tests').at(-1);
      return t?.turn.items.some((i: any) => i.kind === 'tool_call' && i.status === 'ok') ? t : undefined;
    }, WAIT_MS, 'the tool turn on the topic');
    socket.close();
    expect(turns.every((e) => e.type === 'transcript.turn' && e.session_id === id)).toBe(true);
    const call = last.turn.items.find((i: any) => i.kind === 'tool_call');
    expect(call.output).toBeTruthy();
  }, 120_000);

  it('after the PTY host is SIGKILLed, the session is resumable and resume continues the conversation', async () => {
    const before = await daemon.client.call('getSession', { params: { id } });
    // The host holds every PTY: killed, every agent goes with it (as on a reboot or an OOM kill).
    const host = await HostClient.connect({ socketPath: path.join(dirs.runtimeDir, 'host.sock'), timeoutMs: 10_000 });
    const hostPid = host.hostPid;
    host.close();
    process.kill(hostPid, 'SIGKILL');
    const exited = await waitFor(async () => {
      const s = await daemon.client.call('getSession', { params: { id } });
      return s.lifecycle === 'failed' || s.lifecycle === 'exited' ? s : undefined;
    }, WAIT_MS, 'the session ended with its host');
    expect(exited).toMatchObject({ resumable: true, native_session_id: before.native_session_id });
    const resumed = await runCli(dirs, ['resume', 'worker']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toContain(`on conversation ${before.native_session_id}`);
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle after resume');
    const again = await runCli(dirs, ['send', 'worker', 'hello', '--wait', 'idle']);
    expect(again.out).toMatch(/^Hello! I'm Demo Agent/);
    const { transcript } = await daemon.client.call('getTranscript', { params: { id } });
    expect(transcript!.turns.filter((t) => t.user?.text === 'hello')).toHaveLength(2);
    expect(transcript!.native_session_ids).toEqual([before.native_session_id]);
  }, 120_000);
});
