/**
 * Which files a spec path may name over the API, and that no refusal quotes a file's content
 * (issue 24 item 3). One real daemon; an input-scope device token asks for files it must not
 * see (`/etc/passwd`, the admin token, the daemon's environment, a symlink to the admin token,
 * a project file) and gets `422 SPEC_PATH_NOT_ALLOWED` saying what is allowed; a spec in the
 * user's specs dir runs. The admin token may name the owner's own `.json` files, and even then a
 * file that is not JSON is refused by line/column, never by an excerpt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs, REPO, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

/** Set in the daemon's environment: /proc/self/environ would show it. */
const ENV_MARKER = 'SPECTERM_TEST_ENV_MARKER';
const ENV_VALUE = 'do-not-show-me-4711';
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let adminToken: string;
let inputToken: string;
let userSpecs: string;

async function post(token: string, body: unknown): Promise<{ status: number; text: string; json: Record<string, any> }> {
  const res = await fetch(`${daemon.url}/api/v1/sessions`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Record<string, any> };
}

/** The demo agent's spec as a file of its own (its program named absolutely, not by {{specDir}}). */
function demoSpecText(): string {
  return fs.readFileSync(path.join(REPO, 'specs/demo-agent/spec.json'), 'utf8').replace('{{specDir}}/../..', path.join(REPO));
}

beforeAll(async () => {
  dirs = makeDirs();
  dirs.env[ENV_MARKER] = ENV_VALUE;
  daemon = await startDaemon(dirs);
  adminToken = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  inputToken = (await daemon.client.call('createToken', { body: { name: 'phone', scope: 'input' } })).token;
  userSpecs = path.join(dirs.home, '.config', 'specterm', 'specs');
  fs.mkdirSync(userSpecs, { recursive: true });
}, 90_000);
afterAll(stopAll, 60_000);

describe('a spec path over the API', () => {
  it('refuses system files, the admin token and the daemon\'s environment without showing a byte of them', async () => {
    const asked = ['/etc/passwd', path.join(dirs.stateDir, 'admin-token'), '/proc/self/environ', '/proc/self/cmdline', '/dev/zero'];
    for (const spec of asked) {
      const r = await post(inputToken, { spec, cwd: dirs.work });
      expect(r.status, spec).toBe(422);
      expect(r.json.code, spec).toBe('SPEC_PATH_NOT_ALLOWED');
      expect(r.json.errors, spec).toEqual([expect.objectContaining({ path: '/spec', code: 'SPEC_PATH_NOT_ALLOWED' })]);
      expect(r.json.detail, spec).toContain(userSpecs);
      expect(r.text).not.toContain('root:x');
      expect(r.text).not.toContain(adminToken.slice(0, 6));
      expect(r.text).not.toContain(ENV_VALUE);
    }
  });

  it('refuses a symlink in the user\'s specs dir that points at the admin token, and a .json outside the allowed dirs', async () => {
    const link = path.join(userSpecs, 'sneaky.json');
    fs.symlinkSync(path.join(dirs.stateDir, 'admin-token'), link);
    const viaLink = await post(inputToken, { spec: link, cwd: dirs.work });
    expect(viaLink).toMatchObject({ status: 422, json: { code: 'SPEC_PATH_NOT_ALLOWED' } });
    expect(viaLink.text).not.toContain(adminToken.slice(0, 6));
    const project = path.join(dirs.work, 'project-spec.json');
    fs.writeFileSync(project, demoSpecText());
    const outside = await post(inputToken, { spec: project, cwd: dirs.work });
    expect(outside).toMatchObject({ status: 422, json: { code: 'SPEC_PATH_NOT_ALLOWED' } });
    expect(outside.json.detail).toMatch(/built-in spec id/);
  });

  it('runs a spec from the user\'s specs dir for a device token', async () => {
    const file = path.join(userSpecs, 'my-demo.json');
    fs.writeFileSync(file, demoSpecText());
    const r = await post(inputToken, { spec: file, cwd: dirs.work, name: 'from-user-specs' });
    expect(r.status, r.text).toBe(201);
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: 'from-user-specs' } })).lifecycle === 'running', 30_000, 'session running');
  });

  it('lets the admin token name its own .json file, and a broken one is told by line and column, not by its text', async () => {
    const secret = path.join(dirs.work, 'notes.json');
    fs.writeFileSync(secret, '{\n  "a": 1,\n  "b": mysecretvalue-xyz\n}\n');
    const r = await post(adminToken, { spec: secret, cwd: dirs.work });
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/line 3, column 8/);
    expect(r.text).not.toContain('mysecret');
    const notJson = await post(adminToken, { spec: '/etc/passwd', cwd: dirs.work });
    expect(notJson).toMatchObject({ status: 422, json: { code: 'SPEC_PATH_NOT_ALLOWED' } });
    expect(notJson.json.detail).toMatch(/\.json/);
    const state = await post(adminToken, { spec: path.join(dirs.stateDir, 'settings.json'), cwd: dirs.work });
    expect(state).toMatchObject({ status: 422, json: { code: 'SPEC_PATH_NOT_ALLOWED' } });
    // The owner's usual way still works: a spec file in a project, named by the CLI's absolute path.
    const project = path.join(dirs.work, 'project-spec.json');
    expect((await post(adminToken, { spec: project, cwd: dirs.work, name: 'project' })).status).toBe(201);
  });
});
