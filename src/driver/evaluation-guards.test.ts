/**
 * Timing and re-decision rules the driver's other tests did not pin down: a cursor-bounded
 * leaf is never re-decided from a frame where the cursor stood elsewhere, and a transition's
 * `min_hold_ms` delays it by itself when nothing else in its guard waits.
 */
import { describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../core/spec/types.js';
import { paint } from '../../test/helpers/scripted-transport.js';
import { D, harness } from '../../test/helpers/driver-harness.js';

/** With no scrollback yet the guard frame is the viewport, so cursor rows are as on screen (§9.4). */
const PROMPT_ROW = 3;
const SCREEN = (tick: number) => ['Agent v1', `tick ${tick}`, D, '❯ ', D];

/** starting → idle once the prompt is drawn AND the cursor stands on the prompt row. */
function cursorGatedSpec(): CliSpecV4 {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 'cursor-gated',
    binary: '/bin/true',
    send_message: { submit_key: '\r' },
    sections: { prompt: { anchor: '^❯', anchor_last: true } },
    states: [
      { id: 'starting', label: 'Starting', initial: true },
      { id: 'idle', label: 'Idle' },
    ],
    transitions: [
      { from: 'starting', to: 'idle', when: { section: 'prompt', matches: '^❯', flags: 'm', cursor_row_min: PROMPT_ROW, cursor_row_max: PROMPT_ROW } },
    ],
  } as CliSpecV4;
}

describe('re-decided evaluations and the cursor', () => {
  it('evaluates in full when the cursor moved under a cursor-bounded leaf, so the move is seen', () => {
    const h = harness(cursorGatedSpec());
    h.driver.start();
    // Prompt drawn, cursor parked on the first row: the leaf's text matches, its cursor bound does not.
    h.tx.emit(paint(SCREEN(1), { row: 0, col: 0 }));
    h.at(100);
    expect(h.driver.getCurrentView()?.state.id).toBe('starting');
    // A row no predicate reads changes (so the frame qualifies for a re-decision) and the cursor
    // moves to the prompt: the recorded "false" of the cursor-bounded leaf no longer holds.
    h.tx.emit(`\x1b[2;1Htick 2\x1b[${PROMPT_ROW + 1};3H`);
    h.at(300);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    expect(h.driver.getFsmDebug().reusedEvalCount).toBe(0);
  });

  it('still re-decides a frame whose changed row nothing reads when the cursor stayed', () => {
    const h = harness(cursorGatedSpec());
    h.driver.start();
    h.tx.emit(paint(SCREEN(1), { row: 0, col: 0 }));
    h.at(100);
    h.tx.emit('\x1b[2;1Htick 2\x1b[1;1H');
    h.at(300);
    expect(h.driver.getCurrentView()?.state.id).toBe('starting');
    expect(h.driver.getFsmDebug().reusedEvalCount).toBe(1);
  });
});

describe('min_hold_ms as the binding constraint', () => {
  /** idle ⇄ busy on the spinner; busy → idle has nothing to wait for but its hold. */
  function holdSpec(holdMs: number): CliSpecV4 {
    return {
      $schema: 'adhdev:cli/spec@4',
      id: 'hold-only',
      binary: '/bin/true',
      send_message: { submit_key: '\r' },
      states: [
        { id: 'idle', label: 'Idle', initial: true },
        { id: 'busy', label: 'Working' },
      ],
      transitions: [
        { from: 'idle', to: 'busy', when: { matches: 'esc to interrupt' } },
        { from: 'busy', to: 'idle', min_hold_ms: holdMs, when: { not: { matches: 'esc to interrupt' } } },
      ],
    } as CliSpecV4;
  }

  it('leaves busy no earlier than min_hold_ms after entering it, on its own wake, with no output', () => {
    const HOLD_MS = 1000;
    const h = harness(holdSpec(HOLD_MS));
    h.driver.start();
    h.tx.emit(paint(['working… esc to interrupt']));
    h.at(50);
    const entered = h.driver.getStateHistory().at(-1)!;
    expect(entered.stateId).toBe('busy');
    // The spinner is gone at once: the guard is true from here on, only the hold keeps busy.
    h.tx.emit(paint(['done', '❯ ']));
    // Evaluated at the end of the stream (≤ 250 ms after the last evaluation).
    h.at(entered.at + 300);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    expect(h.driver.hasIdleHoldPending()).toBe(true);
    h.at(entered.at + HOLD_MS - 1);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    // The wake comes at the hold's end plus the driver's 30 ms slack; no output arrives meanwhile.
    h.at(entered.at + HOLD_MS + 30);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    const left = h.driver.getStateHistory().at(-1)!;
    expect(left.via).toBe('busy→idle');
    expect(left.durationMs).toBeGreaterThanOrEqual(HOLD_MS);
    expect(left.durationMs).toBeLessThanOrEqual(HOLD_MS + 30);
  });
});
