/**
 * The spec conformance suite: every built-in spec's recordings (specs/<id>/recordings/*.cast
 * with a sibling .expect.json) replayed through the real driver in virtual time, one test per
 * recording — the same engine as `specterm test`.
 */
import { describe, expect, it } from 'vitest';
import { discoverSpecTests, runSpecTestCase } from '../src/harness/spec-test.js';

const { cases, errors } = discoverSpecTests();

describe('built-in spec recordings', () => {
  it('finds recordings with expectations for the built-in specs', () => {
    expect(errors).toEqual([]);
    expect(cases.map((c) => c.specId)).toContain('demo-agent');
  });

  for (const c of cases) {
    it(`${c.name} replays to its expected states`, () => {
      const r = runSpecTestCase(c);
      // The report holds the expected/happened lines and the explain output of the first mismatch.
      expect(r.ok, r.report).toBe(true);
    });
  }
});
