import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../core/spec/types.js';
import { validateSpec } from '../core/spec/index.js';
import { FsmDriver, type SpecSource } from './fsm-driver.js';
import type { DashboardEvent } from './events.js';
import { VirtualScheduler } from './schedulers.js';
import { ScriptedTransport, paint } from '../../test/helpers/scripted-transport.js';
import { APPROVAL, approvalWithCursorOn, baseSpec, busy, D, harness, IDLE, toIdle } from '../../test/helpers/driver-harness.js';

describe('FsmDriver evaluation loop', () => {
  it('leaves a time-gated initial state on a silent screen thanks to the wake timer', () => {
    const h = harness();
    h.driver.start();
    h.tx.emit(paint(IDLE));
    h.at(100);
    expect(h.states()).toEqual(['starting']);
    h.at(499);
    expect(h.states()).toEqual(['starting']);
    h.at(600);
    expect(h.states()).toEqual(['starting', 'idle']);
  });

  it('honours min_hold_ms from state entry and stable_ms from the last change', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(busy(1)));
    h.at(700);
    expect(h.driver.getCurrentView()?.state.status).toBe('generating');
    h.at(900);
    h.tx.emit(paint(IDLE));
    h.at(1000);
    // guard true after the spinner vanished, but stable_ms 500 counts from the last change (≈904)
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    h.at(1500);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    const hist = h.driver.getStateHistory();
    expect(hist.at(-1)?.via).toBe('busy→idle');
    expect(hist.at(-1)?.matchedRules?.[0]).toBe('busy→idle fired');
  });

  it('counts stable_ms from the output that changed the screen, not from the evaluation that saw it', () => {
    // A spinner repaints every 50 ms; the screen it leaves arrives inside the stream, so its
    // evaluation waits up to 150 ms (QUIET_MS). A live session whose timers fire late and its
    // replay evaluate that chunk at different moments: the window must not depend on it.
    const h = harness();
    toIdle(h);
    for (let t = 650; t <= 1000; t += 50) {
      h.at(t);
      h.tx.emit(paint(busy(t)));
    }
    h.at(1040);
    h.tx.emit(paint(IDLE));
    h.at(1539);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    h.at(1600); // 1040 + 500, and the timer's 30 ms slack
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    expect(h.driver.getStateHistory().at(-1)?.at).toBeLessThanOrEqual(1040 + 500 + 30);
  });

  it('evaluates output after a quiet spell at once, and a continuous stream at most every 250 ms', () => {
    const h = harness();
    toIdle(h);
    const evals = () => h.driver.getFsmDebug().evalCount;
    const before = evals();
    h.tx.emit(paint(busy(1)));
    h.at(605);
    expect(evals()).toBeGreaterThan(before); // leading edge: 4 ms settle
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    const base = evals();
    for (let t = 650; t <= 2600; t += 50) {
      h.at(t);
      h.tx.emit(paint(busy(t)));
    }
    const during = evals() - base;
    expect(during).toBeGreaterThanOrEqual(6);
    expect(during).toBeLessThanOrEqual(9); // ~2 s of 20 fps repaint sampled every 250 ms
    h.at(2760);
    expect(evals() - base).toBe(during + 1); // trailing edge: 150 ms after the stream ends
  });

  it('settles a chain of transitions without waiting for output (§15.6)', () => {
    const spec = baseSpec({
      states: [{ id: 'a', label: 'A', initial: true }, { id: 'b', label: 'B' }, { id: 'c', label: 'C' }],
      transitions: [{ from: 'a', to: 'b', when: { matches: 'go' } }, { from: 'b', to: 'c', when: { matches: 'go' } }],
      control_bar: [],
    });
    const h = harness(spec);
    h.driver.start();
    h.tx.emit('go');
    h.at(20);
    expect(h.states()).toEqual(['a', 'b', 'c']);
  });

  it('commits a "*" self-loop as the reference does but does not spin on it', () => {
    const spec = baseSpec({
      states: [{ id: 'a', label: 'A', initial: true }, { id: 'b', label: 'B' }],
      transitions: [{ from: '*', to: 'b', when: { matches: 'x' } }],
      control_bar: [],
    });
    const h = harness(spec);
    h.driver.start();
    h.tx.emit('x');
    h.at(10_000);
    expect(h.driver.getCurrentView()?.state.id).toBe('b');
    expect(h.driver.getFsmDebug().evalCount).toBeLessThan(10);
  });

  it('skips evaluation when only the cursor moved', () => {
    const h = harness();
    toIdle(h);
    const before = h.driver.getFsmDebug().evalCount;
    h.tx.emit('\x1b[1;1H');
    h.at(700);
    expect(h.driver.getFsmDebug().evalCount).toBe(before);
  });
});

