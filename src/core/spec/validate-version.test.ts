import { describe, expect, it } from 'vitest';
import { validateSpec } from './validate.js';

const spec = (cliVersion: unknown) => ({
  $schema: 'adhdev:cli/spec@4', id: 'v', binary: 'x', send_message: { submit_key: '\r' }, cli_version_range: '>=1 <2',
  cli_version: cliVersion, states: [{ id: 'idle', label: 'Idle', initial: true }], transitions: [],
});

describe('cli_version', () => {
  it('accepts {args, regex?}', () => {
    expect(validateSpec(spec({ args: ['--version'], regex: 'codex-cli (\\S+)' })).issues).toEqual([]);
  });

  it('names the field and the fix for a bad probe', () => {
    const paths = (v: unknown) => validateSpec(spec(v)).issues.map((i) => `${i.code} ${i.path}`);
    expect(paths('--version')).toEqual(['SPEC_TYPE cli_version']);
    expect(paths({})).toEqual(['SPEC_REQUIRED cli_version.args']);
    expect(paths({ args: ['--version'], regex: '(' })).toEqual(['SPEC_BAD_REGEX cli_version.regex']);
    expect(paths({ args: [], cmd: 1 })).toEqual(['SPEC_NO_EFFECT cli_version.args', 'SPEC_UNKNOWN_FIELD cli_version.cmd']);
  });
});
