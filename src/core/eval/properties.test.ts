import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CliSpecV4, Condition, ExtractButtons, SectionDef } from '../spec/types.js';
import { splitScreenLines } from '../screen/lines.js';
import type { FsmClock } from './types.js';
import { evaluateCondition } from './conditions.js';
import { deriveModal, extractButtons } from './extract.js';
import { decideFsmLines, evaluateFsm, evaluateFsmLines, soonestFlipMs } from './fsm.js';
import { evaluateConditionPreview } from './preview.js';
import { resolveSections } from './sections.js';
import { collectStableRegions, regionChanged } from './stable-regions.js';

// ── Arbitraries ─────────────────────────────────────────────────────────────

const fragment = fc.constantFrom('', ' ', 'a', 'B', '1.', '2. No', '❯', '›', '>', '─────', '✻ Thinking…', '(3s)', 'esc to interrupt', '\r', '⠋', 'for 12s', '😀', '\t');
const line = fc.array(fragment, { maxLength: 6 }).map((parts) => parts.join(''));
const lines = fc.array(line, { maxLength: 30 });
const screen = lines.map((ls) => ls.join('\n'));
const pattern = fc.constantFrom('^a', 'a', '\\d+\\.', '^[❯›>]', '^[─╌]+$', '\\S', '(', '[', '', '.*', '(?:^|\\n)\\s*✻', 'x*', '^$', '(\\d+)\\.\\s*(.+)');
const flags = fc.option(fc.constantFrom('', 'i', 'm', 'g', 'gm', 'y', 'u', 'q', 'ii'), { nil: undefined });
const sectionId = fc.constantFrom('footer', 'modal', 'body', 'ghost');
const size = fc.oneof(fc.integer({ min: -3, max: 40 }), fc.constantFrom('50%', '12.5%', 'x', '100%'));

const sectionDef: fc.Arbitrary<SectionDef> = fc.record(
  {
    anchor: fc.oneof(pattern, fc.array(pattern, { maxLength: 3 })),
    anchor_flags: flags,
    anchor_last: fc.boolean(),
    anchor_context: fc.oneof(
      fc.record({ prev: pattern, next: pattern }, { requiredKeys: [] }),
      fc.array(fc.option(fc.record({ next: pattern }), { nil: null }), { maxLength: 3 }),
    ),
    above: fc.integer({ min: -2, max: 5 }),
    anchor_miss: fc.constant('empty' as const),
    lines: fc.integer({ min: -2, max: 10 }),
    until_regex: pattern,
    until: fc.oneof(sectionId, pattern.map((p) => `^${p}`)),
    from_top: size,
    from_bottom: size,
  },
  { requiredKeys: [] },
);
const sectionDefs = fc.dictionary(sectionId, sectionDef, { maxKeys: 4 });

const { condition } = fc.letrec<{ condition: unknown }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ matches: pattern, flags, section: fc.option(sectionId, { nil: undefined }), cursor_row_min: fc.option(fc.nat(40), { nil: undefined }) }, { requiredKeys: ['matches'] }),
    fc.record({ window_title: pattern, flags }, { requiredKeys: ['window_title'] }),
    fc.record({ cursor_above: fc.integer({ min: -1, max: 8 }), changed: fc.boolean() }),
    fc.record({ elapsed_ms: fc.integer({ min: 0, max: 5000 }) }),
    fc.record({ stable_ms: fc.integer({ min: 0, max: 5000 }), cursor_above: fc.option(fc.nat(8), { nil: undefined }), section: fc.option(sectionId, { nil: undefined }), ignore_lines: fc.option(pattern, { nil: undefined }) }, { requiredKeys: ['stable_ms'] }),
    fc.record({ signal: fc.string(), equals: fc.boolean() }),
    fc.record({ all: fc.array(tie('condition'), { maxLength: 3 }) }),
    fc.record({ any: fc.array(tie('condition'), { maxLength: 3 }) }),
    fc.record({ not: tie('condition') }),
    fc.constantFrom({}, null, 5, 'x', { all: 3 }, { any: null }, { not: null }, { foo: 1 }),
  ),
}));

