/**
 * Notifications through the daemon's one derivation (`ManagedSession` → the event log → the
 * sinks), from a real driver over the real Demo Agent in a real PTY and a real store: an
 * approval notifies once per sighting (not per repaint), a turn once when it ends (with its
 * duration), an exit with its code — to every event subscriber and, through a recording
 * `notify-send` on a test PATH, to the desktop (whose text must not carry the modal's body).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { materializeSpecPaths } from '../../src/catalog/builtin.js';
import { loadSpec } from '../../src/catalog/load-spec.js';
import { ApprovalTracker } from '../../src/daemon/approval.js';
import { EventLog } from '../../src/daemon/event-log.js';
import { ManagedSession } from '../../src/daemon/managed-session.js';
import { notificationFromEvent, startNotificationSinks } from '../../src/daemon/notification-sinks.js';
import type { Notification } from '../../src/daemon/notifications.js';
import { FsmDriver } from '../../src/driver/fsm-driver.js';
import { DaemonEvent } from '../../src/protocol/index.js';
import { openStore } from '../../src/store/index.js';
import { createPtyTransport } from '../../src/terminal/index.js';
import { makeTempDir, readNotifySendLog, recordingNotifySend, until } from './notify-send-fixture.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC_PATH = path.join(ROOT, 'specs', 'demo-agent', 'spec.json');
const WAIT_MS = 30_000;

const cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups.splice(0).reverse()) c(); });

function tempDir(): string {
  const { dir, remove } = makeTempDir('specterm-notify-');
  cleanups.push(remove);
  return dir;
}


describe('notifications from a real driver over the Demo Agent', () => {
  it('approval once per approval, turn finished once per turn with its duration, exited with its code; desktop without the modal body', async () => {
    const dir = tempDir();
    const { bin, log } = recordingNotifySend(tempDir());
    const loaded = loadSpec(SPEC_PATH);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const transport = createPtyTransport();
    const spec = materializeSpecPaths(loaded.spec, SPEC_PATH);
    const driver = new FsmDriver({
      spec, workingDir: dir, transport,
      cols: 100, rows: 32, applyTrust: false, extraArgs: ['--speed', '0.2', '--no-trust-prompt'],
      extraEnv: { DEMO_AGENT_HOME: path.join(dir, 'home') },
    });
    cleanups.push(() => driver.shutdown());
    const store = openStore(path.join(dir, 'specterm.db'));
    cleanups.push(() => store.close());
    const events = new EventLog({ journal: store.events });
    const sinks = startNotificationSinks({ events, desktop: { env: { PATH: bin } }, log: () => {} });
    expect(sinks.desktopAvailable).toBe(true);
    cleanups.push(() => { void sinks.close(); });
    const got: Notification[] = [];
    events.subscribe((e) => {
      expect(DaemonEvent.safeParse(e).success, JSON.stringify(e)).toBe(true);
      const n = notificationFromEvent(e);
      if (n) got.push(n);
    });
    const record = store.sessions.insert({ id: 's_demo', cwd: dir, createdAt: Date.now() });
    const session = new ManagedSession(record, spec, { store, events, tracker: new ApprovalTracker(), now: Date.now, node: 'local' });
    session.bind({ driver, transport: transport as never }, null);
    const states: string[] = [];
    driver.subscribe((ev) => { if (ev.kind === 'state_changed') states.push(ev.state.id); });
    const of = (type: Notification['type']) => got.filter((n) => n.type === type);
    driver.start();
    await until(() => states.includes('idle'), () => `idle; states ${states.join(',')}`);

    // Turn 1: an approval in the middle of the turn.
    driver.dispatch({ kind: 'send_message', text: 'run the tests please' });
    await until(() => of('approval.needed').length === 1, () => `approval.needed; states ${states.join(',')}`);
    await new Promise((r) => setTimeout(r, 1_000)); // the modal stays up, repainted
    expect(of('approval.needed')).toHaveLength(1);
    const approval = of('approval.needed')[0] as Extract<Notification, { type: 'approval.needed' }>;
    expect(approval.approval.kind).toBe('approval');
    expect(approval.approval.buttons.map((b) => b.label)[0]).toBe('Yes');
    expect(approval.approval.body).toContain('npm test');
    expect(driver.dispatch({ kind: 'click_modal_button', index: 1, label: 'Yes' })).toEqual({ ok: true });
    await until(() => of('turn.finished').length === 1, () => `turn.finished; states ${states.join(',')}`);

    // Turn 2: no approval.
    await until(() => states.at(-1) === 'idle', () => `idle after turn 1; states ${states.join(',')}`);
    driver.dispatch({ kind: 'send_message', text: 'hello there' });
    await until(() => of('turn.finished').length === 2, () => `second turn.finished; states ${states.join(',')}`);
    await until(() => states.at(-1) === 'idle', () => `idle after turn 2; states ${states.join(',')}`);
    expect(of('approval.needed')).toHaveLength(1);
    expect(of('turn.finished')).toHaveLength(2);
    for (const t of of('turn.finished') as Array<Extract<Notification, { type: 'turn.finished' }>>) {
      expect(t.state.status).toBe('idle');
      expect(t.durationMs).toBeGreaterThan(200);
      expect(t.durationMs).toBeLessThan(WAIT_MS);
    }

    driver.dispatch({ kind: 'send_message', text: '/exit' });
    await until(() => of('session.exited').length === 1, () => `session.exited; states ${states.join(',')}`);
    expect(of('session.exited')[0]).toMatchObject({ exitCode: 0, signal: null, sessionId: 's_demo' });
    expect(got.map((n) => n.type)).toEqual(['approval.needed', 'turn.finished', 'turn.finished', 'session.exited']);

    // The desktop saw the same four, without the question's body.
    const shown = await until(() => { const calls = readNotifySendLog(log); return calls.length === 4 && calls; }, () => `4 notify-send calls, got ${readNotifySendLog(log).length}`);
    expect(shown.map((argv) => argv.at(-2))).toEqual(['specterm: approval needed', 'specterm: turn finished', 'specterm: turn finished', 'specterm: session exited']);
    for (const argv of shown) {
      expect(argv.slice(0, 3)).toEqual(['--app-name=specterm', expect.stringMatching(/^--urgency=(normal|critical)$/), '--']);
      expect(argv.join(' ')).not.toContain('npm test');
    }
    expect(shown[0]!.at(-1)).toMatch(/^s_demo: /);
    expect(shown[3]!.at(-1)).toBe('s_demo: exit code 0');
  }, 90_000);
});