/** A driver whose approval is pressed with the arrow keys, the approval up and read at t = 700 ms. */
function arrowKeysApprovalAt700(): ReturnType<typeof harness> {
  const spec = baseSpec();
  spec.states[3]!.extract!.buttons!.select_mode = 'arrow_keys';
  spec.states[3]!.extract!.buttons!.key_for_index = '\r';
  const h = harness(spec);
  toIdle(h);
  h.tx.emit(paint(APPROVAL));
  h.at(700);
  return h;
}

/** APPROVAL with the CLI's cursor on row `n`. */
const cursorOn = (n: number) => APPROVAL.map((l) => l.replace('❯', ' ').replace(new RegExp(`^   (${n}\\.)`), ' ❯ $1'));

describe('FsmDriver modals', () => {
  it('reports approval with exact buttons, title and kind', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    const v = h.driver.getCurrentView()!;
    expect(v.state.status).toBe('approval');
    expect(v.modal).toEqual({ title: 'proceed', kind: 'approval', buttons: [
      { index: 1, label: 'Yes', current: true }, { index: 2, label: "Yes, and don't ask again", current: false }, { index: 3, label: 'No', current: false }] });
  });

  it('reports the cursor moving to another option as a change of the modal', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    const modals = () => h.events.flatMap((e) => (e.kind === 'state_changed' && e.modal ? [e.modal.buttons.filter((b) => b.current).map((b) => b.index)] : []));
    expect(modals().at(-1)).toEqual([1]);
    const emitted = modals().length;
    h.tx.emit(paint(approvalWithCursorOn(3)));
    h.at(900);
    expect(modals().slice(emitted)).toEqual([[3]]);
    expect(h.driver.getCurrentView()?.modal?.buttons.map((b) => b.current)).toEqual([false, false, true]);
    h.tx.emit(paint(approvalWithCursorOn(3)));
    h.at(1100);
    expect(modals().slice(emitted)).toEqual([[3]]); // the same modal repainted: nothing new
  });

  it('presses a button by display index and refuses unknown indexes and changed labels', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    const n = h.tx.writes.length;
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 7 })).toMatchObject({ ok: false });
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 3, label: 'Yes' })).toMatchObject({ ok: false });
    expect(h.tx.writes.length).toBe(n);
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 3, label: 'No' })).toEqual({ ok: true });
    expect(h.tx.writes.at(-1)?.data).toBe('3');
  });

  it('refuses a press when no modal is up', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 1 })).toMatchObject({ ok: false, reason: expect.stringContaining('no modal') });
  });

  it('arrow_keys mode moves from the current row and refuses when no row is current (§13.13)', () => {
    const h = arrowKeysApprovalAt700();
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 3 })).toEqual({ ok: true });
    // The arrows now, the Enter only once the screen shows the cursor on row 3.
    expect(h.tx.written().endsWith('\x1b[B\x1b[B')).toBe(true);
    h.at(900);
    expect(h.tx.written().endsWith('\x1b[B\x1b[B')).toBe(true);
    h.tx.emit(paint(cursorOn(3)));
    h.at(950);
    expect(h.tx.written().endsWith('\x1b[B\x1b[B\r')).toBe(true);
    h.tx.emit(paint(APPROVAL.map((l) => l.replace('❯', ' '))));
    h.at(1300);
    const n = h.tx.writes.length;
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 2 })).toMatchObject({ ok: false, reason: expect.stringContaining('stale') });
    expect(h.tx.writes.length).toBe(n);
  });

  it('arrow_keys mode presses nothing when the cursor does not reach the row, or the modal changes on the way', () => {
    const h = arrowKeysApprovalAt700();
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 2 })).toEqual({ ok: true });
    h.at(700 + 2_500); // the TUI ignored the arrow: the cursor stays on row 1
    expect(h.tx.written()).not.toContain('\r');
    expect(h.driver.dispatch({ kind: 'click_modal_button', index: 3 })).toEqual({ ok: true });
    // Another question arrives under the cursor's row 3: not the "No" that was pressed.
    h.tx.emit(paint(cursorOn(3).map((l) => l.replace('3. No', '3. Yes, delete everything'))));
    h.at(700 + 5_500);
    expect(h.tx.written()).not.toContain('\r');
  });

  it('re-reads an approval at least every 2 s on a silent screen (§13.16)', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    const c0 = h.driver.getFsmDebug().evalCount;
    h.at(700 + 2100);
    expect(h.driver.getFsmDebug().evalCount).toBeGreaterThan(c0);
  });

  it('extracts the buttons of a modal taller than the viewport from scrollback (§13.2, §13.3)', () => {
    const tall = ['Agent v1', D, ' Bash command', ...Array.from({ length: 30 }, (_, i) => `   line ${i}`), ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', D];
    const h = harness();
    toIdle(h);
    h.tx.emit('\x1b[H\x1b[2J' + tall.join('\r\n'));
    h.at(700);
    const v = h.driver.getCurrentView()!;
    expect(v.state.id).toBe('approval');
    expect(v.modal?.buttons.map((b) => b.label)).toEqual(['Yes', 'No']);
  });

  it('keeps approval status when the buttons fail to parse (§13.23)', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(['Agent', ' Do you want to proceed?', ' (garbled)']));
    h.at(700);
    const v = h.driver.getCurrentView()!;
    expect(v.state.status).toBe('approval');
    expect(v.modal).toBeNull();
  });
});