const cursor = fc.option(fc.record({ row: fc.integer({ min: -2, max: 40 }), col: fc.integer({ min: -1, max: 120 }) }), { nil: undefined });
const clock: fc.Arbitrary<FsmClock> = fc
  .record({ now: fc.integer({ min: 0, max: 100000 }), enteredAgo: fc.integer({ min: 0, max: 100000 }), changed: fc.array(fc.tuple(fc.constantFrom<number | string>(-1, 4, 'section:body'), fc.nat(100000)), { maxLength: 3 }) })
  .map(({ now, enteredAgo, changed }) => ({ now, stateEnteredAt: now - enteredAgo, regionLastChangedAt: new Map(changed) }));
const extras = fc.option(fc.record({ windowTitle: fc.option(line, { nil: undefined }), viewportStartRow: fc.option(fc.integer({ min: -1, max: 35 }), { nil: undefined }) }), { nil: undefined });

const stateIds = ['starting', 'idle', 'busy', 'approval'];
const buttonsRule: fc.Arbitrary<ExtractButtons> = fc.record(
  {
    pattern,
    flags,
    key_for_index: fc.constantFrom('{index}\r', '{index}'),
    min_count: fc.integer({ min: 0, max: 3 }),
    continuation_lines: fc.boolean(),
    label_continuation: fc.record({ match_style: fc.boolean(), word_wrap: fc.boolean() }, { requiredKeys: [] }),
    section: sectionId,
    cursor_marker: fc.constantFrom('❯', '●', ']^-'),
    label_group: fc.integer({ min: 0, max: 3 }),
    key_group: fc.integer({ min: 0, max: 3 }),
  },
  { requiredKeys: ['pattern'] },
);
const spec: fc.Arbitrary<CliSpecV4> = fc
  .record({
    sections: sectionDefs,
    transitions: fc.array(
      fc.record(
        {
          from: fc.oneof(fc.constantFrom(...stateIds, '*', 'ghost'), fc.subarray(stateIds)),
          to: fc.constantFrom(...stateIds, 'ghost'),
          when: condition,
          min_hold_ms: fc.integer({ min: 0, max: 3000 }),
          priority: fc.integer({ min: -5, max: 200 }),
        },
        { requiredKeys: ['from', 'to'] },
      ),
      { maxLength: 8 },
    ),
    buttons: buttonsRule,
  })
  .map(({ sections, transitions, buttons }) => ({
    $schema: 'adhdev:cli/spec@4',
    id: 'prop',
    binary: 'prop',
    send_message: { submit_key: '\r' },
    sections,
    states: stateIds.map((id, i) => ({ id, label: id, initial: i === 0, modal: id === 'approval', extract: id === 'approval' ? { buttons, title: { section: 'modal', first_line: true } } : undefined })),
    transitions: transitions as CliSpecV4['transitions'],
  }));

// ── Properties ──────────────────────────────────────────────────────────────

const RUNS = { numRuns: 300 };

describe('section resolution properties', () => {
  it('never throws, is deterministic and yields one in-bounds range per declared section', () => {
    fc.assert(
      fc.property(sectionDefs, lines, (defs, ls) => {
        const a = resolveSections(defs, ls);
        expect(resolveSections(defs, ls)).toEqual(a);
        expect(a.map((s) => s.id)).toEqual(Object.keys(defs));
        for (const s of a) {
          expect(0 <= s.fromLine && s.fromLine <= s.toLine && s.toLine <= ls.length).toBe(true);
          expect(Number.isInteger(s.fromLine) && Number.isInteger(s.toLine)).toBe(true);
          expect(s.text).toBe(ls.slice(s.fromLine, s.toLine).join('\n'));
        }
      }),
      RUNS,
    );
  });
});

describe('condition evaluation properties', () => {
  it('never throws and returns the same result for the same input', () => {
    fc.assert(
      fc.property(condition, sectionDefs, screen, cursor, clock, extras, lines, (cond, defs, text, cur, clk, ex, prev) => {
        const ls = splitScreenLines(text);
        const run = () =>
          evaluateCondition(cond as Condition, { lines: ls, screen: ls.join('\n'), sections: resolveSections(defs, ls), cursor: cur, prevLines: prev, clock: clk, extras: ex, trace: [] });
        const first = run();
        expect(typeof first.result).toBe('boolean');
        expect(run()).toEqual(first);
        expect(evaluateConditionPreview(cond as Condition, defs, text, cur)).toEqual(evaluateConditionPreview(cond as Condition, defs, text, cur));
      }),
      RUNS,
    );
  });

  it('all([c]) and not(not(c)) agree with c when the whole frame is live', () => {
    fc.assert(
      fc.property(condition, screen, clock, (cond, text, clk) => {
        const ls = splitScreenLines(text);
        const ctx = { lines: ls, screen: ls.join('\n'), sections: [], clock: clk };
        const base = evaluateCondition(cond as Condition, ctx).result;
        expect(evaluateCondition({ all: [cond as Condition] }, ctx).result).toBe(base);
        if (cond && typeof cond === 'object') expect(evaluateCondition({ not: { not: cond as Condition } }, ctx).result).toBe(base);
      }),
      RUNS,
    );
  });
});

