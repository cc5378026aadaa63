/**
 * Notifications derived from a real driver over the real Demo Agent in a real PTY: an approval
 * notifies once per sighting (not per repaint), a turn once when it ends (with its duration),
 * an exit with its code — to a subscriber and, through a recording `notify-send` on a test
 * PATH, to the desktop (whose text must not carry the modal's body). Then the derivation rules
 * on exact event sequences, and the protocol form of each notification.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { materializeSpecPaths } from '../../src/catalog/builtin.js';
import { loadSpec } from '../../src/catalog/load-spec.js';
import { DesktopNotifier } from '../../src/daemon/desktop-notifier.js';
import { NotificationHub, SessionNotifier, toDaemonEvent, type Notification } from '../../src/daemon/notifications.js';
import type { DashboardEvent, StateView } from '../../src/driver/events.js';
import { FsmDriver } from '../../src/driver/fsm-driver.js';
import { DaemonEvent } from '../../src/protocol/index.js';
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
    const driver = new FsmDriver({
      spec: materializeSpecPaths(loaded.spec, SPEC_PATH), workingDir: dir, transport: createPtyTransport(),
      cols: 100, rows: 32, applyTrust: false, extraArgs: ['--speed', '0.2', '--no-trust-prompt'],
      extraEnv: { DEMO_AGENT_HOME: path.join(dir, 'home') },
    });
    cleanups.push(() => driver.shutdown());
    const reports: string[] = [];
    const desktop = new DesktopNotifier({ env: { PATH: bin }, onReport: (r) => reports.push(r.type) });
    cleanups.push(() => desktop.shutdown());
    const hub = new NotificationHub({ desktop });
    const got: Notification[] = [];
    hub.subscribe((n) => got.push(n));
    const notifier = hub.forSession('s_demo', { modalBody: () => driver.getScreen() });
    const states: string[] = [];
    driver.subscribe((ev) => {
      notifier.observe(ev);
      if (ev.kind === 'state_changed') states.push(ev.state.id);
    });
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
    expect(reports).toEqual(['available']);
    expect(shown.map((argv) => argv.at(-2))).toEqual(['specterm: approval needed', 'specterm: turn finished', 'specterm: turn finished', 'specterm: session exited']);
    for (const argv of shown) {
      expect(argv.slice(0, 3)).toEqual(['--app-name=specterm', expect.stringMatching(/^--urgency=(normal|critical)$/), '--']);
      expect(argv.join(' ')).not.toContain('npm test');
    }
    expect(shown[0]!.at(-1)).toMatch(/^s_demo: /);
    expect(shown[3]!.at(-1)).toBe('s_demo: exit code 0');
  }, 90_000);
});

describe('SessionNotifier rules', () => {
  const idle: StateView = { id: 'idle', label: 'Idle', title: null, status: 'idle' };
  const busy: StateView = { id: 'busy', label: 'Working', title: null, status: 'generating' };
  const asking: StateView = { id: 'approval', label: 'Approve?', title: null, status: 'approval' };
  const modal = { title: 'Run npm test?', kind: 'approval' as const, buttons: [{ index: 1, label: 'Yes' }, { index: 2, label: 'No' }] };
  const state = (s: StateView, m: typeof modal | null = null): DashboardEvent => ({ kind: 'state_changed', state: s, modal: m, controls: [] });

  function run(events: DashboardEvent[], body = () => 'npm test') {
    let now = 1_000;
    const got: Notification[] = [];
    const n = new SessionNotifier({ sessionId: 's1', emit: (x) => got.push(x), now: () => (now += 100), modalBody: body });
    for (const ev of events) n.observe(ev);
    return got;
  }

  it('one approval per sighting: the same modal again is no news, the same question after it went away is', () => {
    const got = run([state(busy), state(asking, modal), state(asking, modal), state(asking, { ...modal }), state(busy), state(asking, modal), state(idle)]);
    expect(got.map((n) => n.type)).toEqual(['approval.needed', 'approval.needed', 'turn.finished']);
    const [a, b] = got as Array<Extract<Notification, { type: 'approval.needed' }>>;
    expect(a!.approval.id).not.toBe(b!.approval.id);
    expect(a!.approval.fingerprint).toBe(b!.approval.fingerprint);
  });

  it('a turn is generating → … → idle; idle → idle and start-up are not turns; duration from the first generating state', () => {
    const got = run([state({ ...idle, id: 'starting' }), state(idle), state(busy), state(asking, modal), state(busy), state({ ...idle, id: 'done' }), state(idle)]);
    const turns = got.filter((n) => n.type === 'turn.finished') as Array<Extract<Notification, { type: 'turn.finished' }>>;
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ durationMs: 300, state: { id: 'done' } }); // busy at 1300, done at 1600
  });

  it('exit once, spawn failures and driver errors as session.error, spec errors as spec.error; pty_data and info logs say nothing', () => {
    const got = run([
      { kind: 'pty_data', chunk: 'x' }, { kind: 'log', level: 'warn', message: 'meh' },
      { kind: 'spawn_error', message: 'no such binary', binary: 'x', searched: [] },
      { kind: 'log', level: 'error', message: 'evaluation failed' },
      { kind: 'spec_error', errors: ['states[1].id: duplicate'] },
      { kind: 'exit', exit_code: 3, signal: null }, { kind: 'exit', exit_code: 3, signal: null },
    ]);
    expect(got.map((n) => [n.type, 'code' in n ? n.code : null])).toEqual([
      ['session.error', 'SPAWN_FAILED'], ['session.error', 'DRIVER_ERROR'], ['spec.error', null], ['session.exited', null],
    ]);
    expect(got.at(-1)).toMatchObject({ exitCode: 3, signal: null });
  });

  it('a throwing subscriber does not stop the others or the desktop sink', () => {
    const errors: string[] = [];
    const shown: Notification[] = [];
    const hub = new NotificationHub({ desktop: { notify: (n) => shown.push(n) }, onSinkError: (_e, sink) => errors.push(sink) });
    const got: Notification[] = [];
    hub.subscribe(() => { throw new Error('boom'); });
    hub.subscribe((n) => got.push(n));
    hub.publish({ type: 'session.exited', sessionId: 's1', at: 1, exitCode: 0, signal: null });
    expect([got.length, shown.length, errors]).toEqual([1, 1, ['subscriber']]);
  });

  it('toDaemonEvent gives the protocol shapes', () => {
    const got = run([state(busy), state(idle), { kind: 'spawn_error', message: 'm', binary: 'x', searched: [] }, { kind: 'spec_error', errors: ['e'] }, { kind: 'exit', exit_code: null, signal: 'SIGTERM' }]);
    got.forEach((n, i) => {
      const ev = toDaemonEvent(n, i + 1);
      expect(DaemonEvent.safeParse(ev).success, JSON.stringify(ev)).toBe(true);
    });
    expect(toDaemonEvent(got[0]!, 1)).toMatchObject({ type: 'turn.finished', duration_ms: 100, state: idle, session_id: 's1', seq: 1 });
    const [approval] = run([state(asking, modal)]);
    expect(toDaemonEvent(approval!, 7)).toMatchObject({ type: 'approval.needed', seq: 7, approval: { session_id: 's1', text: 'npm test', kind: 'approval', first_seen_at: 1_100, buttons: modal.buttons } });
  });
});