describe('FsmDriver sends', () => {
  it('delivers a message queued before ready on the evaluation that reaches idle, exactly once (§13.1)', () => {
    const h = harness();
    let readyInListener: boolean | null = null;
    h.driver.subscribe((e) => { if (e.kind === 'state_changed' && e.state.id === 'idle') readyInListener = h.driver.hasSeenReady(); });
    h.driver.start();
    expect(h.driver.dispatch({ kind: 'send_message', text: 'hello' })).toEqual({ ok: true });
    h.tx.emit(paint(IDLE, { row: 2, col: 2 }));
    h.at(560);
    expect(h.tx.written()).toBe('');
    h.at(600);
    expect(readyInListener).toBe(true);
    h.at(700);
    expect(h.tx.written()).toBe('hello');
    h.at(960);
    expect(h.tx.written()).toBe('hello\r');
    expect(h.events.filter((e) => e.kind === 'send_status' && e.status === 'delivered')).toHaveLength(1);
  });

  it('writes the body and the submit key separately, the key after the submit delay', () => {
    const h = harness();
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'hi' });
    expect(h.tx.writes.at(-1)).toEqual({ at: 600, data: 'hi' });
    h.at(799);
    expect(h.tx.writes.at(-1)?.data).toBe('hi');
    h.at(800);
    expect(h.tx.writes.at(-1)).toEqual({ at: 800, data: '\r' });
  });

  it('queues a second message while the first is unconfirmed and sends it after the next idle (§13.17)', () => {
    const h = harness();
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'one' });
    expect(h.driver.dispatch({ kind: 'send_message', text: 'two' })).toEqual({ ok: true });
    expect(h.events.some((e) => e.kind === 'send_status' && e.status === 'queued')).toBe(true);
    h.at(800);
    h.tx.emit(paint(busy(1)));
    h.at(900);
    expect(h.tx.written()).toBe('one\r');
    h.tx.emit(paint(IDLE));
    h.at(2000);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    h.at(2500);
    expect(h.tx.written().startsWith('one\rtwo\r')).toBe(true);
    expect(h.tx.written().split('two')).toHaveLength(2);
  });

  it('drops the same text repeated while the agent still works on it, allows it at a settled prompt (§13.18)', () => {
    const h = harness();
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'same' });
    expect(h.driver.dispatch({ kind: 'send_message', text: 'same' })).toMatchObject({ ok: false });
    h.at(800);
    h.tx.emit(paint(busy(1)));
    h.at(900);
    h.tx.emit(paint(IDLE));
    h.at(2000);
    expect(h.driver.dispatch({ kind: 'send_message', text: 'same' })).toEqual({ ok: true });
  });

  it('resends the submit key while the screen shows no reaction, and stops once it reacts', () => {
    const h = harness();
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'x' });
    h.at(800 + 350 * 3 + 10);
    const enters = () => h.tx.writes.filter((w) => w.data === '\r').length;
    expect(enters()).toBe(4);
    h.tx.emit(paint([...IDLE, 'thinking']));
    h.at(3000);
    expect(enters()).toBe(4);
  });

  it('gives up after 14 submit keys and reports the send unconfirmed', () => {
    const h = harness();
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'x' });
    h.at(10_000);
    expect(h.tx.writes.filter((w) => w.data === '\r')).toHaveLength(14);
    expect(h.events.some((e) => e.kind === 'send_status' && e.status === 'unconfirmed')).toBe(true);
  });

  it('holds the submit of a long body until its echo is on screen and input is quiet (§13.19)', () => {
    const h = harness();
    toIdle(h);
    const body = 'word '.repeat(120).trim();
    h.driver.dispatch({ kind: 'send_message', text: body });
    h.at(3000);
    expect(h.tx.writes.some((w) => w.data === '\r')).toBe(false);
    const shown = body.replace(/\s+/g, '').match(/.{1,50}/g)!;
    h.tx.emit(paint(['Agent', ...shown.slice(-10), '❯ ']));
    h.at(3100);
    expect(h.tx.writes.some((w) => w.data === '\r')).toBe(false);
    h.at(3700);
    expect(h.tx.writes.some((w) => w.data === '\r')).toBe(true);
  });

  it('types one code point per tick with delay_ms_per_char, never splitting a surrogate pair', () => {
    const spec = baseSpec({ send_message: { submit_key: '\r', delay_ms_per_char: 10 } });
    const h = harness(spec);
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'a😀b' });
    h.at(700);
    expect(h.tx.writes.map((w) => w.data).slice(0, 3)).toEqual(['a', '😀', 'b']);
    h.at(1000);
    expect(h.tx.written()).toBe('a😀b\r');
  });

  it('refuses malformed commands and every command after exit, with reasons', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'send_message', text: 42 } as never)).toMatchObject({ ok: false, reason: expect.stringContaining('send_message.text') });
    expect(h.driver.dispatch({ kind: 'nope' } as never)).toMatchObject({ ok: false, reason: expect.stringContaining('unknown command') });
    expect(h.driver.dispatch(null as never)).toMatchObject({ ok: false });
    h.tx.exit(1, null);
    expect(h.driver.dispatch({ kind: 'send_message', text: 'late' })).toMatchObject({ ok: false, code: 'EXITED', reason: 'the agent has exited' });
  });
});

