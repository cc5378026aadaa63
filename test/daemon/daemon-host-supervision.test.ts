/**
 * The daemon supervises its PTY host (issue 24, item 5), with the real daemon, host and Demo
 * Agent: a SIGKILLed host is noticed from its socket closing and its pid being gone, well before
 * the 15 s reconnect give-up; its sessions fail with HOST_GONE; the daemon starts a new host, so
 * the next `POST /sessions` runs. And a session whose child cannot be executed (after the fork, in
 * the host) fails with a session.error that says why, never a silent exit 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { HostClient } from '../../src/host/host-client.js';
import { REPO, makeDirs, startDaemon, startDaemonWithIdleSession, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
/** The bound on noticing a dead host: well under the 15 s a merely slow host gets. */
const NOTICE_MS = 5000;
afterEach(stopAll, 60_000);

async function hostPidOf(runtimeDir: string): Promise<number> {
  const client = await HostClient.connect({ socketPath: path.join(runtimeDir, 'host.sock'), timeoutMs: 10_000 });
  const pid = client.hostPid;
  client.close();
  return pid;
}

/** Every event the daemon publishes from now on, until `stop()`. */
function follow(client: DaemonClient): { events: Record<string, unknown>[]; stop: () => void } {
  const events: Record<string, unknown>[] = [];
  const abort = new AbortController();
  void (async () => {
    try {
      for await (const event of client.events({ signal: abort.signal })) events.push(event);
    } catch {}
  })();
  return { events, stop: () => abort.abort() };
}

describe('specterm serve: the PTY host is supervised', () => {
  it('a SIGKILLed host fails its sessions with HOST_GONE within 5 s, and a new session runs in a new host', async () => {
    const { dirs, daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS);
    const feed = follow(daemon.client);
    const hostPid = await hostPidOf(dirs.runtimeDir);
    const killedAt = Date.now();
    process.kill(hostPid, 'SIGKILL');

    const gone = await waitFor(() => feed.events.find((e) => e.type === 'session.error' && e.session_id === sessionId), WAIT_MS, 'the session.error');
    expect(gone).toMatchObject({ code: 'HOST_GONE', message: expect.stringContaining(`pid ${hostPid}`) });
    expect((gone.at as number) - killedAt).toBeLessThan(NOTICE_MS);
    expect(await daemon.client.call('getSession', { params: { id: sessionId } })).toMatchObject({ lifecycle: 'failed', exit: { code: null } });

    const next = await daemon.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30 } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: next.id } })).state?.id === 'idle', WAIT_MS, 'the new session idle');
    expect(await hostPidOf(dirs.runtimeDir)).not.toBe(hostPid);
    expect(feed.events.filter((e) => e.session_id === next.id && (e.type === 'session.error' || e.type === 'session.exited'))).toEqual([]);
    expect(daemon.stderr()).toMatch(/started a new PTY host/);
    feed.stop();
  }, 240_000);

  it('a child that cannot be executed (bad interpreter, after the fork in the host) fails with a session.error that says why', async () => {
    const dirs = makeDirs();
    const daemon = await startDaemon(dirs, ['--no-pair']);
    const script = path.join(dirs.work, 'bad-interpreter.sh');
    fs.writeFileSync(script, '#!/nonexistent/interpreter\n', { mode: 0o755 });
    const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'specs', 'demo-agent', 'spec.json'), 'utf8')) as Record<string, unknown>;
    delete spec.cli_version_range;
    const specFile = path.join(dirs.work, 'bad.spec.json');
    fs.writeFileSync(specFile, JSON.stringify({ ...spec, id: 'bad-interpreter', binary: script, spawn_args: [] }));
    const feed = follow(daemon.client);
    const created = await daemon.client.call('createSession', { body: { spec: specFile, cwd: dirs.work } });
    const error = await waitFor(() => feed.events.find((e) => e.type === 'session.error' && e.session_id === created.id), WAIT_MS, 'the session.error');
    expect(error).toMatchObject({ code: 'SPAWN_FAILED', message: expect.stringMatching(/could not execute .*bad-interpreter\.sh/) });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: created.id } })).lifecycle === 'failed', WAIT_MS, 'failed');
    feed.stop();
  }, 180_000);
});
