/**
 * Agents that start agents, against a real daemon with a settings.json `orchestration` member
 * and real Demo Agents: a spec's delegate trigger (the agent sits at its usage limit) hands its
 * last message to a new session as a task; the daemon bounds chains of children (depth, fan-out,
 * no cycle) whatever carried the call; a child's prompt is answered by its parent agent only for
 * the pair the settings name; a settings member it cannot use stops `serve` naming the place.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, DaemonClient } from '../../src/client/index.js';
import { makeDirs, REPO, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let daemon: RunningDaemon;

/** A client acting for an agent session (as `specterm mcp` inside that agent does). */
const as = (session: string) => DaemonClient.discover({ runtimeDir: dirs.runtimeDir, stateDir: dirs.stateDir, env: {}, callerSession: session });
const refusal = async (p: Promise<unknown>): Promise<string> => {
  try { await p; } catch (error) { return `${(error as ClientError).code}: ${(error as Error).message}`; }
  return 'no refusal';
};
const idle = (id: string) => waitFor(async () => (await daemon.client.call('getSession', { params: { id } })).state?.status === 'idle', WAIT_MS, `${id} idle`);
const start = async (client: DaemonClient, extra: Record<string, unknown> = {}) =>
  (await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30, ...extra } })).id;

beforeAll(async () => {
  dirs = makeDirs();
  // Every message to a limited agent ends at its usage limit, as Claude Code's does.
  fs.writeFileSync(path.join(dirs.work, 'limited.json'), JSON.stringify({ model: 'demo-sonnet', rules: [{ steps: [{ think_ms: 1500 }, { error: 'Usage limit reached · resets at 5pm' }] }] }));
  fs.writeFileSync(path.join(dirs.stateDir, 'settings.json'), JSON.stringify({
    orchestration: {
      max_depth: 2, max_children: 2,
      delegate_routes: { usage_limit_handoff: { spec: 'demo-agent', cwd: dirs.work, timeout_ms: 120_000 } },
      parent_answers: [{ parent: 'root', child: 'demo-agent', kinds: ['approval'] }],
    },
  }), { mode: 0o600 });
  daemon = await startDaemon(dirs);
}, 90_000);
afterAll(stopAll, 60_000);

