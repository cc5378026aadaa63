/**
 * Bad input through the real command (`node bin/specterm.js …` as a child process): every
 * mistake gets one clear message on stderr, exit code 2 and no stack trace.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'bin/specterm.js');
const CAST = path.join(root, 'specs/demo-agent/recordings/hello.cast');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-cli-errors-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function specterm(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectCleanUsageError(r: { code: number | null; stderr: string }): void {
  expect(r.code).toBe(2);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack frames
  expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
}

describe('specterm with bad input', () => {
  it('names the unknown spec id and lists the known ones', () => {
    const r = specterm('replay', CAST, '--spec', 'no-such-agent');
    expectCleanUsageError(r);
    expect(r.stderr).toContain('unknown spec "no-such-agent"');
    expect(r.stderr).toContain('demo-agent');
  });

  it('rejects run with an unknown spec id before starting anything', () => {
    const r = specterm('run', 'no-such-agent');
    expectCleanUsageError(r);
    expect(r.stderr).toMatch(/unknown spec "no-such-agent" \(built-in: .*demo-agent/);
  });

  it('names the file of an unreadable recording', () => {
    const r = specterm('replay', path.join(tmp, 'missing.cast'), '--spec', 'demo-agent');
    expectCleanUsageError(r);
    expect(r.stderr).toContain('missing.cast: no such file');
  });

  it('names the line of a truncated recording and the flag that accepts it', () => {
    const file = path.join(tmp, 'truncated.cast');
    const text = fs.readFileSync(CAST, 'utf8').split('\n').slice(0, 6).join('\n');
    fs.writeFileSync(file, `${text}\n[3.5, "o", "cut of`);
    const r = specterm('replay', file, '--spec', 'demo-agent');
    expectCleanUsageError(r);
    expect(r.stderr).toContain('truncated.cast: line 7: incomplete JSON');
    expect(r.stderr).toContain('--allow-truncated');
    const ok = specterm('replay', file, '--spec', 'demo-agent', '--allow-truncated', '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout.split('\n')[0]!)).toMatchObject({ t: 0, state: 'starting' });
  });

  it('names the line of a malformed event in the middle of a recording', () => {
    const file = path.join(tmp, 'bad-line.cast');
    fs.writeFileSync(file, '{"version": 2, "width": 80, "height": 24}\n[0.1, "o", "hi"]\n[0.2, "x", "?"]\n[0.3, "o", "ok"]\n');
    const r = specterm('explain', file, '--spec', 'demo-agent', '--at', '0.1');
    expectCleanUsageError(r);
    expect(r.stderr).toContain('bad-line.cast: line 3: unknown event code "x"');
  });

  it('refuses --at beyond the end of the recording and names the last time', () => {
    const r = specterm('explain', CAST, '--spec', 'demo-agent', '--at', '9999');
    expectCleanUsageError(r);
    expect(r.stderr).toMatch(/--at 9999 is beyond the end of .*hello\.cast \(its last event is at \d+\.\d{3} s\)/);
  });

  it('reports unknown flags, missing values and missing arguments with the command name', () => {
    const unknownFlag = specterm('replay', CAST, '--spec', 'demo-agent', '--jsn');
    expectCleanUsageError(unknownFlag);
    expect(unknownFlag.stderr).toContain('specterm replay: unknown flag "--jsn"');

    const missingValue = specterm('replay', CAST, '--spec');
    expectCleanUsageError(missingValue);
    expect(missingValue.stderr).toContain('--spec needs a value');

    const missingArg = specterm('explain');
    expectCleanUsageError(missingArg);
    expect(missingArg.stderr).toContain('missing argument <file.cast>');

    const notANumber = specterm('replay', CAST, '--spec', 'demo-agent', '--tail-ms', 'soon');
    expectCleanUsageError(notANumber);
    expect(notANumber.stderr).toContain('--tail-ms must be a number (N), got "soon"');

    const unknownCommand = specterm('rnu', 'demo-agent');
    expectCleanUsageError(unknownCommand);
    expect(unknownCommand.stderr).toContain('unknown command "rnu"');
  });

  it('refuses an empty message to send in words, before looking for a daemon', () => {
    const r = specterm('send', 'd2', '');
    expectCleanUsageError(r);
    expect(r.stderr).toContain('specterm send: the message is empty');
    expect(r.stderr).not.toMatch(/Too small|>=|DAEMON_NOT_RUNNING/);
  });

  it('refuses record without -o and run with a missing --cwd', () => {
    const noOutput = specterm('record', 'demo-agent');
    expectCleanUsageError(noOutput);
    expect(noOutput.stderr).toContain('missing -o FILE.cast');

    const badCwd = specterm('run', 'demo-agent', '--cwd', path.join(tmp, 'nope'));
    expectCleanUsageError(badCwd);
    expect(badCwd.stderr).toContain('not an existing directory');
  });

  it('exits 1 from validate when a spec has errors, listing each error', () => {
    const file = path.join(tmp, 'broken.json');
    fs.writeFileSync(file, JSON.stringify({ $schema: 'adhdev:cli/spec@4', id: 'x', binary: 'x', send_message: { submit_key: '\r' }, states: [], transitions: [] }));
    const r = specterm('validate', 'demo-agent', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/demo-agent .*: ok/);
    expect(r.stdout).toMatch(/broken\.json: \d+ error\(s\)/);
    expect(r.stdout).toMatch(/\n {2}error: .*states/);
  });
});
