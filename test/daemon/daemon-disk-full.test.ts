/**
 * A full disk under the state dir (issue 24 item 7): the real daemon on a small real file system
 * (tmpfs, or a loop-mounted ext4 image) that the test fills. Creating a session, a token or a
 * message answers `507 STORAGE_FULL` naming the directory; reads keep answering 200 (a device
 * token's read too: its last-used time cannot be written); the agent running beside it keeps the
 * daemon up; once the filler is removed the same daemon writes again by itself, and nothing
 * written before — or after — is lost, also across a daemon restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountSmallFs, type SmallFs } from '../helpers/small-fs.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
/** Room for the database and its WAL with a margin; the filler takes the rest. */
const FS_BYTES = 16 * 1024 * 1024;
let dirs: DaemonDirs;
let disk: SmallFs | undefined;
let daemon: RunningDaemon;
let adminToken: string;
let readToken: string;

async function api(method: string, pathname: string, body?: unknown, token = adminToken): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${daemon.url}${pathname}`, {
    method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() as Record<string, any> };
}

async function idleSession(name: string): Promise<string> {
  const created = await api('POST', '/api/v1/sessions', { spec: 'demo-agent', cwd: dirs.work, name });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  await waitFor(async () => (await api('GET', `/api/v1/sessions/${name}`)).json.state?.id === 'idle', WAIT_MS, `${name} idle`);
  return created.json.id as string;
}

beforeAll(async () => {
  dirs = makeDirs();
  disk = mountSmallFs(dirs.stateDir, FS_BYTES);
  daemon = await startDaemon(dirs);
  adminToken = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  readToken = (await api('POST', '/api/v1/tokens', { name: 'viewer', scope: 'read' })).json.token as string;
}, 90_000);

afterAll(async () => {
  // The daemon holds the database open: stop it before unmounting, unmount before the dirs go.
  daemon?.child.kill('SIGTERM');
  await daemon?.exited;
  disk?.unmount();
  await stopAll();
}, 60_000);

describe('the state dir\'s file system full', () => {
  it('answers 507 STORAGE_FULL for writes, keeps serving reads, and recovers by itself when space returns', async () => {
    const before = await idleSession('before');
    const delivered = await api('POST', `/api/v1/sessions/${before}/messages`, { text: 'hello before', wait: 'accepted' });
    expect(delivered.status, JSON.stringify(delivered.json)).toBe(200);

    const filler = disk!.fill();

    const specText = (await api('GET', `/api/v1/sessions/${before}/spec`)).json.text as string;
    const writes = [
      await api('POST', '/api/v1/sessions', { spec: 'demo-agent', cwd: dirs.work, name: 'during' }),
      await api('POST', '/api/v1/tokens', { name: 'during', scope: 'input' }),
      await api('POST', `/api/v1/sessions/${before}/messages`, { text: 'hello during', wait: 'accepted' }),
      // Files under the state dir fail the same way: a spec edit's override, a recording.
      await api('PUT', `/api/v1/sessions/${before}/spec`, { text: specText.replace('"Ready"', '"Ready (edited)"') }),
      await api('POST', `/api/v1/sessions/${before}/recording`, { name: 'during' }),
    ];
    for (const w of writes) {
      expect(w.status, JSON.stringify(w.json)).toBe(507);
      expect(w.json.code).toBe('STORAGE_FULL');
      expect(w.json.detail).toContain(dirs.stateDir);
      expect(w.json.detail).toMatch(/free some space/);
      expect(w.json.dir.startsWith(dirs.stateDir)).toBe(true);
    }

    for (const [pathname, token] of [['/api/v1/sessions', adminToken], [`/api/v1/sessions/${before}`, adminToken], [`/api/v1/sessions/${before}/history`, adminToken], ['/api/v1/tokens', adminToken], ['/api/v1/sessions', readToken], ['/api/v1/approvals', readToken]] as const) {
      const r = await api('GET', pathname, undefined, token);
      expect(r.status, `${pathname}: ${JSON.stringify(r.json)}`).toBe(200);
    }
    // The agent still runs and the daemon with it: keys typed while full change its state, whose
    // rows cannot be written (whatever this answers: the keys are typed, their audit row is not).
    await api('POST', `/api/v1/sessions/${before}/keys`, { data: 'x' }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1000));
    expect(daemon.child.exitCode).toBeNull();
    expect((await api('GET', `/api/v1/sessions/${before}`)).json.lifecycle).toBe('running');
    expect(daemon.stderr()).toMatch(/STORAGE_FULL|no space left/i);

    fs.rmSync(filler);

    const after = await idleSession('after');
    expect((await api('POST', '/api/v1/tokens', { name: 'after', scope: 'input' })).status).toBe(201);
    expect((await api('POST', `/api/v1/sessions/${after}/messages`, { text: 'hello after', wait: 'accepted' })).status).toBe(200);

    // Nothing lost, in this daemon and in the database a new one opens.
    const check = async () => {
      const sessions = (await api('GET', '/api/v1/sessions')).json.sessions as Array<{ name: string }>;
      expect(sessions.map((s) => s.name).sort()).toEqual(['after', 'before']);
      const tokens = (await api('GET', '/api/v1/tokens')).json.tokens as Array<{ name: string }>;
      expect(tokens.map((t) => t.name).sort()).toEqual(['after', 'viewer']);
    };
    await check();
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    daemon = await startDaemon(dirs);
    await check();
  }, 180_000);
});