describe('orchestration in the daemon', () => {
  it('hands the task of an agent at its usage limit to another session, once, and types nothing back into it', async () => {
    const limited = await start(daemon.client, { name: 'limited', args: ['--scenario', path.join(dirs.work, 'limited.json')] });
    await idle(limited);
    await daemon.client.call('sendMessage', { params: { id: limited }, body: { text: 'hello from the limited one', wait: 'accepted' } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: limited } })).state?.id === 'limited', WAIT_MS, 'the usage-limit state');
    const task = await waitFor(async () => (await daemon.client.call('listTasks')).tasks.find((t) => t.parent_session_id === limited), WAIT_MS, 'the delegated task');
    expect(task).toMatchObject({ text: 'hello from the limited one', requested_by: 'delegate:usage_limit_handoff', trigger: 'usage_limit_handoff' });
    const done = await waitFor(async () => {
      const t = await daemon.client.call('getTask', { params: { id: task.id } });
      return t.status === 'done' ? t : undefined;
    }, 120_000, 'the delegated task done');
    expect(done.result!.text).toMatch(/^Hello! I'm Demo Agent/);
    const worker = await daemon.client.call('getSession', { params: { id: done.worker_session_id! } });
    expect(worker.labels).toMatchObject({ 'specterm.parent': limited, 'specterm.depth': '1' });
    // The limited agent sits on: no second task for the same stay, nothing typed into it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await daemon.client.call('listTasks')).tasks.filter((t) => t.parent_session_id === limited)).toHaveLength(1);
    const screen = (await daemon.client.call('getScreen', { params: { id: limited }, query: { format: 'text' } })).content;
    expect(screen).not.toContain('[specterm task');
    await daemon.client.call('killSession', { params: { id: done.worker_session_id! } });
  }, 240_000);

  it('runs tasks given at once to one worker one after the other, each with its own answer', async () => {
    const worker = await start(daemon.client, { name: 'shared-worker' });
    await idle(worker);
    const [greeting, other] = await Promise.all([
      daemon.client.call('createTask', { body: { text: 'hello there', worker: { session: worker }, timeout_ms: 120_000 } }),
      daemon.client.call('createTask', { body: { text: 'what can you do', worker: { session: worker }, timeout_ms: 120_000 } }),
    ]);
    const finished = (id: string) => waitFor(async () => {
      const t = await daemon.client.call('getTask', { params: { id } });
      return ['done', 'failed', 'timed_out'].includes(t.status) ? t : undefined;
    }, 120_000, `task ${id} finished`);
    const [a, b] = [await finished(greeting.id), await finished(other.id)];
    expect(a.result?.text).toMatch(/^Hello! I'm Demo Agent/);
    expect(b.result?.text).toMatch(/^Got it\. This is a scripted demo/);
    const { transcript } = await daemon.client.call('getTranscript', { params: { id: worker } });
    expect(transcript!.turns.map((t) => t.user?.text)).toEqual(['hello there', 'what can you do']);
    await daemon.client.call('killSession', { params: { id: worker } });
  }, 240_000);

  it('bounds chains of agents whatever carries the call: depth, fan-out, no cycle, never itself', async () => {
    const root = await start(daemon.client, { name: 'root' });
    const c1 = await start(as(root));
    const c2 = await start(as(c1));
    expect((await daemon.client.call('getSession', { params: { id: c2 } })).labels).toMatchObject({ 'specterm.parent': c1, 'specterm.depth': '2' });
    expect(await refusal(start(as(c2)))).toMatch(/^HANDOFF_TOO_DEEP: HANDOFF_TOO_DEEP: session \S+ is already 2 handoffs deep and at most 2 are allowed/);
    // A depth label the caller sets is not believed: the chain is counted.
    expect(await refusal(start(as(c2), { labels: { 'specterm.depth': '0' } }))).toMatch(/^HANDOFF_TOO_DEEP/);
    const c1b = await start(as(root));
    expect(await refusal(start(as(root)))).toMatch(/^HANDOFF_FAN_OUT: .*already runs 2 child sessions \(at most 2\)/);
    expect(await refusal(as(c2).call('createTask', { body: { text: 'hello', worker: { session: root } } }))).toMatch(/^HANDOFF_CYCLE: .*waits on it/);
    expect(await refusal(as(c1).call('createTask', { body: { text: 'hello', worker: { session: c1 } } }))).toMatch(/^SELF_TARGET/);
    expect(await refusal(as(c1).call('createTask', { body: { text: 'hello', worker: { session: c2 }, parent_session_id: root } }))).toMatch(/^CALLER_INVALID: .*asks for itself only/);
    expect(await refusal(as(c1).call('sendMessage', { params: { id: c1 }, body: { text: 'hi' } }))).toMatch(/^SELF_TARGET/);
    expect(await refusal(as('s_nobody').call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work } }))).toMatch(/^CALLER_INVALID: .*s_nobody/);
    const bad = await fetch(`${daemon.url}/api/v1/sessions`, { headers: { authorization: `Bearer ${fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim()}`, 'x-specterm-caller-session': 'no spaces allowed' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'CALLER_INVALID' });

    // A child's prompt: its parent answers only for the pair the settings name; others leave it to a person.
    await idle(c1);
    await idle(c2);
    await daemon.client.call('sendMessage', { params: { id: c1 }, body: { text: 'run the tests', wait: 'accepted' } });
    await daemon.client.call('sendMessage', { params: { id: c2 }, body: { text: 'run the tests', wait: 'accepted' } });
    const pending = (id: string) => waitFor(async () => (await daemon.client.call('listApprovals')).approvals.find((a) => a.session_id === id), WAIT_MS, `the approval of ${id}`);
    const [a1, a2] = [await pending(c1), await pending(c2)];
    const answer = (client: DaemonClient, a: typeof a1) => client.call('answerApproval', { params: { id: a.id }, body: { button: 1, fingerprint: a.fingerprint } });
    expect(await refusal(answer(as(c1), a1))).toMatch(/^SELF_TARGET/);
    expect(await refusal(answer(as(c1b), a1))).toMatch(/^AGENT_ANSWER_REFUSED: .*is not a child of the calling agent's session/);
    expect(await refusal(answer(as(c1), a2))).toMatch(/^AGENT_ANSWER_REFUSED: .*no entry of settings.json orchestration.parent_answers lets demo-agent answer approval prompts of demo-agent.*"parent": "demo-agent", "child": "demo-agent"/);
    expect((await answer(as(root), a2)).result).toBe('cleared');
    expect((await answer(as(root), a1)).result).toBe('cleared');
    // Audited with the agent session it was made for.
    const db = await import('better-sqlite3').then((m) => new m.default(path.join(dirs.stateDir, 'specterm.db'), { readonly: true }));
    try {
      const rows = db.prepare("SELECT detail FROM audit WHERE action = 'answerApproval'").all() as Array<{ detail: string }>;
      const callers = rows.map((r) => JSON.parse(r.detail).caller_session);
      expect(callers.filter((c) => c === root)).toHaveLength(2);
      expect(callers).toContain(c1b);
      // Every call made for an agent is audited with it, not only keystrokes: who started whom.
      const started = db.prepare("SELECT detail FROM audit WHERE action = 'createSession'").all() as Array<{ detail: string }>;
      expect(started.map((r) => JSON.parse(r.detail).caller_session)).toEqual(expect.arrayContaining([root, c1, c2]));
    } finally {
      db.close();
    }
  }, 240_000);
});

describe('a settings.json orchestration member it cannot use', () => {
  it('stops serve naming the place, the value and the fix', () => {
    const d = makeDirs();
    fs.writeFileSync(path.join(d.stateDir, 'settings.json'), JSON.stringify({ orchestration: { max_children: 0 } }), { mode: 0o600 });
    const r = spawnSync(process.execPath, [path.join(REPO, 'bin/specterm.js'), 'serve', '--port', '0', '--no-pair'], { env: d.env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/SETTINGS_INVALID: \S+settings\.json: orchestration\.max_children is 0: use a whole number from 1 to 100; fix it and start the daemon again/);
  });
});
