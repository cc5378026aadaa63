/**
 * The daemon's API and CLI verbs end to end: one real daemon (`--session-limit 2`), real demo-agent
 * sessions, real fetch and the real `specterm` CLI. Covers refusals (unknown ids, bad cwd/spec,
 * the session limit, a read token typing, a wrong token, no daemon), the verbs, SSE resume,
 * kill/restart/remove, worktrees and the auto-approve policy from the settings file.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, type DaemonClient } from '../../src/client/index.js';
import { openStore } from '../../src/store/index.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

const WAIT_MS = 60_000;
const BIN = path.resolve('bin/specterm.js');
let dirs: DaemonDirs;
let daemon: RunningDaemon;
let client: DaemonClient;

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...dirs.env, ...env }, cwd: dirs.work });
    let out = ''; let err = '';
    child.stdout.on('data', (c: Buffer) => { out += c; });
    child.stderr.on('data', (c: Buffer) => { err += c; });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

async function refusal(promise: Promise<unknown>): Promise<ClientError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ClientError);
  return error as ClientError;
}

beforeAll(async () => {
  dirs = makeDirs();
  fs.writeFileSync(path.join(dirs.stateDir, 'settings.json'), JSON.stringify({ approval_policies: { auto: { allow: ['npm test'] } } }), { mode: 0o600 });
  daemon = await startDaemon(dirs, ['--session-limit', '2']);
  client = daemon.client;
}, 90_000);
afterAll(stopAll, 60_000);

describe('specterm serve: API and CLI verbs', () => {
  it('refuses clearly: no daemon, unknown ids, bad cwd or spec, a read token typing, a wrong token', async () => {
    const none = await cli(['ls'], { SPECTERM_RUNTIME_DIR: path.join(dirs.home) });
    expect(none.code).toBe(3);
    expect(none.err).toMatch(/DAEMON_NOT_RUNNING: no daemon is running .*specterm serve/);

    expect(await refusal(client.call('getSession', { params: { id: 's_nope' } }))).toMatchObject({ status: 404, code: 'SESSION_NOT_FOUND' });
    // Said to a person in the CLI's words, without the API's routes.
    const unknown = await cli(['send', 'nope', 'hi']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/SESSION_NOT_FOUND: no session has id or name "nope"; `specterm ls` \(or the dashboard's overview\) lists them/);
    expect(unknown.err).not.toContain('/api/');
    const noToken = await cli(['token', 'revoke', 't_nope']);
    expect(noToken.err).toMatch(/TOKEN_NOT_FOUND: no token has id 't_nope'; `specterm token list` lists them/);
    expect(await refusal(client.call('answerApproval', { params: { id: 'nope' }, body: { button: 0, fingerprint: 'x' } }))).toMatchObject({ status: 404, code: 'APPROVAL_NOT_FOUND' });
    const cwd = await refusal(client.call('createSession', { body: { spec: 'demo-agent', cwd: '/does/not/exist' } }));
    expect(cwd).toMatchObject({ status: 422, code: 'CWD_NOT_FOUND' });
    expect(cwd.problem?.errors).toEqual([expect.objectContaining({ path: '/cwd' })]);
    expect(await refusal(client.call('createSession', { body: { spec: 'no-such-spec', cwd: dirs.work } }))).toMatchObject({ status: 422, code: 'SPEC_NOT_FOUND' });

    const made = await cli(['token', 'create', '--scope', 'read', '--name', 'viewer']);
    expect(made.code).toBe(0);
    const readToken = made.out.trim();
    expect(readToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const asReader = await cli(['send', 's_any', 'hello'], { SPECTERM_TOKEN: readToken });
    expect(asReader.code).toBe(1);
    expect(asReader.err).toMatch(/SCOPE_INSUFFICIENT/);
    expect((await cli(['ls'], { SPECTERM_TOKEN: readToken })).code).toBe(0);
    const wrong = await cli(['ls'], { SPECTERM_TOKEN: 'x'.repeat(43) });
    expect(wrong.code).toBe(3);
    expect(wrong.err).toMatch(/AUTH_INVALID/);
    const listed = await cli(['token', 'list']);
    expect(listed.out).toMatch(/viewer\s+read/);

    // pair: a one-time URL for another device; redeeming it makes that device's token, approve scope by default.
    const paired = await cli(['pair', '--name', 'phone']);
    expect(paired.code, paired.err).toBe(0);
    const pairUrl = new URL(paired.out.trim());
    expect(paired.err).toMatch(/no QR code for a phone: the daemon listens only on this computer/);
    const code = new URLSearchParams(pairUrl.hash.slice(1)).get('pair')!;
    const redeemed = await fetch(new URL('/api/v1/pair', daemon.url), { method: 'POST', headers: { 'content-type': 'application/json', origin: daemon.url }, body: JSON.stringify({ code }) });
    expect(redeemed.status).toBe(201);
    expect((await cli(['token', 'list'])).out).toMatch(/phone\s+approve/);
    expect((await cli(['pair', '--scope', 'root'])).code).toBe(2);
  }, 120_000);

  it('new / send --wait idle / logs / ls / kill / restart / rm, with the session limit and SSE resume', async () => {
    const made = await cli(['new', 'demo-agent', '--name', 'first', '--', '--speed', '0.3']);
    expect(made.code, made.err).toBe(0);
    const id = made.out.trim();
    await waitFor(async () => (await client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle');
    const sent = await cli(['send', 'first', 'hello there', '--wait', 'idle', '--key', 'greet']);
    // The answer is what a script reads (stdout); how far the message got goes to stderr.
    expect(sent.out).toMatch(/^Hello! I'm Demo Agent/);
    expect(sent.err.trim()).toBe('specterm send: idle');
    const again = await cli(['send', 'first', 'hello there', '--key', 'greet']);
    expect(again.out).toMatch(/duplicate: not typed again/);
    // `--wait idle` returns at the first idle-status state after the turn (the demo's `done`);
    // the spec moves on to `idle` 1.5 s later.
    await waitFor(async () => (await client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle after done');

    const logs = await cli(['logs', 'first']);
    const logged = logs.out.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[1]);
    expect(logged.slice(0, 2)).toEqual(['starting', 'idle']);
    expect(logged).toContain('busy');
    expect(logged.at(-1)).toBe('idle');
    expect(logs.out.split('\n')[0]).toMatch(/^AT \(UTC\)\s+STATE/);

    // A field the daemon refuses is bad input (exit 2), said in words; a pending approval is
    // listed under the session's name.
    const tooLong = await cli(['send', 'first', 'x', '--timeout-ms', '700000']);
    expect(tooLong.code).toBe(2);
    expect(tooLong.err).toMatch(/^specterm send: VALIDATION_FAILED: timeout_ms: must be at most 600000 \(got 700000\)$/m);
    expect(tooLong.err).not.toContain('/api/');
    expect((await cli(['send', 'first', 'run the tests', '--wait', 'started'])).code).toBe(0);
    await waitFor(async () => (await client.call('listApprovals')).approvals.some((a) => a.session_id === id), WAIT_MS, 'the approval');
    const pending = await cli(['approve', '--list']);
    expect(pending.out.split('\n')[1]).toMatch(/^\S+\s+first\s+approval\s+Bash command/);
    expect((await cli(['approve', 'first', '1'])).code).toBe(0);
    await waitFor(async () => (await client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle after the approved turn');

    // SSE: everything from the start, then a resume from the middle gets only what follows.
    const seen: Array<{ seq: number; type: string }> = [];
    const abort = new AbortController();
    const reading = (async () => { for await (const e of client.events({ sessionId: id, signal: abort.signal })) seen.push(e as { seq: number; type: string }); })().catch(() => {});
    await waitFor(() => seen.some((e) => e.type === 'turn.finished'), 10_000, 'the replayed events');
    abort.abort();
    await reading;
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(['session.created', 'session.state', 'turn.finished']));
    const middle = seen[1]!.seq;
    const resumed = await fetch(`${daemon.url}/api/v1/events?session_id=${id}`, { headers: { authorization: `Bearer ${fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim()}`, 'last-event-id': String(middle) } });
    const reader = resumed.body!.getReader();
    let text = '';
    while (!text.includes(`id: ${seen.at(-1)!.seq}`)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(seen.slice(2).map((e) => e.seq));

    const second = await cli(['new', 'demo-agent', '--name', 'second']);
    expect(second.code).toBe(0);
    const third = await cli(['new', 'demo-agent', '--name', 'third']);
    expect(third.code).toBe(1);
    expect(third.err).toMatch(/SESSION_LIMIT_REACHED/);
    expect((await cli(['rm', 'second'])).code).toBe(0);

    const killed = await cli(['kill', 'first']);
    expect(killed.out).toMatch(/exited code=\S+ signal=\S+ killed by admin$/m);
    const ls = await cli(['ls']);
    expect(ls.out).toMatch(new RegExp(`${id}\\s+first\\s+exited code=\\S+ signal=\\S+ killed by admin`));
    const detail = await client.call('getSession', { params: { id } });
    expect(detail.exit).not.toBeNull();
    expect(detail.exit!.code !== null || detail.exit!.signal !== null).toBe(true);
    const refusedSend = await refusal(client.call('sendKeys', { params: { id }, body: { data: 'x' } }));
    expect(refusedSend).toMatchObject({ status: 409, code: 'SESSION_NOT_RUNNING' });

    const restarted = await client.call('restartSession', { params: { id } });
    expect(restarted).toMatchObject({ exit: null });
    await waitFor(async () => (await client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, 'idle after restart');
    expect((await cli(['rm', 'first'])).code).toBe(0);
    expect((await client.call('listSessions')).sessions).toEqual([]);
  }, 240_000);

  it('a worktree session: removed only when clean, unless forced', async () => {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dirs.work });
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: dirs.work });
    const made = await cli(['new', 'demo-agent', '--name', 'wt', '--worktree', 'feature/x']);
    expect(made.code, made.err).toBe(0);
    const detail = await client.call('getSession', { params: { id: made.out.trim() } });
    expect(detail.branch).toBe('feature/x');
    expect(detail.cwd).not.toBe(dirs.work);
    expect(execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: detail.cwd, encoding: 'utf8' }).trim()).toBe('feature/x');
    fs.writeFileSync(path.join(detail.cwd, 'wip.txt'), 'not committed');
    const refused = await cli(['rm', 'wt']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/WORKTREE_DIRTY: .*wip\.txt/);
    expect(fs.existsSync(detail.cwd)).toBe(true);
    expect((await cli(['rm', 'wt', '--force'])).code).toBe(0);
    expect(fs.existsSync(detail.cwd)).toBe(false);
  }, 120_000);

  it('auto-approves an allowed approval modal from the settings file, and audits it', async () => {
    const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'auto', args: ['--speed', '0.3'] } });
    await waitFor(async () => (await client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    const sent = await client.call('sendMessage', { params: { id: created.id }, body: { text: 'run the tests', wait: 'idle', timeout_ms: 45_000 } });
    expect(sent.delivery).toBe('idle');
    const screen = await client.call('getScreen', { params: { id: created.id } });
    expect(screen.content).toContain('12 passed');
    const states = (await client.call('getHistory', { params: { id: created.id } })).entries.map((e) => e.state.id);
    expect(states).toContain('approval');
    expect((await client.call('listApprovals')).approvals).toEqual([]);
    const store = openStore(path.join(dirs.stateDir, 'specterm.db'));
    try {
      const steps = store.audit.page({ sessionId: created.id, limit: 100 }).items.filter((a) => a.who === 'policy').map((a) => a.outcome);
      expect(steps).toEqual(['allow', 'pressed', 'cleared']);
    } finally {
      store.close();
    }
    await client.call('removeSession', { params: { id: created.id } });
  }, 120_000);
});
