/**
 * The driver and `osc` leaves: payloads reach the guards with their arrival time on the
 * scheduler's clock, a payload alone (no screen change) re-evaluates, and `held_ms` rides out a
 * blip (Codex's 20 ms working→idle flash while the user types).
 */
import { describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../core/spec/types.js';
import { paint } from '../../test/helpers/scripted-transport.js';
import { harness } from '../../test/helpers/driver-harness.js';

function oscSpec(heldMs: number): CliSpecV4 {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 'osc-agent',
    binary: '/bin/true',
    send_message: { submit_key: '\r' },
    states: [
      { id: 'idle', label: 'Idle', initial: true },
      { id: 'busy', label: 'Working' },
    ],
    transitions: [
      { from: 'idle', to: 'busy', when: { osc: 7501, payload: '^state=working' } },
      { from: 'busy', to: 'idle', when: { osc: 7501, payload: '^state=(?:idle|done)', held_ms: heldMs } },
    ],
  } as CliSpecV4;
}

describe('osc leaves in the driver', () => {
  it('moves on a payload that comes with no screen change', () => {
    const h = harness(oscSpec(0));
    h.driver.start();
    h.tx.emit(paint(['› '], { row: 0, col: 2 }));
    h.at(100);
    h.tx.emit('\x1b]7501;state=working:app=codex\x1b\\');
    h.at(600);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
  });

  /** working, then after a quiet second a 20 ms idle blip (an evaluation lands inside it), then working. */
  function blip(h: ReturnType<typeof harness>): void {
    h.driver.start();
    h.tx.emit('\x1b]7501;state=working:app=codex\x07');
    h.at(1000);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    h.tx.emit('\x1b]7501;state=idle:app=codex\x07');
    h.at(1020);
    h.tx.emit('\x1b]7501;state=working:app=codex\x07');
    h.at(2000);
  }

  it('does not leave busy on a 20 ms idle blip when held_ms covers it, and leaves held_ms after a lasting idle', () => {
    const h = harness(oscSpec(150));
    blip(h);
    expect(h.states()).toEqual(['idle', 'busy']);
    h.tx.emit('\x1b]7501;state=done:app=codex\x07');
    const doneAt = 2000;
    h.at(doneAt + 149);
    expect(h.driver.getCurrentView()?.state.id).toBe('busy');
    // No output after the payload: the leaf's countdown wakes the driver.
    h.at(doneAt + 300);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
  });

  it('without held_ms, the same blip is seen as idle (what the hold is for)', () => {
    const h = harness(oscSpec(0));
    blip(h);
    expect(h.states()).toEqual(['idle', 'busy', 'idle', 'busy']);
  });
});