describe('FsmDriver spawn prime, watchdogs and controls', () => {
  it('writes send_on_spawn once, after the first output plus its delay (§13.21)', () => {
    const h = harness(baseSpec({ send_on_spawn: ['\x1b[I'], send_on_spawn_delay_ms: 100 }));
    h.driver.start();
    h.at(50);
    h.tx.emit('hello');
    h.at(149);
    expect(h.tx.written()).toBe('');
    h.at(150);
    expect(h.tx.written()).toBe('\x1b[I');
    h.at(5000);
    expect(h.tx.written()).toBe('\x1b[I');
  });

  it('holds a message queued before ready until send_on_spawn has been written', () => {
    const h = harness(baseSpec({ send_on_spawn: ['\x1b[I'], send_on_spawn_delay_ms: 700 }));
    h.driver.start();
    h.driver.dispatch({ kind: 'send_message', text: 'first' });
    h.tx.emit(paint(IDLE, { row: 2, col: 2 }));
    h.at(650);
    expect(h.driver.hasSeenReady()).toBe(true);
    expect(h.tx.written()).toBe('');
    h.at(800);
    expect(h.tx.written()).toBe('\x1b[Ifirst');
  });

  it('writes send_on_spawn after max-wait when the child prints nothing', () => {
    const h = harness(baseSpec({ send_on_spawn: ['\x1b[I'] }));
    h.driver.start();
    h.at(1999);
    expect(h.tx.written()).toBe('');
    h.at(2000);
    expect(h.tx.written()).toBe('\x1b[I');
  });

  it('re-primes a frozen generating screen after refocus_when_stalled_ms, then waits a full window', () => {
    const h = harness(baseSpec({ send_on_spawn: ['\x1b[I'], refocus_when_stalled_ms: 3000 }));
    toIdle(h);
    h.tx.emit(paint(busy(1)));
    h.at(700);
    const primes = () => h.tx.writes.filter((w) => w.data === '\x1b[I').length;
    const base = primes();
    h.at(700 + 2900);
    expect(primes()).toBe(base);
    h.at(700 + 3100);
    expect(primes()).toBe(base + 1);
    h.at(700 + 5900);
    expect(primes()).toBe(base + 1);
    h.at(700 + 6200);
    expect(primes()).toBe(base + 2);
  });

  it('nudges a silent generating screen with a resize wiggle, at most 4 times, never writing stdin (§13.22)', () => {
    const h = harness();
    toIdle(h);
    h.tx.emit(paint(busy(1)));
    h.at(700);
    const writes = h.tx.writes.length;
    h.at(700 + 45_000 + 100);
    expect(h.tx.resizes.slice(0, 1)).toEqual([{ at: expect.any(Number), cols: 61, rows: 16 }]);
    h.at(700 + 46_000);
    expect(h.tx.resizes[1]).toMatchObject({ cols: 60, rows: 16 });
    h.at(700 + 400_000);
    expect(h.tx.resizes.filter((r) => r.cols === 61)).toHaveLength(4);
    expect(h.tx.writes.length).toBe(writes);
  });

  it('reports a nudge resize the PTY refuses as a warning instead of throwing out of the timer', () => {
    const h = harness();
    toIdle(h);
    // A terminal already at the size bound: cols + 1 is refused by the PTY (assertDimension).
    h.tx.resize = () => { throw new Error('cols must be an integer between 1 and 60, got 61'); };
    h.tx.emit(paint(busy(1)));
    h.at(700);
    expect(() => h.at(700 + 45_000 + 2_000)).not.toThrow();
    expect(h.events.some((e) => e.kind === 'log' && e.level === 'warn' && /redraw nudge: resize to 61x16 failed/.test(e.message))).toBe(true);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
  });

  it('sends a slash command and its Enter 200 ms apart when opening a picker', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'click_control', control_id: 'model' })).toEqual({ ok: true });
    expect(h.tx.writes.at(-1)?.data).toBe('/model');
    h.at(799);
    expect(h.tx.writes.at(-1)?.data).toBe('/model');
    h.at(800);
    expect(h.tx.writes.at(-1)).toEqual({ at: 800, data: '\r' });
  });

  it('refuses a control that is not visible in the current state', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.dispatch({ kind: 'click_control', control_id: 'stop' })).toMatchObject({ ok: false, reason: expect.stringContaining('not available') });
    expect(h.driver.getCurrentView()?.controls.map((c) => c.id)).toEqual(['model', 'attach']);
  });

  it('fires notifications on entering their state and delegates after their delay unless the state is left', () => {
    const spec = baseSpec({
      notifications: [{ id: 'n', when_state: 'approval', title: 'Needs you', body: 'Asked: {state.title}' }],
      delegate: [{ id: 'd', when_state: 'approval', after_duration_ms: 5000, task_template: 'stuck in {state.label} for {duration_ms}ms' }],
    });
    const h = harness(spec);
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    expect(h.events.find((e) => e.kind === 'notification')).toEqual({ kind: 'notification', id: 'n', title: 'Needs you', body: 'Asked: proceed' });
    h.at(5800);
    expect(h.events.find((e) => e.kind === 'delegate')).toEqual({ kind: 'delegate', id: 'd', task: 'stuck in Approval for 5000ms' });
    // leaving the state cancels an armed delegate
    const h2 = harness(spec);
    toIdle(h2);
    h2.tx.emit(paint(APPROVAL));
    h2.at(700);
    h2.tx.emit(paint(IDLE));
    h2.at(2000);
    h2.at(20_000);
    expect(h2.events.some((e) => e.kind === 'delegate')).toBe(false);
  });

  it('reports signal rules once per distinct value', () => {
    const spec = baseSpec({ signal_rules: [{ id: 'limit', kind: 'usage_limit', pattern: 'limit reached.*resets (?<when>\\d+(?:am|pm))' }] });
    const h = harness(spec);
    toIdle(h);
    h.tx.emit(paint([...IDLE, 'Usage limit reached · resets 5pm']));
    h.at(700);
    h.tx.emit(paint([...IDLE, 'Usage limit reached · resets 5pm', 'x']));
    h.at(800);
    const hits = h.events.filter((e) => e.kind === 'signal_detected');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ id: 'limit', signal_kind: 'usage_limit', params: { when: '5pm' } });
  });

  it('reports a section-scoped signal rule only for text inside its section', () => {
    // `prompt` is the last ❯ row and below: the same words above it are not the signal.
    const spec = baseSpec({ signal_rules: [{ id: 'auth', kind: 'auth_error', section: 'prompt', pattern: '401 (?<what>unauthorized)' }] });
    const h = harness(spec);
    toIdle(h);
    h.tx.emit(paint(['Agent v1', 'log: 401 unauthorized (old)', D, '❯ ', D]));
    h.at(700);
    expect(h.events.filter((e) => e.kind === 'signal_detected')).toHaveLength(0);
    h.tx.emit(paint(['Agent v1', D, '❯ ', D, '  401 unauthorized: log in again']));
    h.at(900);
    const hits = h.events.filter((e) => e.kind === 'signal_detected');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ id: 'auth', signal_kind: 'auth_error', params: { what: 'unauthorized' } });
  });

  it('answers a startup prompt with startup_dismiss, a bounded number of times', () => {
    const spec = baseSpec({ startup_dismiss: { patterns: [{ regex: 'Press Enter to continue' }], key: '\r', max_attempts: 2 } });
    const h = harness(spec);
    h.driver.start();
    h.tx.emit(paint(['Press Enter to continue']));
    h.at(200);
    h.tx.emit(paint(['Press Enter to continue ', '.']));
    h.at(400);
    h.tx.emit(paint(['Press Enter to continue', '..']));
    h.at(600);
    expect(h.tx.writes.filter((w) => w.data === '\r')).toHaveLength(2);
  });

  it('writes an attached image to a private temp file and removes it at shutdown', () => {
    const h = harness();
    toIdle(h);
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    expect(h.driver.dispatch({ kind: 'attach_image', blob: png, mime: 'image/png' })).toEqual({ ok: true });
    const m = /^@(.+\.png) $/.exec(h.tx.writes.at(-1)!.data)!;
    const file = m[1]!;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(path.basename(file)).toMatch(/^[0-9a-f]{32}\.png$/);
    h.driver.shutdown();
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('FsmDriver faults and shutdown', () => {
  it('emits exit with code and signal and leaves no timer behind', () => {
    const h = harness(baseSpec({ send_on_spawn: ['\x1b[I'] }));
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'x' });
    h.tx.emit(paint(busy(1)));
    h.tx.exit(null, 'SIGKILL');
    expect(h.events.at(-1)).toEqual({ kind: 'exit', exit_code: null, signal: 'SIGKILL' });
    expect(h.sched.pendingCount()).toBe(0);
    expect(h.tx.listenerCount()).toBe(0);
  });

  it('shutdown clears every timer, drops queued sends and kills the child', () => {
    const h = harness(baseSpec({ delegate: [{ id: 'd', when_state: 'starting', after_duration_ms: 60_000, task_template: 't' }] }));
    h.driver.start();
    h.driver.dispatch({ kind: 'send_message', text: 'queued' });
    h.tx.emit('booting');
    h.at(5);
    expect(h.sched.pendingCount()).toBeGreaterThan(0);
    h.driver.shutdown();
    expect(h.sched.pendingCount()).toBe(0);
    expect(h.tx.killed).toBe(true);
    expect(h.events.some((e) => e.kind === 'send_status' && e.status === 'dropped')).toBe(true);
  });

  it('turns a spawn failure into a spawn_error event', () => {
    const sched = new VirtualScheduler(0);
    const tx = new ScriptedTransport(sched, new Error('spawn /nope ENOENT'));
    const driver = new FsmDriver({ spec: baseSpec(), workingDir: os.tmpdir(), transport: tx, scheduler: sched, applyTrust: false,
      spawnPlan: { file: '/nope', args: [], cwd: '/', env: {}, cols: 80, rows: 24, resolvedBinary: '/nope', viaShell: false, argvForDisplay: ['/nope'] } });
    const events: DashboardEvent[] = [];
    driver.subscribe((e) => events.push(e));
    expect(() => driver.start()).not.toThrow();
    expect(events[0]).toMatchObject({ kind: 'spawn_error', binary: '/nope' });
    expect(sched.pendingCount()).toBe(0);
  });

  it('names the binary and the directories searched when the spec binary is not installed', () => {
    const sched = new VirtualScheduler(0);
    const tx = new ScriptedTransport(sched);
    const driver = new FsmDriver({ spec: baseSpec({ binary: 'no-such-agent-cli-xyz' }), workingDir: os.tmpdir(), transport: tx, scheduler: sched,
      applyTrust: false, baseEnv: { PATH: '/usr/bin:/bin' } });
    const events: DashboardEvent[] = [];
    driver.subscribe((e) => events.push(e));
    driver.start();
    const err = events.find((e) => e.kind === 'spawn_error');
    expect(err).toMatchObject({ binary: 'no-such-agent-cli-xyz' });
    expect(err && err.kind === 'spawn_error' && err.searched).toContain('/usr/bin');
    expect(tx.spawned).toBeNull();
  });
});

