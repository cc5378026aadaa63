/**
 * `native_history.session_id: {"from": "newest_file"}` in the real daemon: the Demo Agent, given
 * no id, names its own history file; two sessions started together in two folders each find
 * their own file, take its id as `native_session_id`, answer from it, and resume with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs, REPO, runCli, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let specPath: string;
let datedSpecPath: string;

/** The built-in Demo Agent spec with another `native_history`, written where the daemon may read it. */
function writeSpec(name: string, history: Record<string, unknown>): string {
  const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'specs/demo-agent/spec.json'), 'utf8'));
  Object.assign(spec.native_history, history);
  spec.spawn_args = [path.join(REPO, 'dist/demo/main.js')];
  const file = path.join(dirs.home, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(spec));
  return file;
}

beforeAll(async () => {
  dirs = makeDirs();
  // The agent picks its conversation id and the daemon finds its file.
  specPath = writeSpec('newest-file-demo', { session_id: { from: 'newest_file' } });
  // The daemon gives the id, but the template names no one file (as Gemini CLI dates its files): found by the id.
  datedSpecPath = writeSpec('glob-demo', { path: '${DEMO_AGENT_HOME:-~/.demo-agent}/sessions/*.jsonl' });
  daemon = await startDaemon(dirs);
}, 90_000);
afterAll(stopAll, 60_000);

const session = (id: string) => daemon.client.call('getSession', { params: { id } });

describe('newest_file discovery in the daemon', () => {
  it('two sessions in two folders started together each find their own file, and resume with its id', async () => {
    const folders = ['one', 'two'].map((name) => { const d = path.join(dirs.work, name); fs.mkdirSync(d); return d; });
    const ids = await Promise.all(folders.map(async (cwd, i) => (await daemon.client.call('createSession', { body: { spec: specPath, cwd, name: `w${i}`, cols: 100, rows: 30 } })).id));
    for (const id of ids) await waitFor(async () => (await session(id)).state?.id === 'idle', WAIT_MS, 'idle');

    const sent = await Promise.all(['w0', 'w1'].map((name) => runCli(dirs, ['send', name, 'hello', '--wait', 'idle'])));
    for (const s of sent) {
      expect(s.code, s.err).toBe(0);
      expect(s.out).toMatch(/^Hello! I'm Demo Agent/);
    }
    const native = await Promise.all(ids.map(async (id) => (await waitFor(async () => (await session(id)).native_session_id ?? undefined, WAIT_MS, 'the discovered id'))));
    expect(native[0]).not.toBe(native[1]);
    for (const [i, nativeId] of native.entries()) {
      const file = path.join(dirs.home, '.demo-agent', 'sessions', `${nativeId}.jsonl`);
      expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ type: 'session', session_id: nativeId, cwd: folders[i] });
      const { transcript } = await daemon.client.call('getTranscript', { params: { id: ids[i]! } });
      expect(transcript!.native_session_ids).toEqual([nativeId]);
    }

    // The agent quits; resume passes the discovered id back and the same file goes on.
    await runCli(dirs, ['send', 'w0', '/exit']);
    await waitFor(async () => ((await session(ids[0]!)).resumable ? true : undefined), WAIT_MS, 'resumable after /exit');
    const resumed = await runCli(dirs, ['resume', 'w0']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toContain(`on conversation ${native[0]}`);
    await waitFor(async () => (await session(ids[0]!)).state?.id === 'idle', WAIT_MS, 'idle after resume');
    const again = await runCli(dirs, ['send', 'w0', 'hello', '--wait', 'idle']);
    expect(again.out).toMatch(/^Hello! I'm Demo Agent/);
    const { transcript } = await daemon.client.call('getTranscript', { params: { id: ids[0]! } });
    expect(transcript!.turns.filter((t) => t.user?.text === 'hello')).toHaveLength(2);
    expect(transcript!.native_session_ids).toEqual([native[0]]);
  }, 180_000);

  it('an id given at launch finds its file through a template that names no one file', async () => {
    const cwd = path.join(dirs.work, 'three');
    fs.mkdirSync(cwd);
    const id = (await daemon.client.call('createSession', { body: { spec: datedSpecPath, cwd, name: 'dated', cols: 100, rows: 30 } })).id;
    await waitFor(async () => (await session(id)).state?.id === 'idle', WAIT_MS, 'idle');
    const sent = await runCli(dirs, ['send', 'dated', 'hello', '--wait', 'idle']);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toMatch(/^Hello! I'm Demo Agent/);
    const { transcript } = await daemon.client.call('getTranscript', { params: { id } });
    expect(transcript!.native_session_ids).toEqual([(await session(id)).native_session_id]);
  }, 120_000);
});
