import { describe, expect, it } from 'vitest';
import type { Condition, SectionDef } from '../spec/types.js';
import { splitScreenLines } from '../screen/lines.js';
import type { Cursor, EvalExtras, FsmClock, TraceEntry } from './types.js';
import { evaluateCondition, MAX_CONDITION_DEPTH, type ConditionContext } from './conditions.js';
import { resolveSections } from './sections.js';

interface CtxOptions {
  sections?: Record<string, SectionDef>;
  cursor?: Cursor;
  prevLines?: string[];
  clock?: Partial<FsmClock>;
  extras?: EvalExtras;
  trace?: TraceEntry[];
}

function ctx(screen: string, o: CtxOptions = {}): ConditionContext {
  const lines = splitScreenLines(screen);
  return {
    lines,
    screen: lines.join('\n'),
    sections: resolveSections(o.sections, lines),
    cursor: o.cursor,
    prevLines: o.prevLines,
    clock: { now: 0, stateEnteredAt: 0, regionLastChangedAt: new Map(), ...o.clock },
    extras: o.extras,
    trace: o.trace,
    traceLabel: 'busy→idle',
  };
}

const ev = (cond: unknown, c: ConditionContext) => evaluateCondition(cond as Condition, c);

describe('regex leaf', () => {
  it('matches case-insensitively by default', () => {
    expect(ev({ matches: 'working' }, ctx('WORKING (3s)')).result).toBe(true);
  });

  it('replaces the default i when flags are given (§13.28)', () => {
    expect(ev({ matches: 'working', flags: 'm' }, ctx('WORKING')).result).toBe(false);
    expect(ev({ matches: 'working', flags: '' }, ctx('working')).result).toBe(true);
  });

  it('tests once against the whole multi-line haystack: ^ binds to the text start without m', () => {
    const c = ctx('first\nsecond');
    expect(ev({ matches: '^second' }, c).result).toBe(false);
    expect(ev({ matches: '(?:^|\\n)second' }, c).result).toBe(true);
    expect(ev({ matches: '^second', flags: 'im' }, c).result).toBe(true);
    expect(ev({ matches: 'first\\nsecond' }, c).result).toBe(true);
  });

  it('reads the named section, the whole screen without one, and nothing for an unknown section', () => {
    const o = { sections: { footer: { from_bottom: 1 } } };
    expect(ev({ matches: 'top', section: 'footer' }, ctx('top\nbottom', o)).result).toBe(false);
    expect(ev({ matches: 'bottom', section: 'footer' }, ctx('top\nbottom', o)).result).toBe(true);
    expect(ev({ matches: 'top' }, ctx('top\nbottom', o)).result).toBe(true);
    expect(ev({ matches: '', section: 'ghost' }, ctx('top', o)).result).toBe(true);
    expect(ev({ matches: '.', section: 'ghost' }, ctx('top', o)).result).toBe(false);
  });

  it('is false for an invalid regex or invalid flags', () => {
    expect(ev({ matches: '(' }, ctx('(')).result).toBe(false);
    expect(ev({ matches: 'a', flags: 'q' }, ctx('a')).result).toBe(false);
  });

  it('checks inclusive cursor bounds only when a cursor is supplied', () => {
    const cond = { matches: 'x', cursor_row_min: 2, cursor_row_max: 3, cursor_col_min: 1, cursor_col_max: 4 };
    expect(ev(cond, ctx('x')).result).toBe(true);
    expect(ev(cond, ctx('x', { cursor: { row: 2, col: 1 } })).result).toBe(true);
    expect(ev(cond, ctx('x', { cursor: { row: 3, col: 4 } })).result).toBe(true);
    expect(ev(cond, ctx('x', { cursor: { row: 1, col: 2 } })).result).toBe(false);
    expect(ev(cond, ctx('x', { cursor: { row: 4, col: 2 } })).result).toBe(false);
    expect(ev(cond, ctx('x', { cursor: { row: 2, col: 0 } })).result).toBe(false);
    expect(ev(cond, ctx('x', { cursor: { row: 2, col: 5 } })).result).toBe(false);
  });

  it('sees the rebased row (+200) once the guard frame carries scrollback (§13.25)', () => {
    const cond = { matches: 'x', cursor_row_max: 30 };
    expect(ev(cond, ctx('x', { cursor: { row: 10, col: 0 } })).result).toBe(true);
    expect(ev(cond, ctx('x', { cursor: { row: 210, col: 0 } })).result).toBe(false);
  });

  it('reports detail <section|*>~/<pattern>/ and no remainingMs', () => {
    const r = ev({ matches: 'a+', section: 'body' }, ctx('aa', { sections: { body: {} } }));
    expect(r).toEqual({ kind: 'regex', result: true, detail: 'body~/a+/', matchedText: 'aa' });
    expect(ev({ matches: 'zz' }, ctx('aa'))).toEqual({ kind: 'regex', result: false, detail: '*~/zz/' });
  });

  it('attaches matchedText (collapsed, trimmed, ≤160 chars) to a true leaf only', () => {
    expect(ev({ matches: 'esc\\s+to\\s+interrupt' }, ctx('  esc \n  to\tinterrupt')).matchedText).toBe('esc to interrupt');
    expect(ev({ matches: 'x{200}' }, ctx('x'.repeat(300))).matchedText).toHaveLength(160);
    expect(ev({ matches: '^' }, ctx('abc')).matchedText).toBeUndefined();
    expect(ev({ not: { matches: 'q' } }, ctx('abc')).children![0]!.matchedText).toBeUndefined();
  });

  it('stays stateless with the g flag: the same leaf is true on every evaluation (§13.27)', () => {
    const c = ctx('spinner');
    for (let i = 0; i < 3; i += 1) expect(ev({ matches: 'spinner', flags: 'g' }, c).result).toBe(true);
    expect(ev({ all: [{ matches: 'n', flags: 'g' }, { matches: 'n', flags: 'g' }] }, c).result).toBe(true);
  });

  it('writes legacy trace lines for no match, cursor violation and match', () => {
    const trace: TraceEntry[] = [];
    ev({ matches: 'zz' }, ctx('aa', { trace }));
    ev({ matches: 'aa', cursor_row_min: 5 }, ctx('aa', { trace, cursor: { row: 1, col: 0 } }));
    ev({ matches: 'aa', section: 'b' }, ctx('aa', { trace, cursor: { row: 1, col: 2 }, sections: { b: {} } }));
    expect(trace).toEqual([
      { kind: 'state_skip', text: 'state[busy→idle] regex cond *~/zz/ no match' },
      { kind: 'state_skip', text: 'state[busy→idle] cursor row 1 < cursor_row_min 5' },
      { kind: 'state_match', text: 'state[busy→idle] regex cond b~/aa/ matched cursor=(1,2)' },
    ]);
  });
});