describe('FsmDriver win32 write paths (through the platform switch)', () => {
  it('writes a multi-line body as bracketed-paste segments 8 ms apart, then submits', () => {
    const h = harness(baseSpec(), { platform: 'win32', win32SubmitMode: 'paste' });
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'line one\nline two' });
    h.at(620);
    expect(h.tx.writes.slice(-3).map((w) => w.data)).toEqual(['\x1b[200~', 'line one\nline two', '\x1b[201~']);
    expect(h.tx.writes.at(-1)!.at - h.tx.writes.at(-3)!.at).toBe(16);
  });

  it('replaces newlines with Shift+Enter in soft_newline mode', () => {
    const h = harness(baseSpec(), { platform: 'win32', win32SubmitMode: 'soft_newline' });
    toIdle(h);
    h.driver.dispatch({ kind: 'send_message', text: 'a\nb' });
    expect(h.tx.writes.at(-1)?.data).toBe('a\x1b[27;2;13~b');
  });

  it('resends a modal-confirm CR every 350 ms while the modal stays up (≤ 14)', () => {
    const spec = baseSpec();
    spec.states[3]!.extract!.buttons!.key_for_index = '{index}\r';
    const h = harness(spec, { platform: 'win32' });
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(700);
    h.driver.dispatch({ kind: 'click_modal_button', index: 1 });
    expect(h.tx.writes.slice(-2).map((w) => w.data)).toEqual(['1', '\r']);
    h.at(700 + 350 * 2 + 10);
    expect(h.tx.writes.filter((w) => w.data === '\r')).toHaveLength(3);
    h.tx.emit(paint(busy(1)));
    h.at(2000);
    const after = h.tx.writes.filter((w) => w.data === '\r').length;
    h.at(10_000);
    expect(h.tx.writes.filter((w) => w.data === '\r')).toHaveLength(after);
    expect(after).toBeLessThanOrEqual(14);
  });
});

