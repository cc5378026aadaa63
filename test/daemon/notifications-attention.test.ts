/**
 * What counts as waiting for a person (issue 27 item 8), with the real daemon and the real Demo
 * Agent: a picker the person opened themselves (`/model` sent as a message, or typed as keys) is
 * tracked and shown on the session (`opened_by: "person"`) but raises no `approval.needed`; a
 * consent prompt the agent raised still does. A muted session still records and lists its
 * approvals, its notification events say `muted: true` (the sinks skip those), the mute
 * survives a daemon restart, and `specterm mute <session> --off` lifts it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../../src/client/index.js';
import { REPO, startDaemon, startDaemonWithIdleSession, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterEach(stopAll, 60_000);

type Seen = Record<string, unknown> & { type: string; session_id: string };

/** Reads the daemon's event stream in the background until `stop()`. */
function collectEvents(client: DaemonClient): { events: Seen[]; stop: () => void } {
  const events: Seen[] = [];
  const abort = new AbortController();
  void (async () => {
    try { for await (const e of client.events({ signal: abort.signal })) events.push(e as Seen); } catch {}
  })();
  return { events, stop: () => abort.abort() };
}

async function modalOf(client: DaemonClient, id: string) {
  return (await client.call('getSession', { params: { id } })).modal;
}

async function closePicker(client: DaemonClient, id: string): Promise<void> {
  await client.call('sendKeys', { params: { id }, body: { data: '\x1b' } });
  await waitFor(async () => (await modalOf(client, id)) === null, WAIT_MS, 'the picker to close');
}

describe('specterm serve: what waits for a person', () => {
  it('a picker the person opened (message or keys) is shown but not notified; the agent\'s consent prompt is', async () => {
    const { daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS);
    const { client } = daemon;
    const seen = collectEvents(client);
    try {
      const needed = () => seen.events.filter((e) => e.type === 'approval.needed' && e.session_id === sessionId);

      // `/model` as a message: the person's own slash command.
      await client.call('sendMessage', { params: { id: sessionId }, body: { text: '/model' } });
      const picker = await waitFor(async () => { const m = await modalOf(client, sessionId); return m?.kind === 'picker' ? m : undefined; }, WAIT_MS, 'the model picker');
      expect(picker.opened_by).toBe('person');
      const listed = (await client.call('listApprovals')).approvals.find((a) => a.id === picker.approval_id);
      expect(listed?.opened_by).toBe('person');
      await closePicker(client, sessionId);

      // `/model` typed as keys (the dashboard's terminal, `specterm attach`, POST …/keys).
      await client.call('sendKeys', { params: { id: sessionId }, body: { data: '/model' } });
      await new Promise((r) => setTimeout(r, 300));
      await client.call('sendKeys', { params: { id: sessionId }, body: { data: '\r' } });
      const typed = await waitFor(async () => { const m = await modalOf(client, sessionId); return m?.kind === 'picker' ? m : undefined; }, WAIT_MS, 'the model picker (keys)');
      expect(typed.opened_by).toBe('person');
      await closePicker(client, sessionId);

      // The agent's consent prompt, seconds after the person's message: still notified.
      await client.call('sendMessage', { params: { id: sessionId }, body: { text: 'run the tests' } });
      await waitFor(() => needed().length > 0 || undefined, WAIT_MS, 'approval.needed for the consent prompt');
      const consent = await modalOf(client, sessionId);
      expect(consent).toMatchObject({ kind: 'approval', opened_by: 'agent' });
      expect(needed().map((e) => (e.approval as { kind: string }).kind)).toEqual(['approval']);
      expect(needed()[0]!.muted).toBeUndefined();
    } finally {
      seen.stop();
    }
  }, 180_000);

  it('a muted session lists its approvals, marks its notifications muted, and stays muted across a restart', async () => {
    const { dirs, daemon, sessionId } = await startDaemonWithIdleSession(WAIT_MS);
    const muted = await daemon.client.call('muteSession', { params: { id: sessionId }, body: { muted: true } });
    expect(muted.muted).toBe(true);
    const seen = collectEvents(daemon.client);
    try {
      await daemon.client.call('sendMessage', { params: { id: sessionId }, body: { text: 'run the tests' } });
      const needed = await waitFor(() => seen.events.find((e) => e.type === 'approval.needed' && e.session_id === sessionId), WAIT_MS, 'approval.needed');
      expect(needed.muted).toBe(true);
      // Muting hides nothing: the inbox still lists it.
      const listed = (await daemon.client.call('listApprovals')).approvals;
      expect(listed.map((a) => a.kind)).toEqual(['approval']);
    } finally {
      seen.stop();
    }

    daemon.child.kill('SIGKILL');
    await daemon.exited;
    const second = await startDaemon(dirs);
    expect((await second.client.call('getSession', { params: { id: sessionId } })).muted).toBe(true);
    // The CLI way: `specterm mute <session> --off`.
    const off = spawnSync(process.execPath, [path.join(REPO, 'bin', 'specterm.js'), 'mute', sessionId, '--off'], { env: dirs.env, encoding: 'utf8', timeout: 60_000 });
    expect(off.stderr).toBe('');
    expect(off.stdout).toBe(`${sessionId} notifying\n`);
    expect((await second.client.call('getSession', { params: { id: sessionId } })).muted).toBe(false);
  }, 180_000);
});
