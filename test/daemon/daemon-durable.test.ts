/**
 * What a daemon restart (SIGKILL) must keep, with real processes (`specterm serve`, the PTY host,
 * demo-agent sessions): the event stream (SSE `Last-Event-ID` resumes across the restart with
 * exactly the missed events), a session's approval policy, and its env overrides and last size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterEach(stopAll, 60_000);

interface SeenEvent { seq: number; type: string; session_id: string; [key: string]: unknown }

async function stateOf(client: DaemonClient, id: string): Promise<string | undefined> {
  return (await client.call('getSession', { params: { id } })).state?.id;
}

function adminToken(dirs: DaemonDirs): string {
  return fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
}

/**
 * Reads `GET /api/v1/events` (resuming with a `Last-Event-ID` header when given) until `done`
 * holds for the events so far; the SSE ids are checked against each event's seq.
 */
async function readSse(daemon: RunningDaemon, dirs: DaemonDirs, lastEventId: number | null, done: (events: SeenEvent[]) => boolean): Promise<SeenEvent[]> {
  const headers: Record<string, string> = { authorization: `Bearer ${adminToken(dirs)}` };
  if (lastEventId !== null) headers['last-event-id'] = String(lastEventId);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), WAIT_MS);
  const response = await fetch(`${daemon.url}/api/v1/events`, { headers, signal: abort.signal });
  expect(response.status).toBe(200);
  const events: SeenEvent[] = [];
  let text = '';
  try {
    const reader = response.body!.getReader();
    while (!done(events)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += new TextDecoder().decode(value);
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id === undefined || data === undefined) continue;
        const event = JSON.parse(data) as SeenEvent;
        expect(event.seq).toBe(Number(id));
        events.push(event);
      }
    }
    await reader.cancel();
  } finally {
    clearTimeout(timer);
  }
  return events;
}

describe('specterm serve: what a restart keeps', () => {
  it('SSE Last-Event-ID after a SIGKILL and restart replays exactly the missed events; new ids are above the old ones', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs);
    const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, args: ['--speed', '0.3'] } });
    // Everything the first daemon streamed up to the session's first idle state.
    const isIdle = (e: SeenEvent) => e.type === 'session.state' && (e.state as { id?: string }).id === 'idle';
    const streamed = await readSse(first, dirs, null, (events) => events.some(isIdle));
    expect(streamed[0]).toMatchObject({ type: 'session.created', session_id: created.id });
    expect(streamed.length).toBeGreaterThanOrEqual(3);
    const middle = streamed[0]!.seq;

    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startDaemon(dirs);
    await waitFor(async () => (await stateOf(second.client, created.id)) === 'idle', WAIT_MS, 'the resumed session');
    // A new event of the second run ends the read: killing the session.
    const reading = readSse(second, dirs, middle, (events) => events.some((e) => e.type === 'session.exited'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await second.client.call('killSession', { params: { id: created.id } });
    const resumed = await reading;

    const lastOld = streamed.at(-1)!.seq;
    // Exactly what the client missed of the first run (it had read up to `middle`), in order.
    expect(resumed.filter((e) => e.seq <= lastOld)).toEqual(streamed.filter((e) => e.seq > middle));
    // Then the second run's events, numbered above every id of the first run.
    const fresh = resumed.filter((e) => e.seq > lastOld);
    expect(fresh.map((e) => e.type)).toContain('session.exited');
    const seqs = resumed.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  }, 180_000);

  it('env overrides and the last size survive a daemon SIGKILL: `restart` afterwards starts the agent with both; the env never reaches the database or the log in clear', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs);
    const secret = 'sekrit-value-9f2c41';
    const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30, env: { DEMO_SECRET: secret } } });
    await waitFor(async () => (await stateOf(first.client, created.id)) === 'idle', WAIT_MS, 'idle');
    await first.client.call('resizeSession', { params: { id: created.id }, body: { cols: 90, rows: 28 } });

    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startDaemon(dirs);
    await waitFor(async () => (await stateOf(second.client, created.id)) === 'idle', WAIT_MS, 'the resumed session');
    expect(await second.client.call('getSession', { params: { id: created.id } })).toMatchObject({ cols: 90, rows: 28 });

    const restarted = await second.client.call('restartSession', { params: { id: created.id } });
    expect(restarted).toMatchObject({ cols: 90, rows: 28, exit: null });
    const running = await waitFor(async () => {
      const d = await second.client.call('getSession', { params: { id: created.id } });
      return d.pid !== null && d.state?.id === 'idle' ? d : undefined;
    }, WAIT_MS, 'idle after the restart');
    const environ = fs.readFileSync(`/proc/${running.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain(`DEMO_SECRET=${secret}`);
    const screen = await second.client.call('getScreen', { params: { id: created.id } });
    expect(screen).toMatchObject({ cols: 90, rows: 28 });

    for (const file of fs.readdirSync(dirs.stateDir)) {
      const full = path.join(dirs.stateDir, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).includes(secret), file).toBe(false);
    }
    expect(first.stderr() + second.stderr() + first.stdout() + second.stdout()).not.toContain(secret);
  }, 180_000);
});