/**
 * A spec source over `file`: JSON + the core validator. The catalog's loader (with the ReDoS
 * screen) is outside the driver's layer; test/hot-reload-loader.test.ts runs the real one.
 */
function jsonSpecSource(file: string): SpecSource {
  return {
    path: file,
    load: () => {
      let raw: unknown;
      try { raw = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (err) { return { ok: false, errors: [`${file}: ${String(err)}`], warnings: [] }; }
      const v = validateSpec(raw);
      return v.errors.length ? { ok: false, errors: v.errors, warnings: v.warnings } : { ok: true, spec: raw as CliSpecV4, warnings: v.warnings };
    },
  };
}

describe('FsmDriver hot reload', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-reload-')); });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  it('keeps the old spec on an invalid or half-written file and reports spec_error', () => {
    const file = path.join(dir, 'spec.json');
    fs.writeFileSync(file, JSON.stringify(baseSpec()));
    const h = harness(baseSpec(), { specSource: jsonSpecSource(file) });
    toIdle(h);
    fs.writeFileSync(file, '{"$schema": "adhdev:cli/spec@4", "id": ');
    expect(h.driver.reloadSpec()).toBe(false);
    expect(h.events.at(-1)).toMatchObject({ kind: 'spec_error' });
    h.tx.emit(paint(busy(1)));
    h.at(700);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
  });

  it('reloads on a file change while running and stops watching at shutdown', async () => {
    const file = path.join(dir, 'spec.json');
    fs.writeFileSync(file, JSON.stringify(baseSpec()));
    const h = harness(baseSpec(), { specSource: jsonSpecSource(file), hotReload: true });
    toIdle(h);
    const reloads = () => h.events.filter((e) => e.kind === 'spec_reloaded').length;
    const waitFsEvent = async (): Promise<void> => {
      for (let i = 0; i < 200 && h.sched.pendingCount() === 0; i++) await new Promise((r) => setTimeout(r, 50));
    };
    const next = baseSpec();
    next.states[1]!.label = 'Edited';
    fs.writeFileSync(file, JSON.stringify(next));
    await waitFsEvent();
    h.at(h.sched.now() + 100);
    expect(reloads()).toBe(1);
    expect(h.driver.getCurrentView()?.state.label).toBe('Edited');
    h.driver.shutdown();
    fs.writeFileSync(file, JSON.stringify(baseSpec()));
    await new Promise((r) => setTimeout(r, 300));
    h.at(h.sched.now() + 100);
    expect(reloads()).toBe(1);
    expect(h.sched.pendingCount()).toBe(0);
  });

  it('refuses to build a hot-reloading driver without a spec source (it never reads spec files itself)', () => {
    expect(() => harness(baseSpec(), { hotReload: true })).toThrow(expect.objectContaining({ code: 'SPEC_SOURCE_REQUIRED' }));
  });

  it('reports no reload without a spec source', () => {
    const h = harness();
    toIdle(h);
    expect(h.driver.reloadSpec()).toBe(false);
    expect(h.driver.getSpecPath()).toBe('');
  });

  it('applies a valid new spec, keeping the current state', () => {
    const file = path.join(dir, 'spec.json');
    const h = harness(baseSpec(), { specSource: jsonSpecSource(file) });
    toIdle(h);
    const next = baseSpec();
    next.states[1]!.label = 'Ready for input';
    fs.writeFileSync(file, JSON.stringify(next));
    expect(h.driver.reloadSpec()).toBe(true);
    expect(h.driver.getCurrentView()?.state).toMatchObject({ id: 'idle', label: 'Ready for input' });
  });
});
