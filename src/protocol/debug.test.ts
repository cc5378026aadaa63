import { describe, expect, it } from 'vitest';
import type { TransitionEval } from '../core/eval/types.js';
import { LiveDebug, RawTransitionTable, toDebugTransitions } from './debug.js';

const holding: TransitionEval = {
  to: 'done', label: 'finished', eligible: true, holdSatisfied: false, holdRemainingMs: 200, condResult: true, fires: false, priority: 0,
  cond: { kind: 'all', result: true, detail: 'all(1)', remainingMs: 0, children: [{ kind: 'regex', result: true, detail: 'status ~ /Done/', matchedText: 'Done' }] },
};
const waiting: TransitionEval = {
  to: 'idle', label: 'settled', eligible: true, holdSatisfied: true, holdRemainingMs: 0, condResult: false, fires: false, priority: 1,
  cond: { kind: 'elapsed', result: false, detail: 'elapsed 400ms / 1500ms', remainingMs: 1100 },
};

describe('the debugger\'s transition table', () => {
  it('turns what is left into due times at the instant of the table', () => {
    const [hold, elapsed] = toDebugTransitions([holding, waiting], 10_000, (t) => (t.to === 'done' ? 300 : 0));
    expect(hold).toMatchObject({ to: 'done', guard: true, hold_ms: 300, hold_due_at: 10_200 });
    expect(hold!.cond!.children[0]).toMatchObject({ matched_text: 'Done', due_at: null, window_ms: null });
    expect(elapsed).toMatchObject({ to: 'idle', guard: false, hold_due_at: null });
    expect(elapsed!.cond).toMatchObject({ kind: 'elapsed', due_at: 11_100, window_ms: 1500, children: [] });
  });

  it('has no due time for a hold whose guard is false, nor for a true leaf', () => {
    const [t] = toDebugTransitions([{ ...holding, condResult: false }], 5, () => 300);
    expect(t!.hold_due_at).toBeNull();
    expect(t!.cond!.due_at).toBeNull();
  });

  it('reads the driver table of …/explain, and the live view schema accepts the conversion', () => {
    const raw = JSON.parse(JSON.stringify([holding, waiting]));
    expect(RawTransitionTable.safeParse(raw).success).toBe(true);
    expect(RawTransitionTable.safeParse([{ to: 'x' }]).success).toBe(false);
    const live = {
      server_now: 10_000, state: { id: 'busy', label: 'Busy', status: 'generating' }, state_entered_at: 9_000,
      transitions: toDebugTransitions([holding, waiting], 10_000, () => 0), sections: [{ id: 'status', from_row: 3, to_row: 4 }],
      cursor: { row: 5, col: 2 }, rows: 30, eval_count: 7, last_edge: { from: 'idle', to: 'busy', at: 9_000 },
    };
    expect(LiveDebug.parse(live)).toEqual(live);
  });
});
