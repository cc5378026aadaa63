import { describe, expect, it } from 'vitest';
import type { CliSpecV4, Condition, FsmTransition } from '../spec/types.js';
import type { FsmClock } from './types.js';
import { evaluateFsm } from './fsm.js';

/** Unified spinner: braille or asterisk glyph + an ellipsis or an elapsed/esc trailer. */
const SPINNER = '(?:^|\\n)\\s*[\\u2800-\\u28ff✻✽✶✳✢·*]\\s+[^\\n]*?(?:…|\\.\\.\\.|\\((?:\\d+[smh]|esc to interrupt)[^\\n]*\\))';
const COMPLETION = '(?:^|\\n)\\s*✻ (?![^\\n]*token)[^\\n]* for \\d+[smh]';

function spec(transitions: FsmTransition[], states = ['starting', 'idle', 'busy']): CliSpecV4 {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 'test-cli',
    binary: 'test',
    send_message: { submit_key: '\r' },
    sections: { body: { from_top: 0 } },
    states: states.map((id, i) => ({ id, label: id, initial: i === 0 })),
    transitions,
  };
}

function clock(now: number, stateEnteredAt: number, regions: Array<[number | string, number]> = []): FsmClock {
  return { now, stateEnteredAt, regionLastChangedAt: new Map(regions) };
}

/** §4.6 spec (abridged). */
const WORKED = spec([
  { from: 'starting', to: 'idle', when: { elapsed_ms: 4000 } },
  { from: 'idle', to: 'busy', min_hold_ms: 1000, when: { section: 'body', matches: SPINNER } },
  {
    from: 'busy',
    to: 'idle',
    min_hold_ms: 800,
    when: { all: [{ not: { section: 'body', matches: SPINNER } }, { matches: COMPLETION }, { stable_ms: 6000, cursor_above: 4 }] },
  },
]);

describe('evaluateFsm — §4.6 worked example', () => {
  it('waits out starting→idle and reports the countdown the wake timer uses', () => {
    const ev = evaluateFsm(WORKED, 'starting', 'Welcome', undefined, undefined, clock(1000, 0));
    expect(ev.fired).toBeNull();
    expect(ev.transitions[0]!.cond).toMatchObject({ detail: 'elapsed 1000ms / 4000ms', remainingMs: 3000 });
    expect(evaluateFsm(WORKED, 'starting', 'Welcome', undefined, undefined, clock(4030, 0)).fired?.to).toBe('idle');
  });

  it('holds idle→busy until min_hold_ms from state entry has passed', () => {
    const screen = '❯ fix it\n✻ Thinking… (esc to interrupt)';
    const early = evaluateFsm(WORKED, 'idle', screen, undefined, undefined, clock(4500, 4030));
    expect(early.fired).toBeNull();
    expect(early.transitions[0]).toMatchObject({ condResult: true, holdSatisfied: false, holdRemainingMs: 530, fires: false });
    expect(evaluateFsm(WORKED, 'idle', screen, undefined, undefined, clock(5060, 4030)).fired?.to).toBe('busy');
  });

  it('fires busy→idle at the first evaluation once the 4 rows above the cursor are stable for 6 s', () => {
    const screen = ['⏺ Done.', '', '✻ Worked for 12s', '', '❯ '].join('\n');
    const cursor = { row: 4, col: 2 };
    const before = evaluateFsm(WORKED, 'busy', screen, cursor, undefined, clock(25999, 5060, [[4, 20000]]));
    expect(before.fired).toBeNull();
    expect(before.transitions[0]!.cond!.remainingMs).toBe(1);
    const at = evaluateFsm(WORKED, 'busy', screen, cursor, undefined, clock(26000, 5060, [[4, 20000]]));
    expect(at.fired?.label).toBe('busy→idle');
  });
});

describe('evaluateFsm — FALSEIDLE spinner formats (§13.4)', () => {
  const formats = [
    '✻ Thinking… (esc to interrupt)',
    '· Pondering… (3s · ↑ 1.2k tokens · esc to interrupt)',
    '✽ Ebbing (3m · ↑10k tokens)',
    '⠙ Generating (12s · esc to interrupt)',
  ];
  const stableClock = clock(60000, 0, [[4, 0]]);
  for (const spinnerLine of formats) {
    it(`stays busy while "${spinnerLine}" is visible, even below the prompt`, () => {
      const above = ['⏺ Done.', '✻ Worked for 12s', spinnerLine, '❯ '].join('\n');
      const below = ['⏺ Done.', '✻ Worked for 12s', '❯ ', spinnerLine].join('\n');
      expect(evaluateFsm(WORKED, 'busy', above, { row: 3, col: 2 }, undefined, stableClock).fired).toBeNull();
      expect(evaluateFsm(WORKED, 'busy', below, { row: 2, col: 2 }, undefined, stableClock).fired).toBeNull();
    });
  }

  it('does not count the completion footer "✻ … for 12s" as a spinner', () => {
    const screen = ['⏺ Done.', '✻ Worked for 12s', '❯ '].join('\n');
    expect(evaluateFsm(WORKED, 'busy', screen, { row: 2, col: 2 }, undefined, stableClock).fired?.to).toBe('idle');
  });
});

