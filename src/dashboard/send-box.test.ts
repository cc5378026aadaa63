import { describe, expect, it } from 'vitest';
import { furthest, RECEIPT_STEPS, stepOf } from './send-box.js';

describe('the delivery receipt', () => {
  it('reads each delivery outcome as the step it proves; refusals and timeouts prove none', () => {
    expect(['queued', 'typed', 'echoed', 'turn_started', 'idle', 'refused', 'timed_out'].map(stepOf))
      .toEqual(['queued', 'typed', 'echoed', 'turn_started', 'turn_started', null, null]);
  });

  it('never moves back: an event after the answer cannot undo a later step', () => {
    for (const a of RECEIPT_STEPS) {
      for (const b of RECEIPT_STEPS) {
        const later = RECEIPT_STEPS.indexOf(a) >= RECEIPT_STEPS.indexOf(b) ? a : b;
        expect(furthest(a, b)).toBe(later);
        expect(furthest(b, a)).toBe(later);
      }
    }
  });
});