describe('window_title leaf (extension)', () => {
  it('matches extras.windowTitle with kind title and detail title~/<pattern>/', () => {
    const r = ev({ window_title: '^[⠀-⣿]\\s' }, ctx('', { extras: { windowTitle: '⠋ Claude Code' } }));
    expect(r).toEqual({ kind: 'title', result: true, detail: 'title~/^[⠀-⣿]\\s/', matchedText: '⠋' });
  });

  it('treats an absent title as empty', () => {
    expect(ev({ window_title: 'claude' }, ctx('claude')).result).toBe(false);
    expect(ev({ window_title: '^$' }, ctx('claude')).result).toBe(true);
  });

  it('uses i by default and lets flags replace it', () => {
    const c = ctx('', { extras: { windowTitle: 'CLAUDE' } });
    expect(ev({ window_title: 'claude' }, c).result).toBe(true);
    expect(ev({ window_title: 'claude', flags: '' }, c).result).toBe(false);
  });
});

describe('osc leaf (extension)', () => {
  const osc = (payload: string, at: number) => new Map([[7501, { payload, at }]]);

  it('matches the last payload of its OSC number, with kind osc and the payload as matched text', () => {
    const r = ev({ osc: 7501, payload: '^state=idle' }, ctx('', { extras: { osc: osc('state=idle:app=codex', 0) } }));
    expect(r).toEqual({ kind: 'osc', result: true, detail: 'osc7501~/^state=idle/', matchedText: 'state=idle' });
    expect(ev({ osc: 7501, payload: '^state=idle' }, ctx('', { extras: { osc: osc('state=working:app=codex', 0) } })).result).toBe(false);
  });

  it('is false while no payload of that number arrived (another number does not count), and never reads the screen', () => {
    expect(ev({ osc: 7501, payload: '.*' }, ctx('state=idle')).result).toBe(false);
    expect(ev({ osc: 9, payload: '.*' }, ctx('', { extras: { osc: osc('state=idle', 0) } })).result).toBe(false);
  });

  it('with held_ms waits until the payload has stood that long, counting down to it', () => {
    const extras = { osc: osc('state=idle', 1000) };
    const early = ev({ osc: 7501, payload: 'idle', held_ms: 150 }, ctx('', { extras, clock: { now: 1100 } }));
    expect(early).toMatchObject({ kind: 'osc', result: false, remainingMs: 50 });
    expect(ev({ osc: 7501, payload: 'idle', held_ms: 150 }, ctx('', { extras, clock: { now: 1150 } })).result).toBe(true);
    // Not matching: nothing to count down to (only another payload can flip it).
    expect(ev({ osc: 7501, payload: 'working', held_ms: 150 }, ctx('', { extras, clock: { now: 1100 } })).remainingMs).toBeUndefined();
  });

  it('uses i by default and lets flags replace it', () => {
    const c = ctx('', { extras: { osc: osc('STATE=IDLE', 0) } });
    expect(ev({ osc: 7501, payload: 'state=idle' }, c).result).toBe(true);
    expect(ev({ osc: 7501, payload: 'state=idle', flags: '' }, c).result).toBe(false);
  });
});

