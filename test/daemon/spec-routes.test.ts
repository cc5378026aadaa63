/**
 * The spec editor's routes through the real daemon and a demo-agent session: the spec text is
 * the package's file; invalid text is refused with the validator's errors (422, nothing written,
 * the old spec still running); valid text goes to a session-local override under the state dir
 * (the package is never written) and is hot-reloaded (a changed label shows in the session's
 * state); a condition is previewed on the live screen; an unknown session is a 404.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { startDaemonWithIdleSession, REPO, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
const PACKAGE_SPEC = path.join(REPO, 'specs/demo-agent/spec.json');
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let client: DaemonClient;
let sessionId: string;

function adminFetch(pathname: string, init: RequestInit = {}): Promise<Response> {
  const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  return fetch(`${daemon.url}${pathname}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
}

function withIdleLabel(text: string, label: string): string {
  const spec = JSON.parse(text) as { states: Array<{ id: string; label?: string }> };
  spec.states.find((s) => s.id === 'idle')!.label = label;
  return JSON.stringify(spec, null, 2);
}

beforeAll(async () => {
  ({ dirs, daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS));
  client = daemon.client;
}, 90_000);
afterAll(stopAll, 60_000);

describe('the spec editor routes', () => {
  it('answers the spec text of a built-in spec', async () => {
    const spec = await client.call('getSessionSpec', { params: { id: sessionId } });
    expect(spec).toEqual({ text: fs.readFileSync(PACKAGE_SPEC, 'utf8'), path: PACKAGE_SPEC, builtin: true, override: false });
  });

  it('lists the built-in specs by id, the package\'s specs/ folders', async () => {
    const builtin = fs.readdirSync(path.join(REPO, 'specs')).filter((n) => fs.existsSync(path.join(REPO, 'specs', n, 'spec.json'))).sort();
    expect((await client.call('listSpecs')).specs).toEqual(builtin.map((id) => ({ id })));
    expect(builtin).toContain('demo-agent');
  });

  it('serves the spec format\'s JSON Schema, the one `specterm schema` prints (the schema/ file)', async () => {
    const schema = await client.call('getSpecSchema', {});
    expect(schema).toEqual(JSON.parse(fs.readFileSync(path.join(REPO, 'schema/spec-v4.schema.json'), 'utf8')));
  });

  it('validates text with the messages of `specterm validate`', async () => {
    const { text } = await client.call('getSessionSpec', { params: { id: sessionId } });
    expect(await client.call('validateSessionSpec', { params: { id: sessionId }, body: { text } })).toMatchObject({ ok: true, errors: [] });
    const broken = text.replace('"to": "idle"', '"to": "nowhere"');
    const bad = await client.call('validateSessionSpec', { params: { id: sessionId }, body: { text: broken } });
    expect(bad.ok).toBe(false);
    expect(bad.errors).toContainEqual(expect.objectContaining({ code: 'SPEC_UNKNOWN_STATE', message: expect.stringContaining('nowhere') }));
    const syntax = await client.call('validateSessionSpec', { params: { id: sessionId }, body: { text: '{"id": ' } });
    expect(syntax.errors).toEqual([expect.objectContaining({ code: 'SPEC_JSON_SYNTAX', line: 1 })]);
  });

  it('refuses an invalid save with 422 and its errors, writes nothing, and keeps the old spec running', async () => {
    const before = await client.call('getSession', { params: { id: sessionId } });
    const packageText = fs.readFileSync(PACKAGE_SPEC, 'utf8');
    const broken = withIdleLabel(packageText, 'Broken').replace('"to": "idle"', '"to": "nowhere"');
    const res = await adminFetch(`/api/v1/sessions/${sessionId}/spec`, { method: 'PUT', body: JSON.stringify({ text: broken }) });
    expect(res.status).toBe(422);
    const problem = await res.json() as { code: string; errors: Array<{ code: string; message: string }> };
    expect(problem.code).toBe('SPEC_INVALID');
    expect(problem.errors).toContainEqual(expect.objectContaining({ code: 'SPEC_UNKNOWN_STATE' }));
    expect(fs.readFileSync(PACKAGE_SPEC, 'utf8')).toBe(packageText);
    expect(fs.existsSync(path.join(dirs.stateDir, 'spec-overrides'))).toBe(false);
    const after = await client.call('getSession', { params: { id: sessionId } });
    expect(after.lifecycle).toBe('running');
    expect(after.state).toEqual(before.state);
  });

  it('saves a valid edit of a built-in spec to a private override and hot-reloads it', async () => {
    const packageText = fs.readFileSync(PACKAGE_SPEC, 'utf8');
    const saved = await client.call('saveSessionSpec', { params: { id: sessionId }, body: { text: withIdleLabel(packageText, 'Ready for you') } });
    const override = path.join(dirs.stateDir, 'spec-overrides', `${sessionId}.json`);
    expect(saved).toMatchObject({ path: override, override: true, reloaded: true, validation: { ok: true } });
    expect(fs.statSync(override).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(override)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(PACKAGE_SPEC, 'utf8')).toBe(packageText);
    await waitFor(async () => (await client.call('getSession', { params: { id: sessionId } })).state?.label === 'Ready for you', WAIT_MS, 'the new label');
    expect(await client.call('getSessionSpec', { params: { id: sessionId } })).toMatchObject({ path: override, builtin: true, override: true });

    // A forced invalid save is written but not loaded: the edited spec stays in force.
    const forced = await client.call('saveSessionSpec', { params: { id: sessionId }, body: { text: '{"id": "x"}', force: true } });
    expect(forced).toMatchObject({ path: override, reloaded: false, validation: { ok: false } });
    expect(fs.readFileSync(override, 'utf8')).toBe('{"id": "x"}');
    const now = await client.call('getSession', { params: { id: sessionId } });
    expect(now).toMatchObject({ lifecycle: 'running', state: { id: 'idle', label: 'Ready for you' } });
  });

  it('previews a condition on the live screen', async () => {
    const screen = (await client.call('getScreen', { params: { id: sessionId } })).content;
    const word = /[A-Za-z]{4,}/.exec(screen)![0];
    const hit = await client.call('previewSpecCondition', { params: { id: sessionId }, body: { condition: { matches: word } } });
    expect(hit).toMatchObject({ result: true, cond: { result: true, matched_text: expect.stringContaining(word) } });
    const miss = await client.call('previewSpecCondition', { params: { id: sessionId }, body: { condition: { matches: 'zzz-not-on-screen-zzz' } } });
    expect(miss).toMatchObject({ result: false, cond: { kind: expect.any(String), result: false } });
    const bad = await adminFetch(`/api/v1/sessions/${sessionId}/spec/preview`, { method: 'POST', body: JSON.stringify({ condition: 'nope' }) });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ errors: [expect.objectContaining({ path: '/condition' })] });
  });

  it('resumes the session on its override after a daemon restart', async () => {
    await client.call('saveSessionSpec', { params: { id: sessionId }, body: { text: withIdleLabel(fs.readFileSync(PACKAGE_SPEC, 'utf8'), 'Kept across restarts') } });
    await waitFor(async () => (await client.call('getSession', { params: { id: sessionId } })).state?.label === 'Kept across restarts', WAIT_MS, 'the saved label');
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    daemon = await startDaemon(dirs);
    client = daemon.client;
    const resumed = await waitFor(async () => {
      const d = await client.call('getSession', { params: { id: sessionId } });
      return d.lifecycle === 'running' ? d : undefined;
    }, WAIT_MS, 'the resumed session');
    expect(resumed.state).toMatchObject({ id: 'idle', label: 'Kept across restarts' });
  }, 120_000);

  it('answers 404 for an unknown session', async () => {
    for (const [method, suffix, body] of [['GET', '', undefined], ['PUT', '', '{"text":"{}"}'], ['POST', '/validate', '{"text":"{}"}'], ['POST', '/preview', '{"condition":{}}']] as const) {
      const res = await adminFetch(`/api/v1/sessions/s_nope/spec${suffix}`, { method, body });
      expect(res.status, `${method} …/spec${suffix}`).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    }
  });
});

describe('removing an edited session', () => {
  it('deletes its spec override', async () => {
    const override = path.join(dirs.stateDir, 'spec-overrides', `${sessionId}.json`);
    expect(fs.existsSync(override)).toBe(true);
    await client.call('removeSession', { params: { id: sessionId }, query: {} });
    await waitFor(() => !fs.existsSync(override), 10_000, 'the override to go');
  }, 60_000);
});
