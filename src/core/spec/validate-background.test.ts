/**
 * `background_work` (specterm extension, spec-format "Background work"): rows of the live screen
 * that say the agent's own shells or sub-agents still run. Each mistake is named by its field,
 * the value found and the fix.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SPEC_JSON_SCHEMA } from './schema.js';
import { validateSpec } from './validate.js';

const base = {
  $schema: 'adhdev:cli/spec@4',
  id: 'x',
  binary: 'x',
  send_message: { submit_key: '\r' },
  sections: { box: { from_bottom: 2 } },
  states: [{ id: 'idle', label: 'Idle', initial: true, status: 'idle' }],
  transitions: [],
};
const withRules = (background_work: unknown) => validateSpec({ ...base, background_work }, { strict: true });
const shell = { id: 'shell', section: 'box', pattern: '\\b(\\d+) shells? · (?:.* · )?↓ to manage', count_group: 1, noun: 'background shell' };

describe('background_work', () => {
  it('accepts rules with a section, a count group and a noun, with no message', () => {
    const r = withRules([shell, { id: 'agent', pattern: '^\\s*⎿ agent running' }]);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('names a list that is not a list, and an entry that is not an object', () => {
    expect(withRules({ shell }).errors).toEqual([expect.stringMatching(/^background_work: must be an array of background work rules/)]);
    expect(withRules(['shell']).errors).toEqual([expect.stringMatching(/^background_work\[0\]: must be background work rule object \(got "shell"\)/)]);
  });

  it('requires an id of the signal-rule form, unique, and a pattern that compiles', () => {
    expect(withRules([{ pattern: 'x' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_REQUIRED', path: 'background_work[0].id' })]);
    expect(withRules([{ id: 'Shell!', pattern: 'x' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_BAD_ID', path: 'background_work[0].id' })]);
    expect(withRules([shell, { ...shell }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_DUPLICATE_ID', path: 'background_work[1].id' })]);
    expect(withRules([{ id: 'shell' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_REQUIRED', path: 'background_work[0].pattern' })]);
    expect(withRules([{ id: 'shell', pattern: '(\\d+ shells' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_BAD_REGEX', path: 'background_work[0].pattern' })]);
  });

  it('refuses a count group the pattern does not have, saying how many it has', () => {
    const r = withRules([{ ...shell, count_group: 2 }]);
    expect(r.issues).toEqual([expect.objectContaining({ code: 'SPEC_CAPTURE_GROUPS', path: 'background_work[0].count_group' })]);
    expect(r.errors[0]).toBe('background_work[0].count_group: names capture group 2 but the pattern has 1 (2); add the group that holds the number, or fix count_group');
    expect(withRules([{ ...shell, count_group: 0 }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_RANGE', path: 'background_work[0].count_group' })]);
  });

  it('refuses flags that make one row\'s test depend on the last, an unknown section and an empty noun', () => {
    expect(withRules([{ ...shell, flags: 'gi' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_BAD_FLAGS', path: 'background_work[0].flags' })]);
    expect(withRules([{ ...shell, section: 'footer' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_UNKNOWN_SECTION', path: 'background_work[0].section' })]);
    expect(withRules([{ ...shell, noun: '' }]).issues).toEqual([expect.objectContaining({ code: 'SPEC_TYPE', path: 'background_work[0].noun' })]);
  });

  it('warns about a field nothing reads', () => {
    expect(validateSpec({ ...base, background_work: [{ ...shell, count: 1 }] }).warnings).toEqual([expect.stringMatching(/^background_work\[0\]\.count: unknown field in a background work rule; it is ignored/)]);
  });

  it('is described by the JSON Schema the same way', () => {
    const accepts = new Ajv({ allErrors: true, logger: false }).compile(SPEC_JSON_SCHEMA);
    expect(accepts({ ...base, background_work: [shell] }), JSON.stringify(accepts.errors)).toBe(true);
    expect(accepts({ ...base, background_work: [{ ...shell, count_group: 0 }] })).toBe(false);
    expect(accepts({ ...base, background_work: [{ ...shell, flags: 'g' }] })).toBe(false);
  });
});