describe('viewport-only absence (§13.6)', () => {
  const screen = ['✻ Thinking… (esc to interrupt)', 'old prose', '❯ ', 'fresh'].join('\n');
  const extras = { viewportStartRow: 2 };

  it('judges a negated unscoped regex only on rows at or below viewportStartRow', () => {
    expect(ev({ not: { matches: 'esc to interrupt' } }, ctx(screen, { extras })).result).toBe(true);
    expect(ev({ not: { matches: 'esc to interrupt' } }, ctx(screen)).result).toBe(false);
  });

  it('keeps presence checks on the whole guard frame', () => {
    expect(ev({ matches: 'esc to interrupt' }, ctx(screen, { extras })).result).toBe(true);
    expect(ev({ not: { not: { matches: 'esc to interrupt' } } }, ctx(screen, { extras })).result).toBe(true);
  });

  it('clips a section to rows at or below viewportStartRow', () => {
    const o = { sections: { body: { from_top: 0 } }, extras };
    expect(ev({ not: { matches: 'Thinking', section: 'body' } }, ctx(screen, o)).result).toBe(true);
    expect(ev({ not: { matches: 'fresh', section: 'body' } }, ctx(screen, o)).result).toBe(false);
  });

  it('applies inside all/any under a not', () => {
    const cond = { not: { any: [{ matches: 'Thinking' }, { matches: 'nothing' }] } };
    expect(ev(cond, ctx(screen, { extras })).result).toBe(true);
  });
});

describe('changed leaf', () => {
  const prev = ['a', 'b', 'c', 'd'];
  it('compares the N rows above the cursor with the previous frame', () => {
    const cursor = { row: 3, col: 0 };
    expect(ev({ cursor_above: 2, changed: true }, ctx('a\nb\nX\nd', { cursor, prevLines: prev })).result).toBe(true);
    expect(ev({ cursor_above: 2, changed: true }, ctx('a\nb\nc\nX', { cursor, prevLines: prev })).result).toBe(false);
    expect(ev({ cursor_above: 2, changed: false }, ctx('a\nb\nc\nX', { cursor, prevLines: prev })).result).toBe(true);
  });

  it('is false without a cursor or previous frame', () => {
    expect(ev({ cursor_above: 2, changed: true }, ctx('x', { prevLines: prev })).result).toBe(false);
    expect(ev({ cursor_above: 2, changed: false }, ctx('x', { cursor: { row: 1, col: 0 } })).result).toBe(false);
    expect(ev({ cursor_above: 2, changed: false }, ctx('x', { cursor: { row: 1, col: 0 }, prevLines: [] })).result).toBe(false);
  });

  it('reports detail cursor_above=<n> changed=<bool> and a legacy trace line', () => {
    const trace: TraceEntry[] = [];
    const r = ev({ cursor_above: 2, changed: true }, ctx('a\nb\nX\nd', { cursor: { row: 3, col: 0 }, prevLines: prev, trace }));
    expect(r).toEqual({ kind: 'changed', result: true, detail: 'cursor_above=2 changed=true' });
    expect(trace).toEqual([
      { kind: 'state_match', text: 'state[busy→idle] changed cond cursor_above=2 rows[1,3) changed=true expected=true result=true' },
    ]);
  });
});

