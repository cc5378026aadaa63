import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPEC_ISSUE_CODES, type SpecIssueCode } from './issue-codes.js';
import { validateSpec, type RegexScreen } from './validate.js';

const BROKEN = join(import.meta.dirname, '../../../test/fixtures/specs/broken');
const DOCS = join(import.meta.dirname, '../../../docs/validation.md');

function brokenSpec(file: string): unknown {
  return JSON.parse(readFileSync(join(BROKEN, file), 'utf8'));
}

const exponential: RegexScreen = (source) => (source.includes('(a+)+') ? { complexity: 'exponential', attack: "'a'.repeat(31)" } : { complexity: 'safe' });

describe('spec issues', () => {
  it('give every issue of the broken corpus a known code, a severity and the path its message starts with', () => {
    for (const file of readdirSync(BROKEN).filter((f) => f.endsWith('.json'))) {
      const { issues, errors, warnings } = validateSpec(brokenSpec(file), { strict: true });
      expect(issues.length, file).toBeGreaterThan(0);
      expect(issues.filter((i) => i.severity === 'error').map((i) => i.message), file).toEqual(errors);
      expect(issues.filter((i) => i.severity === 'warning').map((i) => i.message), file).toEqual(warnings);
      for (const issue of issues) {
        expect(Object.keys(SPEC_ISSUE_CODES), `${file}: ${issue.message}`).toContain(issue.code);
        // Paths past 160 characters are shortened in the middle of the message only.
        const shown = issue.path.length > 160 ? `${issue.path.slice(0, 70)}…${issue.path.slice(-70)}` : issue.path;
        expect(issue.message.startsWith(`${shown}: `), `${file}: ${issue.path} vs ${issue.message}`).toBe(true);
      }
    }
  });

  it.each<[string, SpecIssueCode, string]>([
    ['unknown-to-state.json', 'SPEC_UNKNOWN_STATE', 'transitions[1].to'],
    ['invalid-guard-regex.json', 'SPEC_BAD_REGEX', 'transitions[1].when.matches'],
    ['unknown-section-in-guard.json', 'SPEC_UNKNOWN_SECTION', 'transitions[1].when.section'],
    ['duplicate-state-id.json', 'SPEC_DUPLICATE_ID', 'states[2].id'],
    ['no-initial-state.json', 'SPEC_INITIAL_STATE', 'states'],
    ['schema-wrong.json', 'SPEC_SCHEMA_MISMATCH', '$schema'],
    ['missing-binary.json', 'SPEC_REQUIRED', 'binary'],
    ['when-typo-key.json', 'SPEC_BAD_CONDITION', 'transitions[1].when'],
    ['buttons-one-group.json', 'SPEC_CAPTURE_GROUPS', 'states[3].extract.buttons.pattern'],
    ['regex-flags-unknown.json', 'SPEC_BAD_FLAGS', 'transitions[1].when.flags'],
    ['deep-nesting.json', 'SPEC_TOO_DEEP', ''],
  ])('%s is reported as %s at %s', (file, code, path) => {
    const { issues } = validateSpec(brokenSpec(file), { strict: true });
    const hit = issues.find((i) => i.code === code && i.severity === 'error');
    expect(hit, JSON.stringify(issues, null, 2)).toBeDefined();
    if (path) expect(hit!.path).toBe(path);
  });

  it('reports an exponential regex as SPEC_REDOS and a typo field as the warning SPEC_UNKNOWN_FIELD', () => {
    const spec = brokenSpec('redos-exponential.json') as Record<string, unknown>;
    spec.stauts = 'x';
    const { issues } = validateSpec(spec, { screenRegex: exponential });
    expect(issues.some((i) => i.code === 'SPEC_REDOS' && i.severity === 'error')).toBe(true);
    expect(issues).toContainEqual(expect.objectContaining({ code: 'SPEC_UNKNOWN_FIELD', path: 'stauts', severity: 'warning' }));
  });

  it('are each documented in docs/validation.md', () => {
    const docs = readFileSync(DOCS, 'utf8');
    for (const code of Object.keys(SPEC_ISSUE_CODES)) expect(docs, code).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});
