/**
 * Who killed a session, through the real daemon (`specterm serve` over dist/, a real demo-agent
 * in the PTY host, the real SQLite file): a kill over the API names the caller's token on the
 * session's exit and in the audit table; an agent ended from outside names nobody; and a
 * restarted daemon still says who killed it (it reads the audit trail back).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { makeDirs, startDaemon, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;

afterAll(stopAll, 60_000);

describe('exit.killed_by', () => {
  it('names the token that killed a session, in the audit table too, and after a daemon restart', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs);
    const { client } = first;
    const killed = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'to-kill' } });
    const natural = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'ends-alone' } });
    for (const id of [killed.id, natural.id]) {
      await waitFor(async () => (await client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle');
    }
    const answer = await client.call('killSession', { params: { id: killed.id } });
    expect(answer.exit).toMatchObject({ killed_by: { name: 'admin', token_id: 'admin', at: expect.any(Number) } });
    // The answer is the session as the list shows it, its last notice included.
    expect(answer.last_notice).toMatchObject({ type: 'session.exited', text: 'killed by admin' });
    expect((await client.call('listSessions')).sessions.find((s) => s.id === killed.id)).toEqual(answer);
    // A signal from outside the daemon (not a kill over the API): nobody is named.
    const { pid } = await client.call('getSession', { params: { id: natural.id } });
    process.kill(pid!, 'SIGHUP');
    await waitFor(async () => (await client.call('getSession', { params: { id: natural.id } })).lifecycle === 'exited', WAIT_MS, 'the agent to exit');
    expect((await client.call('getSession', { params: { id: natural.id } })).exit?.killed_by).toBeUndefined();
    // The exit event says it too (a toast reads "killed by admin", not "exited on SIGHUP").
    const exitEvent = async (sessionId: string): Promise<{ killed_by?: unknown }> => {
      const seen: Array<{ type: string; killed_by?: unknown }> = [];
      const abort = new AbortController();
      const reading = (async () => { for await (const e of client.events({ sessionId, signal: abort.signal })) seen.push(e as { type: string }); })().catch(() => {});
      await waitFor(() => seen.some((e) => e.type === 'session.exited'), 10_000, 'the replayed session.exited');
      abort.abort();
      await reading;
      return seen.find((e) => e.type === 'session.exited')!;
    };
    expect((await exitEvent(killed.id)).killed_by).toEqual(answer.exit!.killed_by);
    expect((await exitEvent(natural.id)).killed_by).toBeUndefined();

    first.child.kill('SIGTERM');
    await first.exited;
    const second = await startDaemon(dirs);
    const again = await second.client.call('getSession', { params: { id: killed.id } });
    expect(again.exit?.killed_by).toEqual(answer.exit!.killed_by);
    // Every answer that is a session describes it whole: muting it, starting it again.
    expect(await second.client.call('muteSession', { params: { id: killed.id }, body: { muted: true } })).toEqual({ ...again, muted: true });
    const restarted = await second.client.call('restartSession', { params: { id: killed.id } });
    expect(restarted.last_notice).toEqual(again.last_notice);
    expect((await second.client.call('getSession', { params: { id: natural.id } })).exit?.killed_by).toBeUndefined();
    const store = openStore(path.join(dirs.stateDir, 'specterm.db'));
    try {
      const kills = store.audit.page({ sessionId: killed.id, limit: 100 }).items.filter((a) => a.action === 'killSession');
      expect(kills).toEqual([expect.objectContaining({ who: 'admin', tokenId: 'admin', outcome: 'ok' })]);
    } finally {
      store.close();
    }
  }, 180_000);
});
