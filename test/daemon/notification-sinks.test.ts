import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/daemon/event-log.js';
import { notificationFromEvent, startNotificationSinks } from '../../src/daemon/notification-sinks.js';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { notificationMessageOf } from '../../src/protocol/push.js';
import { openStore } from '../../src/store/index.js';
import path from 'node:path';
import { makeTempDir, readNotifySendLog, recordingNotifySend } from './notify-send-fixture.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

const approvalEvent: DaemonEvent = {
  seq: 7, at: 1764600002000, session_id: 's1', type: 'approval.needed',
  approval: { id: 'a_1', session_id: 's1', fingerprint: 'sha256:ab', title: 'Run npm test?', text: 'npm test', buttons: [{ index: 1, label: 'Yes' }, { index: 2, label: 'No' }], kind: 'approval', first_seen_at: 1764600001000 },
};

describe('the daemon event log feeds the notification sinks', () => {
  it('turns every notification event back into the same event, and ignores session-list events', () => {
    const events: DaemonEvent[] = [
      approvalEvent,
      { seq: 8, at: 2, session_id: 's1', type: 'turn.finished', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, duration_ms: 1500 },
      { seq: 9, at: 3, session_id: 's1', type: 'session.exited', code: 0, signal: null },
      { seq: 10, at: 4, session_id: 's1', type: 'session.error', code: 'HOST_FAILED', message: 'lost' },
      { seq: 11, at: 5, session_id: 's1', type: 'spec.error', errors: ['states[0]: bad'] },
    ];
    expect(events.map((e) => notificationFromEvent(e))).toEqual([
      { type: 'approval.needed', sessionId: 's1', at: 1764600002000, approval: { id: 'a_1', fingerprint: 'sha256:ab', kind: 'approval', title: 'Run npm test?', body: 'npm test', buttons: approvalEvent.approval.buttons, firstSeenAt: 1764600001000 } },
      { type: 'turn.finished', sessionId: 's1', at: 2, durationMs: 1500, state: { id: 'idle', label: 'Idle', title: null, status: 'idle' } },
      { type: 'session.exited', sessionId: 's1', at: 3, exitCode: 0, signal: null },
      { type: 'session.error', sessionId: 's1', at: 4, code: 'HOST_FAILED', message: 'lost' },
      { type: 'spec.error', sessionId: 's1', at: 5, errors: ['states[0]: bad'] },
    ]);
    expect(notificationFromEvent({ seq: 12, at: 6, session_id: 's1', type: 'session.removed' })).toBeNull();
  });

  it('shows an appended approval on the desktop (a real notify-send on PATH), with the session and the modal title', async () => {
    const tmp = makeTempDir('st-sinks-');
    cleanups.push(tmp.remove);
    const fake = recordingNotifySend(tmp.dir);
    const log = new EventLog();
    const warnings: string[] = [];
    const sinks = startNotificationSinks({ events: log, desktop: { env: { PATH: fake.bin } }, log: (_l, m) => warnings.push(m) });
    cleanups.push(() => sinks.close());
    expect(sinks.desktopAvailable).toBe(true);
    const { seq: _seq, ...input } = approvalEvent;
    log.append(input);
    log.append({ at: 9, session_id: 's1', type: 'session.removed' });
    const deadline = Date.now() + 10_000;
    while (readNotifySendLog(fake.log).length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const calls = readNotifySendLog(fake.log);
    expect(calls).toHaveLength(1);
    // The modal's title names the approval; its body (the command itself) stays off the desktop.
    expect(calls[0]).toContain('s1: Run npm test?');
    expect(calls[0]).toContain('specterm: approval needed');
    expect(warnings).toEqual([]);
  });

  it('keeps every notification in the SQLite notifications table (safe text, the event seq and approval id as data), and nothing else', () => {
    const tmp = makeTempDir('st-sinks-db-');
    cleanups.push(tmp.remove);
    const store = openStore(path.join(tmp.dir, 'specterm.db'));
    cleanups.push(() => store.close());
    const log = new EventLog();
    const sinks = startNotificationSinks({ events: log, desktop: false, journal: store.notifications, log: () => {} });
    cleanups.push(() => sinks.close());
    const { seq: _seq, ...input } = approvalEvent;
    const appended = log.append(input);
    log.append({ at: 9, session_id: 's1', type: 'session.removed' });
    log.append({ at: 10, session_id: 's1', type: 'session.exited', code: 3, signal: null });
    const rows = store.notifications.page({ by: 'id' }).items;
    expect(rows.map((r) => [r.kind, r.sessionId, r.t])).toEqual([['approval_needed', 's1', approvalEvent.at], ['exited', 's1', 10]]);
    expect(rows[0]!.title).toBe('specterm: approval needed');
    expect(rows[0]!.body).toBe('s1: Run npm test?'); // the command (the modal's body) is not stored as text
    expect(rows[0]!.data).toEqual({ event_seq: appended.seq, approval_id: 'a_1' });
  });

  it('interrupts nobody for a muted session: no desktop, no journal row, no push text (issue 27 item 8)', async () => {
    const tmp = makeTempDir('st-sinks-muted-');
    cleanups.push(tmp.remove);
    const fake = recordingNotifySend(tmp.dir);
    const store = openStore(path.join(tmp.dir, 'specterm.db'));
    cleanups.push(() => store.close());
    const log = new EventLog();
    const sinks = startNotificationSinks({ events: log, desktop: { env: { PATH: fake.bin } }, journal: store.notifications, log: () => {} });
    cleanups.push(() => sinks.close());
    const { seq: _seq, ...input } = approvalEvent;
    const muted = log.append({ ...input, muted: true });
    log.append({ at: 10, session_id: 's1', type: 'session.exited', code: 0, signal: null, muted: true });
    expect(notificationFromEvent(muted)).toBeNull();
    expect(notificationMessageOf(muted, 's1')).toBeNull();
    // The unmuted one after them is the only one shown: the sinks are not simply slow.
    log.append({ at: 11, session_id: 's2', type: 'session.exited', code: 0, signal: null });
    const deadline = Date.now() + 10_000;
    while (readNotifySendLog(fake.log).length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const calls = readNotifySendLog(fake.log);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.join(' ')).toContain('s2: exit code 0');
    expect(store.notifications.page({ by: 'id' }).items.map((r) => r.sessionId)).toEqual(['s2']);
  });

  it('refuses a bad webhook entry by its field', () => {
    expect(() => startNotificationSinks({ events: new EventLog(), webhooks: [{ id: 'w', url: 'ftp://x' }], desktop: false, log: () => {} }))
      .toThrow(/webhooks\[0\]/);
  });
});