describe('evaluateFsm — viewport absence in the guard frame (§13.6)', () => {
  it('lets busy→idle fire when the only spinner copy sits above viewportStartRow', () => {
    const frame = ['✻ Thinking… (esc to interrupt)', '', '⏺ Done.', '✻ Worked for 12s', '❯ '].join('\n');
    const args = [WORKED, 'busy', frame, { row: 4, col: 2 }, undefined, clock(60000, 0, [[4, 0]])] as const;
    expect(evaluateFsm(...args).fired).toBeNull();
    expect(evaluateFsm(...args, { viewportStartRow: 2 }).fired?.to).toBe('idle');
  });
});

describe('evaluateFsm — ordering and firing', () => {
  const onScreen = (text: string): Condition => ({ matches: text });

  it('evaluates every outgoing transition by priority, then declaration order, and fires the first', () => {
    const s = spec([
      { from: 'idle', to: 'busy', when: onScreen('go'), label: 'low-a' },
      { from: 'idle', to: 'starting', when: onScreen('go'), priority: 100, label: 'high' },
      { from: 'idle', to: 'busy', when: onScreen('go'), label: 'low-b' },
      { from: 'busy', to: 'idle', when: onScreen('go'), label: 'other-state' },
    ]);
    const ev = evaluateFsm(s, 'idle', 'go', undefined, undefined, clock(0, 0));
    expect(ev.transitions.map((t) => t.label)).toEqual(['high', 'low-a', 'low-b']);
    expect(ev.transitions.every((t) => t.fires && t.eligible)).toBe(true);
    expect(ev.fired?.label).toBe('high');
    expect(ev.transitions.map((t) => t.priority)).toEqual([100, 0, 0]);
  });

  it('treats a missing guard as true and leaves cond undefined', () => {
    const ev = evaluateFsm(spec([{ from: 'idle', to: 'busy' }]), 'idle', '', undefined, undefined, clock(0, 0));
    expect(ev.transitions[0]).toEqual({
      to: 'busy',
      label: 'idle→busy',
      eligible: true,
      holdSatisfied: true,
      holdRemainingMs: 0,
      condResult: true,
      fires: true,
      priority: 0,
    });
  });

  it('labels list sources with |', () => {
    const ev = evaluateFsm(spec([{ from: ['idle', 'busy'], to: 'starting' }]), 'busy', '', undefined, undefined, clock(0, 0));
    expect(ev.fired?.label).toBe('idle|busy→starting');
  });

  it('yields no transition when the first firing one targets an unknown state — no fallback (§13.30)', () => {
    const s = spec([
      { from: 'idle', to: 'ghost', when: onScreen('go'), priority: 5 },
      { from: 'idle', to: 'busy', when: onScreen('go') },
    ]);
    const ev = evaluateFsm(s, 'idle', 'go', undefined, undefined, clock(0, 0));
    expect(ev.fired).toBeNull();
    expect(ev.transitions[1]!.fires).toBe(true);
    expect(ev.trace).toContainEqual({ kind: 'state_skip', text: 'transition target ghost not found' });
  });

  it('re-fires a "*" edge from its own destination on every evaluation (§13.24)', () => {
    const s = spec([{ from: '*', to: 'busy', when: onScreen('go') }]);
    expect(evaluateFsm(s, 'busy', 'go', undefined, undefined, clock(10, 0)).fired?.to).toBe('busy');
    expect(evaluateFsm(s, 'busy', 'go', undefined, undefined, clock(20, 10)).fired?.to).toBe('busy');
  });

  it('writes legacy trace lines labelled <state>→<to>', () => {
    const s = spec([{ from: 'idle', to: 'busy', when: { section: 'body', matches: 'zz' } }]);
    const ev = evaluateFsm(s, 'idle', 'x', undefined, undefined, clock(0, 0));
    expect(ev.trace).toEqual([{ kind: 'state_skip', text: 'state[idle→busy] regex cond body~/zz/ no match' }]);
  });

  it('resolves sections once and returns them', () => {
    const ev = evaluateFsm(WORKED, 'idle', 'a\r\nb', undefined, undefined, clock(0, 0));
    expect(ev.sections).toEqual([{ id: 'body', fromLine: 0, toLine: 2, text: 'a\nb' }]);
  });

  it('returns an empty table for an unknown state', () => {
    const ev = evaluateFsm(WORKED, 'nowhere', 'x', undefined, undefined, clock(0, 0));
    expect(ev.transitions).toEqual([]);
    expect(ev.fired).toBeNull();
  });

  it('never throws on a malformed spec or clock', () => {
    const bad = [null, {}, { transitions: 5, states: 'x' }, { transitions: [null, 3, { from: 7, to: 'x' }], states: [null] }];
    for (const b of bad) {
      const ev = evaluateFsm(b as unknown as CliSpecV4, 'idle', 'x', undefined, undefined, clock(0, 0));
      expect(ev.fired).toBeNull();
    }
    const ev = evaluateFsm(WORKED, 'starting', 'x', undefined, undefined, null as unknown as FsmClock);
    expect(ev.transitions[0]!.condResult).toBe(false);
  });
});
