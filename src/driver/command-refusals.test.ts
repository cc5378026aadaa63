/**
 * Every way a command is refused carries a stable code (the daemon's API branches on it), the
 * same code in the `command_refused` event, a reason that says what to do, and nothing written.
 * Subscribers that throw are reported, not swallowed.
 */
import * as os from 'node:os';
import { describe, expect, it } from 'vitest';
import type { DashboardCommand, DashboardEvent, RefusalCode } from './events.js';
import { FsmDriver } from './fsm-driver.js';
import { VirtualScheduler } from './schedulers.js';
import { paint, ScriptedTransport } from '../../test/helpers/scripted-transport.js';
import { APPROVAL, baseSpec, harness, toIdle, type Harness } from '../../test/helpers/driver-harness.js';

/** Dispatches `cmd`, expects `code` in the result and in the event, and nothing written. */
function expectRefused(h: Harness, cmd: DashboardCommand, code: RefusalCode): void {
  const writes = h.tx.writes.length;
  const r = h.driver.dispatch(cmd);
  expect(r).toMatchObject({ ok: false, code, reason: expect.any(String) });
  expect(h.events.at(-1)).toMatchObject({ kind: 'command_refused', command: (cmd as { kind?: string } | null)?.kind ?? 'unknown', code });
  expect(h.tx.writes.length).toBe(writes);
}

describe('command refusal codes', () => {
  it('gives INVALID_COMMAND for a malformed command, naming the field', () => {
    const h = harness();
    toIdle(h);
    expectRefused(h, { kind: 'send_message', text: 42 } as never, 'INVALID_COMMAND');
    expectRefused(h, { kind: 'nope' } as never, 'INVALID_COMMAND');
    expectRefused(h, { kind: 'click_control', control_id: 'attach' }, 'INVALID_COMMAND');
    expect(h.driver.dispatch(null as never)).toMatchObject({ ok: false, code: 'INVALID_COMMAND' });
  });

  it('gives NOT_STARTED before start, EXITED after the agent exits, SHUT_DOWN after shutdown', () => {
    const h = harness();
    expectRefused(h, { kind: 'cancel' }, 'NOT_STARTED');
    toIdle(h);
    h.tx.exit(1, null);
    expectRefused(h, { kind: 'send_message', text: 'late' }, 'EXITED');
    const h2 = harness();
    toIdle(h2);
    h2.driver.shutdown();
    expectRefused(h2, { kind: 'pty_write', data: 'x' }, 'SHUT_DOWN');
  });

  it('gives INVALID_SIZE for a resize the terminal cannot take, through dispatch and resize(), without throwing', () => {
    const h = harness();
    toIdle(h);
    expectRefused(h, { kind: 'resize', cols: 0, rows: 24 }, 'INVALID_SIZE');
    expectRefused(h, { kind: 'resize', cols: 80, rows: 1e9 }, 'INVALID_SIZE');
    expectRefused(h, { kind: 'resize', cols: '80', rows: 24 } as never, 'INVALID_SIZE');
    expect(h.driver.resize(Number.NaN, 24)).toMatchObject({ ok: false, code: 'INVALID_SIZE', reason: expect.stringContaining('cols') });
    expect(h.tx.resizes).toHaveLength(0);
    expect(h.driver.resize(70, 20)).toEqual({ ok: true });
    expect(h.tx.resizes.at(-1)).toMatchObject({ cols: 70, rows: 20 });
  });

  it('gives DUPLICATE_MESSAGE for the same text while the first is still in flight', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'send_message', text: 'same' })).toEqual({ ok: true });
    expect(h.driver.dispatch({ kind: 'send_message', text: 'same' })).toMatchObject({ ok: false, code: 'DUPLICATE_MESSAGE' });
  });

  it('gives UNKNOWN_CONTROL and CONTROL_UNAVAILABLE for controls', () => {
    const h = harness();
    toIdle(h);
    expectRefused(h, { kind: 'click_control', control_id: 'nope' }, 'UNKNOWN_CONTROL');
    expectRefused(h, { kind: 'click_control', control_id: 'stop' }, 'CONTROL_UNAVAILABLE');
  });

  it('gives NO_MODAL, NO_SUCH_BUTTON and MODAL_CHANGED for modal presses', () => {
    const h = harness();
    toIdle(h);
    expectRefused(h, { kind: 'click_modal_button', index: 1 }, 'NO_MODAL');
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    expectRefused(h, { kind: 'click_modal_button', index: 7 }, 'NO_SUCH_BUTTON');
    expectRefused(h, { kind: 'click_modal_button', index: 3, label: 'Yes' }, 'MODAL_CHANGED');
  });

  it('gives MODAL_STALE for an arrow-key modal with no current row', () => {
    const spec = baseSpec();
    spec.states[3]!.extract!.buttons!.select_mode = 'arrow_keys';
    const h = harness(spec);
    toIdle(h);
    h.tx.emit(paint(APPROVAL.map((l) => l.replace('❯', ' '))));
    h.at(700);
    expectRefused(h, { kind: 'click_modal_button', index: 2 }, 'MODAL_STALE');
  });

  it('gives NOT_SUPPORTED for attach_image on a spec without an attach_image control', () => {
    const h = harness(baseSpec({ control_bar: [] }));
    toIdle(h);
    expectRefused(h, { kind: 'attach_image', blob: 'iVBORw0KGgo=', mime: 'image/png' }, 'NOT_SUPPORTED');
  });
});

describe('subscribers that throw', () => {
  it('are reported to onListenerError with the error, and the other subscribers still get every event', () => {
    const sched = new VirtualScheduler(0);
    const tx = new ScriptedTransport(sched);
    const reported: Array<{ error: unknown; event: string }> = [];
    const driver = new FsmDriver({
      spec: baseSpec(), workingDir: os.tmpdir(), transport: tx, scheduler: sched, applyTrust: false,
      spawnPlan: { file: '/bin/true', args: [], cwd: os.tmpdir(), env: {}, cols: 60, rows: 16, resolvedBinary: '/bin/true', viaShell: false, argvForDisplay: ['true'] },
      onListenerError: (error, event) => reported.push({ error, event }),
    });
    const boom = new Error('subscriber bug');
    driver.subscribe(() => { throw boom; });
    const seen: DashboardEvent[] = [];
    driver.subscribe((e) => seen.push(e));
    driver.start();
    tx.emit('hello');
    sched.advanceTo(100);
    expect(seen.map((e) => e.kind)).toEqual(['state_changed', 'pty_data']);
    expect(reported).toHaveLength(2);
    expect(reported[0]).toEqual({ error: boom, event: 'driver event' });
    driver.shutdown();
  });
});
