/**
 * Fleet-unique ids: a daemon names itself (`serve --node`, default the host name) and stamps
 * that node on everything it serves — health, sessions, approvals and events — so
 * `<node>/<id>` is unique across a fleet. A daemon alone is a fleet of one.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeNameFromHost } from '../../src/protocol/index.js';
import { makeDirs, startDaemon, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterAll(stopAll, 60_000);

describe('specterm serve --node', () => {
  it('stamps its node on health, sessions, approvals and every event', async () => {
    const dirs = makeDirs();
    const daemon = await startDaemon(dirs, ['--node', 'build-01']);
    const { client } = daemon;
    expect(await client.call('health')).toMatchObject({ node: 'build-01' });
    const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30 } });
    expect(created.node).toBe('build-01');
    await waitFor(async () => (await client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    await client.call('sendMessage', { params: { id: created.id }, body: { text: 'run the tests' } });
    const approval = await waitFor(async () => (await client.call('listApprovals')).approvals[0], WAIT_MS, 'the approval');
    expect(approval.node).toBe('build-01');
    expect((await client.call('listSessions')).sessions.map((s) => s.node)).toEqual(['build-01']);
    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), WAIT_MS);
    const response = await fetch(`${daemon.url}/api/v1/events?since=0`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('approval.needed')) text += new TextDecoder().decode((await reader.read()).value);
    clearTimeout(timer);
    abort.abort();
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { type: string; node?: string; session?: { node?: string }; approval?: { node?: string } });
    expect(events.length).toBeGreaterThan(2);
    for (const event of events) expect(event.node, event.type).toBe('build-01');
    expect(events.find((e) => e.type === 'session.created')!.session!.node).toBe('build-01');
    expect(events.find((e) => e.type === 'approval.needed')!.approval!.node).toBe('build-01');
  }, 120_000);

  it('names itself after the host by default, and refuses a name that is not one', async () => {
    const dirs = makeDirs();
    const daemon = await startDaemon(dirs);
    expect((await daemon.client.call('health')).node).toBe(nodeNameFromHost(os.hostname()));
    const bad = spawnSync(process.execPath, [path.resolve('bin/specterm.js'), 'serve', '--port', '0', '--node', 'Build_01'], { env: dirs.env, encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--node Build_01 is not a node name; use 1–63 lowercase letters');
  }, 120_000);
});

describe('nodeNameFromHost', () => {
  it('keeps a host name\'s first label in the node alphabet', () => {
    expect(nodeNameFromHost('My-Laptop.local')).toBe('my-laptop');
    expect(nodeNameFromHost('ip-10-0-0-7.ec2.internal')).toBe('ip-10-0-0-7');
    expect(nodeNameFromHost('__')).toBe('node');
  });
});