describe('FSM and extraction properties', () => {
  it('evaluateFsm never throws, is deterministic and fires only a firing transition to a known state', () => {
    fc.assert(
      fc.property(spec, fc.constantFrom(...stateIds, 'ghost'), screen, cursor, lines, clock, extras, (s, st, text, cur, prev, clk, ex) => {
        const a = evaluateFsm(s, st, text, cur, prev, clk, ex);
        expect(evaluateFsm(s, st, text, cur, prev, clk, ex)).toEqual(a);
        if (a.fired) {
          expect(a.fired.fires).toBe(true);
          expect(stateIds).toContain(a.fired.to);
          expect(a.transitions.find((t) => t.fires)).toBe(a.fired);
        }
        for (let i = 1; i < a.transitions.length; i += 1) expect(a.transitions[i - 1]!.priority).toBeGreaterThanOrEqual(a.transitions[i]!.priority);
      }),
      RUNS,
    );
  });

  it('decideFsmLines decides exactly as the evaluateFsmLines table reads', () => {
    // Ages within the specs' holds and countdowns (0–5 s), so countdowns are often running.
    const nearClock: fc.Arbitrary<FsmClock> = fc
      .record({ enteredAgo: fc.integer({ min: 0, max: 6000 }), changed: fc.array(fc.tuple(fc.constantFrom<number | string>(-1, 4, 'section:body'), fc.integer({ min: 0, max: 6000 })), { maxLength: 3 }) })
      .map(({ enteredAgo, changed }) => ({ now: 50_000, stateEnteredAt: 50_000 - enteredAgo, regionLastChangedAt: new Map(changed.map(([k, ago]) => [k, 50_000 - ago])) }));
    fc.assert(
      fc.property(spec, fc.constantFrom(...stateIds, 'ghost'), lines, cursor, lines, fc.oneof(clock, nearClock), extras, (s, st, frame, cur, prev, clk, ex) => {
        const table = evaluateFsmLines(s, st, frame, undefined, cur, prev, clk, ex);
        const d = decideFsmLines(s, st, frame, undefined, cur, prev, clk, ex);
        expect(d.firedTo).toBe(table.fired?.to ?? null);
        expect(d.soonestMs).toBe(soonestFlipMs(table));
      }),
      { numRuns: 1000 },
    );
  });

  it('deriveModal and extractButtons never throw and are deterministic', () => {
    fc.assert(
      fc.property(spec, screen, (s, text) => {
        const ls = splitScreenLines(text);
        const sections = resolveSections(s.sections, ls);
        const approval = s.states[3]!;
        const m = deriveModal(approval, sections, ls.join('\n'));
        expect(deriveModal(approval, sections, ls.join('\n'))).toEqual(m);
        const rule = approval.extract!.buttons!;
        const numbered = { ...rule, label_group: undefined, key_group: undefined };
        const buttons = extractButtons(numbered, text);
        for (let i = 1; i < buttons.length; i += 1) expect(buttons[i]!.index).toBe(buttons[i - 1]!.index + 1);
      }),
      RUNS,
    );
  });

  it('a frame never differs from itself unless the cursor window is unmeasurable', () => {
    fc.assert(
      fc.property(spec, fc.constantFrom(...stateIds), lines, fc.integer({ min: -2, max: 40 }), (s, st, ls, row) => {
        const f = { lines: ls, sections: resolveSections(s.sections, ls) };
        for (const region of collectStableRegions(s, st)) {
          const end = Math.max(0, Math.min(row, ls.length));
          const unmeasurable = region.cursorAbove !== undefined && region.section === undefined && end <= Math.max(0, end - region.cursorAbove);
          expect(regionChanged(region, f, f, row)).toBe(unmeasurable);
        }
      }),
      RUNS,
    );
  });
});
