/**
 * Recordings through the real daemon: record a demo-agent session over the API, the file is an
 * asciicast v2 file with mode 0600 in a 0700 dir under the state dir holding what the agent
 * printed and (as `i` events) what the daemon typed into it, the list shows it, its
 * timeline (replayed on the daemon) goes idle → busy → done, the explanation at an instant is
 * what `specterm explain` prints for it, and names that could leave the dir are refused at the
 * edge with problem+json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { startDaemonWithIdleSession, stopAll, waitFor, type DaemonDirs, type RunningDaemon, runCli } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let client: DaemonClient;
let sessionId: string;

function adminFetch(pathname: string, init: RequestInit = {}): Promise<Response> {
  const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
  return fetch(`${daemon.url}${pathname}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
}

beforeAll(async () => {
  ({ dirs, daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS));
  client = daemon.client;
}, 90_000);
afterAll(stopAll, 60_000);

describe('recordings through the daemon', () => {
  it('records a session to a private asciicast file, lists it and replays its states', async () => {
    const started = await client.call('startRecording', { params: { id: sessionId }, body: { name: 'greeting' } });
    expect(started).toMatchObject({ name: 'greeting', session_id: sessionId, spec_id: 'demo-agent', active: true });
    const again = await adminFetch(`/api/v1/sessions/${sessionId}/recording`, { method: 'POST', body: '{}' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'RECORDING_ACTIVE' });
    expect((await client.call('listRecordings')).recordings).toEqual([expect.objectContaining({ name: 'greeting', active: true })]);

    const sent = await client.call('sendMessage', { params: { id: sessionId }, body: { text: 'hello there', wait: 'idle', timeout_ms: 45_000 } });
    expect(sent.delivery).toBe('idle');
    // Stopped once the turn has settled (done, then idle): the replay evaluates on its own
    // cadence, so a state the live driver reached in the last ~150 ms before the stop can come
    // just after the end in the replay (docs/dashboard.md, "recordings").
    await waitFor(async () => (await client.call('getSession', { params: { id: sessionId } })).state?.id === 'idle', WAIT_MS, 'idle after the turn');
    const stopped = await client.call('stopRecording', { params: { id: sessionId } });
    expect(stopped).toMatchObject({ name: 'greeting', active: false, spec_id: 'demo-agent' });
    expect(stopped.bytes).toBeGreaterThan(100);

    const dir = path.join(dirs.stateDir, 'recordings');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'greeting.cast')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'greeting.spec.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'greeting.session.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir).sort()).toEqual(['greeting.cast', 'greeting.session.json', 'greeting.spec.json']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'greeting.cast'), 'utf8').split('\n')[0]!)).toMatchObject({ version: 2, width: 100, height: 30 });
    // The download: the file as it is on disk, named for saving.
    expect(await client.call('getRecordingCast', { params: { name: 'greeting' } }))
      .toEqual({ name: 'greeting', file_name: 'greeting.cast', content: fs.readFileSync(path.join(dir, 'greeting.cast'), 'utf8') });
    expect((await client.call('listRecordings')).recordings).toEqual([expect.objectContaining({ name: 'greeting', active: false, duration_ms: expect.any(Number) })]);

    // What the daemon typed into the PTY is in the cast as `i` events, after the screen's redraw.
    const events = fs.readFileSync(path.join(dir, 'greeting.cast'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    const typed = events.filter((e) => e[1] === 'i');
    expect(typed.map((e) => e[2]).join('')).toContain('hello there');
    expect(events.findIndex((e) => e[1] === 'i')).toBeGreaterThan(events.findIndex((e) => e[1] === 'm' && e[2] === 'live'));
    // `specterm replay` reads such a cast as before: the input is not replayed as output.
    const replayed = await runCli(dirs, ['replay', path.join(dir, 'greeting.cast'), '--spec', 'demo-agent', '--json']);
    expect(replayed.code, replayed.err).toBe(0);
    expect(replayed.out.trim().split('\n').map((l) => (JSON.parse(l) as { state: string }).state)).toEqual(expect.arrayContaining(['idle', 'busy', 'done']));

    const timeline = await client.call('getRecordingTimeline', { params: { name: 'greeting' } });
    const states = timeline.states.map((s) => s.state);
    expect(states[0]).toBe('starting');
    expect(states).toEqual(expect.arrayContaining(['idle', 'busy', 'done']));
    expect(states.indexOf('busy')).toBeLessThan(states.lastIndexOf('done'));
    for (let i = 1; i < timeline.states.length; i += 1) expect(timeline.states[i]!.at_ms).toBeGreaterThanOrEqual(timeline.states[i - 1]!.at_ms);
    expect(timeline.end_ms).toBeGreaterThanOrEqual(timeline.states.at(-1)!.at_ms);
  });

  it('explains an instant exactly as `specterm explain` does', async () => {
    const timeline = await client.call('getRecordingTimeline', { params: { name: 'greeting' } });
    const busy = timeline.states.find((s) => s.state === 'busy')!;
    const next = timeline.states[timeline.states.indexOf(busy) + 1]!;
    const at = Math.round((busy.at_ms + next.at_ms) / 2);
    const explained = await client.call('explainRecording', { params: { name: 'greeting' }, query: { at_ms: at } });
    expect(explained.state.id).toBe('busy');
    expect(explained.screen.join('\n')).toContain('hello there');
    expect(explained.transitions.map((t) => t.to)).toContain('done');
    expect(explained.sections.map((s) => s.id)).toEqual(expect.arrayContaining(['status', 'footer']));
    const printed = await runCli(dirs, ['explain', path.join(dirs.stateDir, 'recordings', 'greeting.cast'), '--spec', 'demo-agent', '--at', String(at / 1000)]);
    expect(printed.code, printed.err).toBe(0);
    expect(printed.out.split('\n').slice(1).join('\n')).toBe(explained.text);

    const late = await adminFetch(`/api/v1/recordings/greeting/explain?at_ms=${timeline.end_ms + 1}`);
    expect(late.status).toBe(422);
    expect(await late.json()).toMatchObject({ code: 'RECORDING_AT_OUT_OF_RANGE', errors: [expect.objectContaining({ path: '/at_ms' })] });
  });

  it('refuses names that could leave the recordings dir, and unknown ones, with problem+json', async () => {
    fs.writeFileSync(path.join(dirs.stateDir, 'secret.cast'), '{"version":2,"width":80,"height":24}\n', { mode: 0o600 });
    for (const name of ['..%2Fsecret', '..', '.%2E%2Fsecret', 'a.b', '%2Fetc%2Fpasswd']) {
      for (const what of ['timeline', 'cast']) {
        const res = await adminFetch(`/api/v1/recordings/${name}/${what}`);
        expect([404, 422], `${name} ${what}`).toContain(res.status);
        expect(res.headers.get('content-type'), `${name} ${what}`).toMatch(/application\/problem\+json/);
      }
    }
    const traversal = await adminFetch('/api/v1/recordings/..%2Fsecret/timeline');
    expect(traversal.status).toBe(422);
    for (const name of ['../secret', 'a/b', '.hidden', 'x'.repeat(65), '']) {
      const res = await adminFetch(`/api/v1/sessions/${sessionId}/recording`, { method: 'POST', body: JSON.stringify({ name }) });
      expect(res.status, name).toBe(422);
      expect(await res.json()).toMatchObject({ errors: [expect.objectContaining({ path: '/name' })] });
    }
    expect(fs.readdirSync(path.join(dirs.stateDir, 'recordings')).sort()).toEqual(['greeting.cast', 'greeting.session.json', 'greeting.spec.json']);
    const unknown = await adminFetch('/api/v1/recordings/nope/timeline');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'RECORDING_NOT_FOUND' });
    const notRecording = await adminFetch(`/api/v1/sessions/${sessionId}/recording`, { method: 'DELETE' });
    expect(notRecording.status).toBe(409);
    expect(await notRecording.json()).toMatchObject({ code: 'NOT_RECORDING' });
  });
});