describe('time leaves', () => {
  it('elapsed_ms: true at the threshold, with detail and remainingMs', () => {
    expect(ev({ elapsed_ms: 4000 }, ctx('', { clock: { now: 1000, stateEnteredAt: 0 } }))).toEqual({
      kind: 'elapsed',
      result: false,
      detail: 'elapsed 1000ms / 4000ms',
      remainingMs: 3000,
    });
    expect(ev({ elapsed_ms: 4000 }, ctx('', { clock: { now: 5000, stateEnteredAt: 1000 } })).result).toBe(true);
  });

  it('stable_ms: a region never seen changing counts from state entry', () => {
    const r = ev({ stable_ms: 1500, cursor_above: 4 }, ctx('', { clock: { now: 1000, stateEnteredAt: 0 } }));
    expect(r).toEqual({ kind: 'stable', result: false, detail: 'stable cursor_above=4 1000ms / 1500ms', remainingMs: 500 });
  });

  it('stable_ms: reads regionLastChangedAt under the region key', () => {
    const map = new Map<number | string, number>([
      [-1, 900],
      [4, 100],
      ['section:tail', 950],
      ['-1#ignore:tok', 200],
    ]);
    const clock = { now: 1000, stateEnteredAt: 0, regionLastChangedAt: map };
    expect(ev({ stable_ms: 500 }, ctx('', { clock })).detail).toBe('stable screen 100ms / 500ms');
    expect(ev({ stable_ms: 500, cursor_above: 4 }, ctx('', { clock })).result).toBe(true);
    expect(ev({ stable_ms: 500, section: 'tail', cursor_above: 4 }, ctx('', { clock })).detail).toBe('stable section=tail 50ms / 500ms');
    const ign = ev({ stable_ms: 500, ignore_lines: 'tok' }, ctx('', { clock }));
    expect(ign).toEqual({ kind: 'stable', result: true, detail: 'stable screen (ignore_lines) 800ms / 500ms', remainingMs: 0 });
  });
});

describe('composites', () => {
  const clock = { now: 1000, stateEnteredAt: 0 };
  it('all: evaluates every child, remainingMs = max of failing children (missing = 0)', () => {
    const r = ev({ all: [{ elapsed_ms: 3000 }, { elapsed_ms: 2000 }, { matches: 'no' }, { matches: 'yes' }] }, ctx('yes', { clock }));
    expect(r.result).toBe(false);
    expect(r.detail).toBe('all(4)');
    expect(r.remainingMs).toBe(2000);
    expect(r.children).toHaveLength(4);
  });

  it('any: remainingMs = min of failing children (missing = ∞), 0 when none can flip', () => {
    expect(ev({ any: [{ elapsed_ms: 3000 }, { elapsed_ms: 2000 }, { matches: 'no' }] }, ctx('', { clock })).remainingMs).toBe(1000);
    expect(ev({ any: [{ matches: 'no' }] }, ctx('', { clock })).remainingMs).toBe(0);
    expect(ev({ any: [{ matches: 'no' }, { elapsed_ms: 10 }] }, ctx('', { clock })).remainingMs).toBe(0);
  });

  it('not: inverts its child with remainingMs 0 and one child', () => {
    const r = ev({ not: { elapsed_ms: 3000 } }, ctx('', { clock }));
    expect(r).toMatchObject({ kind: 'not', result: true, detail: 'not', remainingMs: 0 });
    expect(r.children).toHaveLength(1);
  });

  it('empty all is true, empty any is false', () => {
    expect(ev({ all: [] }, ctx('')).result).toBe(true);
    expect(ev({ any: [] }, ctx('')).result).toBe(false);
  });
});

