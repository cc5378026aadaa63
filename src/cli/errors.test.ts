import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliUsageError } from './errors.js';
import { readRecordingArg } from './recording-arg.js';
import { loadSpecArg } from './spec-arg.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-cli-codes-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliUsageError);
    return (err as CliUsageError).code;
  }
  throw new Error('expected a CliUsageError');
}

describe('CliUsageError codes of spec and recording arguments', () => {
  it('tells an unknown spec from an invalid one', () => {
    expect(codeOf(() => loadSpecArg('run', 'no-such-agent', tmp))).toBe('CLI_UNKNOWN_SPEC');
    expect(codeOf(() => loadSpecArg('run', './missing.json', tmp))).toBe('CLI_UNKNOWN_SPEC');
    fs.writeFileSync(path.join(tmp, 'bad.json'), '{"$schema": "adhdev:cli/spec@4"}');
    expect(codeOf(() => loadSpecArg('run', './bad.json', tmp))).toBe('CLI_INVALID_SPEC');
  });

  it('tells an unreadable recording from a malformed one', () => {
    expect(codeOf(() => readRecordingArg('replay', 'missing.cast', tmp))).toBe('CLI_UNREADABLE_RECORDING');
    expect(codeOf(() => readRecordingArg('replay', '.', tmp))).toBe('CLI_UNREADABLE_RECORDING');
    fs.writeFileSync(path.join(tmp, 'bad.cast'), '{"version":2,"width":80,"height":24}\n[0.1, "o"\n[0.2, "o", "x"]\n');
    expect(codeOf(() => readRecordingArg('replay', 'bad.cast', tmp))).toBe('CLI_INVALID_RECORDING');
  });
});
