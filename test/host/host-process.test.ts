/**
 * The PTY host as a real detached process: its private runtime dir and socket, one host per
 * runtime dir (a second refused, a stale socket replaced), clear errors when none runs, exit
 * status kept for a child that ended while no client was attached, and a child slow to read
 * its input never stalling the others.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostError } from '../../src/host/errors.js';
import { HostClient } from '../../src/host/host-client.js';
import { HOST_MALLOC_ENV, startHostProcess } from '../../src/host/launch.js';
import { ensureRuntimeDir, hostSocketPath } from '../../src/host/runtime-dir.js';
import { environmentOf } from '../helpers/host-processes.js';
import { EMITTER, processExists, shortPrivateDir, startTestHost, stopAllHosts, trackPid, waitFor } from './host-harness.js';

afterEach(stopAllHosts);

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof HostError ? error.code : `not a HostError: ${String(error)}`;
  }
  return 'resolved';
}

/** A live process's environment as an object. */
const environOf = (pid: number): Record<string, string> => Object.fromEntries(environmentOf(pid));

describe('PTY host process: its malloc settings', () => {
  it('runs with fixed malloc thresholds, which its children never inherit', async () => {
    const host = await startTestHost();
    expect(environOf(host.pid)).toMatchObject(HOST_MALLOC_ENV);
    const client = await host.connect();
    const info = await client.spawn({ id: 'env', file: '/bin/sleep', args: ['30'], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    trackPid(info.pid);
    // Until it execs, the forked child still holds the host's own environment: read it after.
    await waitFor(() => { try { return fs.readlinkSync(`/proc/${info.pid}/exe`).endsWith('/sleep'); } catch { return false; } }, 10_000, 'the child to exec sleep');
    const childEnv = environOf(info.pid!);
    expect(Object.keys(childEnv).filter((k) => k.startsWith('MALLOC_'))).toEqual([]);
    await client.kill('env', 'SIGKILL');
  });

  it('keeps the malloc tuning a user set in its environment, adding none of its own', async () => {
    const dir = shortPrivateDir();
    const started = await startHostProcess({ runtimeDir: dir, env: { ...process.env, MALLOC_TRIM_THRESHOLD_: '999999' } });
    trackPid(started.pid);
    const env = environOf(started.pid);
    expect(env.MALLOC_TRIM_THRESHOLD_).toBe('999999');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBeUndefined();
    process.kill(started.pid, 'SIGTERM');
    await waitFor(() => !processExists(started.pid), 10_000, 'the host to stop');
  });
});

describe('PTY host process: runtime dir and socket', () => {
  it('creates the runtime dir 0700 and the socket 0600', async () => {
    const parent = shortPrivateDir();
    const dir = ensureRuntimeDir({ SPECTERM_RUNTIME_DIR: path.join(parent, 'rt') });
    const host = await startTestHost({ dir });
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const socket = fs.lstatSync(host.socketPath);
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(fs.statSync(host.logFile).mode & 0o777).toBe(0o600);
  });

  it('refuses a runtime dir that others can enter, naming the dir and the fix', () => {
    const dir = shortPrivateDir();
    fs.chmodSync(dir, 0o755);
    expect(() => ensureRuntimeDir({ SPECTERM_RUNTIME_DIR: dir })).toThrow(/has mode 755; others may reach the socket: run chmod 700/);
  });

  it('does not start a host (nor create its log) in a runtime dir that others can enter', async () => {
    const dir = shortPrivateDir();
    fs.chmodSync(dir, 0o755);
    expect(await codeOf(startHostProcess({ runtimeDir: dir }))).toBe('HOST_RUNTIME_DIR_UNSAFE');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a second host on the same runtime dir while the first is alive, and the first keeps serving', async () => {
    const host = await startTestHost();
    expect(await codeOf(startHostProcess({ runtimeDir: host.dir }))).toBe('HOST_ALREADY_RUNNING');
    const client = await host.connect();
    expect(client.hostPid).toBe(host.pid);
    expect(await client.list()).toEqual([]);
  });

  it('replaces the stale socket of a host that was SIGKILLed', async () => {
    const first = await startTestHost();
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => !processExists(first.pid), 5000, 'the first host to die');
    expect(fs.lstatSync(first.socketPath).isSocket()).toBe(true);
    expect(await codeOf(HostClient.connect({ socketPath: first.socketPath }))).toBe('HOST_NOT_RUNNING');
    const second = await startTestHost({ dir: first.dir });
    const client = await second.connect();
    expect(client.hostPid).toBe(second.pid);
  });

  it('will not delete a file that is not a socket at the socket path', async () => {
    const dir = shortPrivateDir();
    fs.writeFileSync(hostSocketPath(dir), 'precious');
    await expect(startHostProcess({ runtimeDir: dir })).rejects.toThrow(/exists and is not a socket; move it away/);
    expect(fs.readFileSync(hostSocketPath(dir), 'utf8')).toBe('precious');
  });

  it('tells a client clearly that no host runs', async () => {
    const socketPath = hostSocketPath(shortPrivateDir());
    await expect(HostClient.connect({ socketPath })).rejects.toThrow(/no PTY host is running on .*host\.sock/);
    expect(await codeOf(HostClient.connect({ socketPath }))).toBe('HOST_NOT_RUNNING');
  });
});

describe('PTY host process: sessions', () => {
  it('keeps the exit code of a child that ended while no client was attached, and replays its output', async () => {
    const host = await startTestHost();
    const first = await host.connect();
    const info = await first.spawn({ id: 'short', file: process.execPath, args: [EMITTER, '--lines', '3', '--interval-ms', '1', '--exit-code', '42'], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    trackPid(info.pid);
    first.close();
    const second = await host.connect();
    const ended = await waitFor(async () => (await second.list()).find((s) => s.id === 'short' && !s.alive), 15_000, 'the child to exit');
    expect(ended).toMatchObject({ id: 'short', alive: false, exitCode: 42, signal: null, pid: info.pid });
    expect(ended.exitedAt).toBeGreaterThanOrEqual(ended.startedAt);
    let replay = Buffer.alloc(0);
    second.onOutput((e) => { replay = Buffer.concat([replay, e.bytes]); });
    const exits: unknown[] = [];
    second.onExit((e) => exits.push(e));
    const attach = await second.attach('short', 0);
    expect(attach).toMatchObject({ replayFrom: 0, missedBytes: 0 });
    await waitFor(() => exits.length === 1, 5000, 'the exit event');
    expect(exits[0]).toEqual({ type: 'exit', id: 'short', exitCode: 42, signal: null, seq: ended.seq });
    expect(replay.length).toBe(ended.seq);
    expect(replay.toString('utf8')).toContain('line 00003 ✓ ünïcödé');
    await expect(second.remove('short')).resolves.toBeUndefined();
    expect(await second.list()).toEqual([]);
  });

  it('refuses to remove a running session without force, and kills it with force', async () => {
    const host = await startTestHost();
    const client = await host.connect();
    const info = await client.spawn({ id: 'live', file: process.execPath, args: [EMITTER, '--lines', '1'], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    trackPid(info.pid);
    expect(await codeOf(client.remove('live'))).toBe('HOST_SESSION_ALIVE');
    await client.remove('live', true);
    await waitFor(() => !processExists(info.pid!), 5000, 'the child to be killed');
    expect(await codeOf(client.attach('live'))).toBe('HOST_UNKNOWN_SESSION');
  });

  it('relays a spawn failure with the terminal layer code and keeps serving', async () => {
    const host = await startTestHost();
    const client = await host.connect();
    const failure = client.spawn({ file: '/nonexistent/agent', args: [], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    await expect(failure).rejects.toMatchObject({ code: 'HOST_SPAWN_FAILED', detail: { spawnCode: 'PTY_BINARY_NOT_FOUND' } });
    expect(await codeOf(client.spawn({ id: 'a', file: process.execPath, args: [EMITTER], cwd: '/nonexistent-dir', env: ENV, cols: 80, rows: 24 }))).toBe('HOST_SPAWN_FAILED');
    expect(await client.list()).toEqual([]);
  });

  it('kills with a named signal and reports it', async () => {
    const host = await startTestHost();
    const client = await host.connect();
    const info = await client.spawn({ id: 'k', file: process.execPath, args: [EMITTER, '--lines', '1'], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    trackPid(info.pid);
    await client.kill('k', 'SIGTERM');
    const ended = await waitFor(async () => (await client.list()).find((s) => !s.alive), 10_000, 'the child to die');
    expect(ended).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
  });

  it('keeps reading other sessions while one child never reads its input', async () => {
    const host = await startTestHost();
    const client = await host.connect();
    // `sleep` never reads stdin: the PTY's input buffer fills after a few KiB.
    const stuck = await client.spawn({ id: 'stuck', file: 'sleep', args: ['60'], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    const busy = await client.spawn({ id: 'busy', file: process.execPath, args: [EMITTER, '--lines', '300', '--interval-ms', '10'], cwd: host.dir, env: ENV, cols: 80, rows: 24 });
    trackPid(stuck.pid);
    trackPid(busy.pid);
    const chunk = 'x'.repeat(60 * 1024);
    // 3 MiB of input for a child that reads none of it.
    await Promise.all(Array.from({ length: 50 }, () => client.write('stuck', chunk)));
    const before = (await client.list()).find((s) => s.id === 'busy')!.seq;
    const t0 = Date.now();
    const after = await waitFor(async () => {
      const s = (await client.list()).find((x) => x.id === 'busy')!;
      return s.seq > before + 2000 ? s.seq : undefined;
    }, 10_000, 'the busy session to keep producing output');
    expect(after).toBeGreaterThan(before);
    // The host answered every list in that time: its event loop was not blocked by the stuck writes.
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect((await client.list()).find((s) => s.id === 'stuck')!.alive).toBe(true);
  });
});
