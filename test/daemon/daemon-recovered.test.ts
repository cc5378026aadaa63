/**
 * A deleted database does not orphan running agents (issue 24, item 8), with the real daemon,
 * host and Demo Agent: after the daemon is killed and its SQLite file deleted, the next daemon
 * re-adopts every session the host still runs (id, name, spec, cwd, args, size), marks each
 * `recovered`, drives it again (its state is read from the screen) and can stop it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostClient } from '../../src/host/host-client.js';
import { makeDirs, startDaemon, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 90_000;
const SESSIONS = 3;
afterEach(stopAll, 60_000);

describe('specterm serve: a deleted database', () => {
  it('re-adopts what the host runs as recovered sessions, which can be listed, driven and stopped', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs, ['--no-pair']);
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      ids.push((await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: `agent-${i}`, args: ['--speed', '0.3'], cols: 90 + i, rows: 30 } })).id);
    }
    const created = [];
    for (const id of ids) {
      created.push(await waitFor(async () => {
        const d = await first.client.call('getSession', { params: { id } });
        return d.state?.id === 'idle' ? d : undefined;
      }, WAIT_MS, `${id} idle`));
    }
    expect((await first.client.call('listSessions')).sessions.every((s) => s.recovered === false)).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dirs.stateDir, `specterm.db${suffix}`), { force: true });
    // A session the host runs without the daemon's meta (an older specterm, another client).
    const other = await HostClient.connect({ socketPath: path.join(dirs.runtimeDir, 'host.sock'), timeoutMs: 10_000 });
    await other.spawn({ id: 's_bare', file: '/bin/sleep', args: ['300'], cwd: dirs.work, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cols: 80, rows: 24 });
    other.close();

    const second = await startDaemon(dirs, ['--no-pair']);
    const listed = (await second.client.call('listSessions')).sessions;
    expect(listed.map((s) => s.id).sort()).toEqual([...created.map((s) => s.id), 's_bare'].sort());
    for (const s of created) {
      const detail = await waitFor(async () => {
        const d = await second.client.call('getSession', { params: { id: s.id } });
        return d.state?.id === 'idle' ? d : undefined;
      }, WAIT_MS, `${s.id} idle after recovery`);
      expect(detail).toMatchObject({ recovered: true, lifecycle: 'running', name: s.name, cwd: dirs.work, spec: { id: 'demo-agent' }, pid: s.pid, cols: s.cols, rows: 30 });
    }
    expect(second.stderr()).toMatch(new RegExp(`re-adopted ${SESSIONS + 1} sessions`));
    // Without its spec it is listed (no driver), and can still be stopped.
    expect(listed.find((s) => s.id === 's_bare')).toMatchObject({ recovered: true, cwd: dirs.work, spec: { id: 'unknown' }, cols: 80, rows: 24 });
    expect(await second.client.call('killSession', { params: { id: 's_bare' } })).toMatchObject({ exit: { signal: expect.any(String) } });

    // The API can stop them again.
    const victim = created[0]!;
    expect(await second.client.call('killSession', { params: { id: victim.id } })).toMatchObject({ lifecycle: 'exited', recovered: true });
    const host = await HostClient.connect({ socketPath: path.join(dirs.runtimeDir, 'host.sock'), timeoutMs: 10_000 });
    try {
      expect((await host.list()).find((h) => h.id === victim.id)?.alive).toBe(false);
    } finally {
      host.close();
    }
    // Recovered stays recovered across another restart (it is stored).
    second.child.kill('SIGKILL');
    await second.exited;
    const third = await startDaemon(dirs, ['--no-pair']);
    expect((await third.client.call('getSession', { params: { id: created[1]!.id } })).recovered).toBe(true);
  }, 400_000);
});
