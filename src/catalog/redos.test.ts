import { describe, expect, it } from 'vitest';
import { validateSpec } from '../core/spec/index.js';
import { createBudgetedScreen, screenRegexWithRecheck } from './redos.js';

describe('screenRegexWithRecheck', () => {
  it('classifies a nested quantifier as exponential and gives an attack string', () => {
    const verdict = screenRegexWithRecheck('^(a+)+$', '');
    expect(verdict?.complexity).toBe('exponential');
    expect(verdict?.attack).toMatch(/'a'/);
  });

  it('classifies overlapping adjacent quantifiers as polynomial', () => {
    expect(screenRegexWithRecheck('^a*a*$', '')?.complexity).toBe('polynomial');
  });

  it('classifies a plain pattern as safe', () => {
    expect(screenRegexWithRecheck('^Working \\(\\d+s', 'i')).toEqual({ complexity: 'safe' });
  });

  it('answers null for what recheck cannot analyse instead of throwing', () => {
    expect(screenRegexWithRecheck('[\\p{L}--a]', 'v')).toBeNull();
    expect(screenRegexWithRecheck('(', '')).toBeNull();
    expect(screenRegexWithRecheck(5 as unknown as string, '')).toBeNull();
  });

  it('ignores the "d" flag, which does not change matching time', () => {
    expect(screenRegexWithRecheck('^(b+)+$', 'd')?.complexity).toBe('exponential');
  });

  it('caches verdicts by source and flags', () => {
    const first = screenRegexWithRecheck('(x|x)*y', 'i');
    const started = performance.now();
    const second = screenRegexWithRecheck('(x|x)*y', 'i');
    expect(second).toBe(first);
    expect(performance.now() - started).toBeLessThan(5);
  });

  it('makes validateSpec reject an exponential guard regex with path, pattern and attack', () => {
    const spec = {
      $schema: 'adhdev:cli/spec@4',
      id: 'x',
      binary: 'x',
      send_message: { submit_key: '\r' },
      states: [{ id: 'a', label: 'A', initial: true }, { id: 'b', label: 'B' }],
      transitions: [{ from: 'a', to: 'b', when: { matches: '(\\w+\\s?)*$', flags: 'm' } }],
    };
    const { errors } = validateSpec(spec, { screenRegex: screenRegexWithRecheck });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^transitions\[0\]\.when\.matches: regex can take exponential time on some screens \(ReDoS\); attack string: .+ \("\(\\\\w\+\\\\s\?\)\*\$"\); /);
  });

});

describe('createBudgetedScreen', () => {
  it('stops analysing new patterns once the budget is spent but still answers cached ones', () => {
    screenRegexWithRecheck('^(c+)+$', ''); // cached now
    let clock = 0;
    const budget = createBudgetedScreen(10, () => (clock += 20));
    expect(budget.screen('^plain-one$', '')).toEqual({ complexity: 'safe' }); // spends 20 (fake) ms
    expect(budget.screen('^plain-two$', '')).toBeNull();
    expect(budget.skipped()).toBe(1);
    expect(budget.screen('^(c+)+$', '')?.complexity).toBe('exponential');
  });
});
