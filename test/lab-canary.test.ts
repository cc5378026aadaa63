/** The canary's verdict diff (lab/lib/canary.mjs), offline. */
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs module of the lab, without types
import { diffVerdicts, formatVerdictTable } from '../lab/lib/canary.mjs';

type Verdict = { scenario: string; verdict: 'pass' | 'fail' };
type Row = { scenario: string; proven: string; latest: string; changed: boolean };
const diff = diffVerdicts as (a: Verdict[], b: Verdict[]) => Row[];
const format = formatVerdictTable as (rows: Row[], v: { cli: string; proven: string; latest: string }) => string;

describe('canary verdict diff', () => {
  it('joins by scenario, marks what changed, and keeps scenarios run on one side only', () => {
    const rows = diff(
      [{ scenario: 'hello', verdict: 'pass' }, { scenario: 'approve-yes', verdict: 'pass' }, { scenario: 'gone', verdict: 'pass' }],
      [{ scenario: 'approve-yes', verdict: 'fail' }, { scenario: 'hello', verdict: 'pass' }, { scenario: 'new', verdict: 'pass' }],
    );
    expect(rows).toEqual([
      { scenario: 'approve-yes', proven: 'pass', latest: 'fail', changed: true },
      { scenario: 'gone', proven: 'pass', latest: '–', changed: true },
      { scenario: 'hello', proven: 'pass', latest: 'pass', changed: false },
      { scenario: 'new', proven: '–', latest: 'pass', changed: true },
    ]);
  });

  it('keeps the worst verdict of a scenario reported twice', () => {
    expect(diff([{ scenario: 'a', verdict: 'fail' }, { scenario: 'a', verdict: 'pass' }], [{ scenario: 'a', verdict: 'pass' }])).toEqual([
      { scenario: 'a', proven: 'fail', latest: 'pass', changed: true },
    ]);
  });

  it('prints a table with the versions and a headline count', () => {
    const text = format(diff([{ scenario: 'a', verdict: 'pass' }], [{ scenario: 'a', verdict: 'fail' }]), { cli: 'codex', proven: '0.171.0', latest: '0.172.0' });
    expect(text).toBe([
      'canary codex: proven 0.171.0 → latest 0.172.0: 1 verdict(s) changed',
      '',
      '| scenario | proven 0.171.0 | latest 0.172.0 | changed |',
      '|---|---|---|---|',
      '| a | pass | fail | **yes** |',
      '',
    ].join('\n'));
    expect(format(diff([{ scenario: 'a', verdict: 'pass' }], [{ scenario: 'a', verdict: 'pass' }]), { cli: 'x', proven: '1', latest: '2' })).toMatch(/no verdict changed/);
  });
});
