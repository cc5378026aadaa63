/**
 * `send --wait` that a prompt for a person blocks says so at once — the prompt, its id and its
 * buttons, exit 4 — instead of timing out with `last: turn_started` (issue 26 item 5). A prompt
 * the session's auto-approve policy presses blocks nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirs, startDaemon, stopAll, waitFor, runCli } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterAll(stopAll, 60_000);

describe('specterm send --wait, blocked by a prompt for a person', () => {
  it('exits 4 at once with the approval and its buttons; answered, the next wait reaches idle', async () => {
    const dirs = makeDirs();
    const { client } = await startDaemon(dirs);
    const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30, name: 'worker' } });
    await waitFor(async () => (await client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    const started = Date.now();
    const sent = await runCli(dirs, ['send', 'worker', 'run the tests', '--wait', 'idle', '--timeout-ms', '90000']);
    expect(Date.now() - started, 'answered long before the 90 s timeout').toBeLessThan(60_000);
    expect(sent.code, sent.err).toBe(4);
    const [approval] = (await client.call('listApprovals')).approvals;
    expect(approval).toBeDefined();
    expect(sent.out).toContain(`blocked: the turn waits for a person: an approval`);
    expect(sent.out).toContain(`(${approval!.id}); answer it with \`specterm approve ${approval!.id} <button>\``);
    expect(sent.out).toContain(`buttons: ${approval!.buttons.map((b) => `${b.index} ${b.label}`).join(' · ')}`);
    await client.call('answerApproval', { params: { id: approval!.id }, body: { button: approval!.buttons[0]!.index, fingerprint: approval!.fingerprint } });
    await waitFor(async () => (await client.call('getSession', { params: { id: created.id } })).state?.status === 'idle', WAIT_MS, 'idle after the answer');
  }, 180_000);

  it('is not blocked by an approval the session\'s policy presses', async () => {
    const dirs = makeDirs();
    const { client } = await startDaemon(dirs);
    const created = await client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, cols: 100, rows: 30, policy: { allow: ['npm test'] } } });
    await waitFor(async () => (await client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    const outcome = await client.call('sendMessage', { params: { id: created.id }, body: { text: 'run the tests', wait: 'idle', timeout_ms: 45_000 } });
    expect(outcome.delivery).toBe('idle');
    expect(outcome.blocked_by).toBeUndefined();
  }, 180_000);
});