describe('classification order (§3, §13.29)', () => {
  const clock = { now: 0, stateEnteredAt: 0 };
  it('all wins over any, any over not, not over leaves', () => {
    expect(ev({ all: [], any: [] }, ctx('')).kind).toBe('all');
    expect(ev({ any: [], not: { all: [] } }, ctx('')).kind).toBe('any');
    expect(ev({ not: { all: [] }, matches: 'x' }, ctx('x')).kind).toBe('not');
  });

  it('signal beats elapsed, elapsed beats stable, stable beats matches', () => {
    expect(ev({ signal: 's', elapsed_ms: 5 }, ctx('')).kind).toBe('signal');
    expect(ev({ elapsed_ms: 5, stable_ms: 5 }, ctx('', { clock })).kind).toBe('elapsed');
    expect(ev({ stable_ms: 5, matches: 'x' }, ctx('x', { clock })).kind).toBe('stable');
  });

  it('matches beats window_title, window_title beats changed', () => {
    expect(ev({ matches: 'x', window_title: 'y' }, ctx('x')).kind).toBe('regex');
    expect(ev({ window_title: 'y', cursor_above: 1, changed: true }, ctx('')).kind).toBe('title');
  });

  it('a stable leaf carrying changed is a stable leaf', () => {
    expect(ev({ stable_ms: 5, cursor_above: 2, changed: true }, ctx('', { clock })).kind).toBe('stable');
  });

  it('anything else is an unknown condition: false, kind all', () => {
    for (const odd of [{}, { cursor_above: 3 }, { foo: 1 }, null, 7, 'x', [], [{ matches: 'x' }]]) {
      expect(ev(odd, ctx('x'))).toEqual({ kind: 'all', result: false, detail: 'unknown condition' });
    }
  });

  it('a signal leaf always passes', () => {
    expect(ev({ signal: 'final_assistant_present', equals: false }, ctx(''))).toMatchObject({ kind: 'signal', result: true });
  });
});

describe('malformed input', () => {
  it('reports a non-array all/any as false with a message naming the field', () => {
    expect(ev({ all: 5 }, ctx(''))).toEqual({ kind: 'all', result: false, detail: 'invalid all: expected an array of conditions, got number' });
    expect(ev({ any: { matches: 'x' } }, ctx('x')).result).toBe(false);
  });

  it('fails closed on a not of a non-object', () => {
    expect(ev({ not: null }, ctx('')).result).toBe(false);
  });

  it('fails closed past the depth cap instead of overflowing the stack', () => {
    let deep: unknown = { matches: 'x' };
    for (let i = 0; i < 1000; i += 1) deep = { not: deep };
    const r = ev(deep, ctx('x'));
    expect(r.result).toBe(false);
    expect(r.detail).toContain(String(MAX_CONDITION_DEPTH));
    let ok: unknown = { matches: 'x' };
    for (let i = 0; i < MAX_CONDITION_DEPTH - 2; i += 1) ok = { all: [ok] };
    expect(ev(ok, ctx('x')).result).toBe(true);
  });

  it('survives a cyclic condition and a throwing getter', () => {
    const cyc: { all: unknown[] } = { all: [] };
    cyc.all.push(cyc);
    expect(ev(cyc, ctx('')).result).toBe(false);
    const hostile = {
      get matches(): string {
        throw new Error('boom');
      },
    };
    expect(ev(hostile, ctx('')).result).toBe(false);
  });

  it('tolerates a malformed context', () => {
    expect(evaluateCondition({ matches: 'x' }, null as unknown as ConditionContext).result).toBe(false);
    expect(evaluateCondition({ elapsed_ms: 5 }, { lines: [], screen: '', sections: [] } as unknown as ConditionContext).result).toBe(false);
  });
});
