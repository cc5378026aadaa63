/**
 * One daemon per state directory, and a runtime dir that is not shared by accident (issue 24,
 * item 6), with real `specterm serve` processes: a second `serve` on the same dirs, or with its own
 * state dir but the same runtime dir, is refused with the pid and port of the running one and
 * leaves `daemon.json` and the first daemon alone; a SIGKILLed daemon's lock does not block the
 * next start, nor does a stale `daemon.json` whose pid now belongs to another program.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonClient } from '../../src/client/index.js';
import { makeDirs, startDaemon, stopAll } from './daemon-harness.js';

const BIN = fileURLToPath(new URL('../../bin/specterm.js', import.meta.url));
afterEach(stopAll, 60_000);

/** Runs `specterm serve --port 0` to its exit (a refused start exits by itself); kills it after 60 s. */
function runRefusedServe(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-pair'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
  return new Promise((resolve) => child.once('exit', (code) => { clearTimeout(timer); resolve({ code, stderr }); }));
}

describe('specterm serve: one daemon per state dir', () => {
  it('a second serve on the same dirs is refused with the pid and port of the running one; daemon.json and the first daemon are untouched', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs, ['--no-pair']);
    const stateFile = path.join(dirs.runtimeDir, 'daemon.json');
    const before = fs.readFileSync(stateFile, 'utf8');
    const port = new URL(first.url).port;

    const second = await runRefusedServe(dirs.env);
    expect(second.code).toBe(70);
    expect(second.stderr).toContain('DAEMON_ALREADY_RUNNING');
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).toContain(`port ${port}`);
    expect(fs.readFileSync(stateFile, 'utf8')).toBe(before);
    expect((await first.client.call('listSessions')).sessions).toEqual([]);
  }, 120_000);

  it('a daemon with its own state dir but the same runtime dir is refused; the first daemon stays reachable', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs, ['--no-pair']);
    const other = makeDirs();
    const second = await runRefusedServe({ ...dirs.env, SPECTERM_STATE_DIR: other.stateDir });
    expect(second.code).toBe(70);
    expect(second.stderr).toContain('RUNTIME_DIR_IN_USE');
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).toContain(dirs.stateDir);
    // The CLI of the first daemon still finds it and its token still works (no AUTH_INVALID).
    const client = DaemonClient.discover({ runtimeDir: dirs.runtimeDir, stateDir: dirs.stateDir, env: {} });
    expect((await client.call('listSessions')).sessions).toEqual([]);
  }, 120_000);

  it('a client whose state dir is not the running daemon\'s says so instead of AUTH_INVALID', async () => {
    const dirs = makeDirs();
    await startDaemon(dirs, ['--no-pair']);
    const other = makeDirs();
    fs.writeFileSync(path.join(other.stateDir, 'admin-token'), 'st_not-this-daemons-token\n', { mode: 0o600 });
    expect(() => DaemonClient.discover({ runtimeDir: dirs.runtimeDir, stateDir: other.stateDir, env: {} }))
      .toThrow(expect.objectContaining({ code: 'DAEMON_STATE_DIR_MISMATCH', message: expect.stringContaining(dirs.stateDir) }));
  }, 120_000);

  it('neither a SIGKILLed daemon\'s lock nor a stale daemon.json naming a live unrelated pid blocks the next start', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs, ['--no-pair']);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startDaemon(dirs, ['--no-pair']);
    expect((await second.client.call('listSessions')).sessions).toEqual([]);
    second.child.kill('SIGKILL');
    await second.exited;
    // The pid in daemon.json now belongs to another program (this test runner).
    const stateFile = path.join(dirs.runtimeDir, 'daemon.json');
    const stale = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(stateFile, JSON.stringify({ ...stale, pid: process.pid }), { mode: 0o600 });
    const third = await startDaemon(dirs, ['--no-pair'], { keepStateFile: true });
    expect((await third.client.call('listSessions')).sessions).toEqual([]);
  }, 180_000);
});
