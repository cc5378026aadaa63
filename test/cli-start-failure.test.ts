/**
 * `specterm run` / `record` when the agent cannot be started (issue 12, item 4): exit 127 with
 * the binary's name and the directories searched, an existing recording never destroyed, and a
 * `--binary PATH` flag that makes the advice in that message true.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_AGENT, REPO_ROOT, runCli } from './helpers/cli.js';

const MISSING = path.join(REPO_ROOT, 'test/fixtures/specs/fake-agent-missing-binary.json');
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

function tempDir(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-cli-start-')));
  dirs.push(d);
  return d;
}

const pathDirs = () => (process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));

describe('a binary that is not installed', () => {
  it('makes run exit 127 naming the binary, the directories searched and the --binary flag', () => {
    const r = runCli(['run', MISSING], { env: { HOME: tempDir() } });
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('specterm run: cannot start the agent of spec fake-agent-missing-binary');
    expect(r.stderr).toContain('"definitely-not-installed-xyz" was not found');
    for (const d of pathDirs()) expect(r.stderr).toContain(d);
    expect(r.stderr).toContain('--binary PATH');
  });

  it("tells how to install the CLI when the spec says (its `install` command) — every built-in agent spec does, at its proven version", () => {
    const spec = { ...JSON.parse(fs.readFileSync(MISSING, 'utf8')), install: 'npm install -g definitely-not-installed-xyz@1.2.3' };
    const file = path.join(tempDir(), 'with-install.json');
    fs.writeFileSync(file, JSON.stringify(spec));
    const r = runCli(['run', file], { env: { HOME: tempDir() } });
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('"definitely-not-installed-xyz" was not found');
    expect(r.stderr).toContain('Install it with `npm install -g definitely-not-installed-xyz@1.2.3` or pass --binary PATH');
    const specsDir = path.join(REPO_ROOT, 'specs');
    for (const id of fs.readdirSync(specsDir).filter((d) => d !== 'demo-agent' && fs.existsSync(path.join(specsDir, d, 'spec.json')))) {
      const builtin = JSON.parse(fs.readFileSync(path.join(specsDir, id, 'spec.json'), 'utf8'));
      const proven = /^>=(\S+)/.exec(builtin.cli_version_range)?.[1];
      expect(builtin.install, id).toMatch(new RegExp(`^npm install -g \\S+@${proven!.replace(/\./g, '\\.')}$`));
    }
  });

  it('makes record exit 127 and leaves an existing recording at that path byte-identical, with no temp file', () => {
    const dir = tempDir();
    const cast = path.join(dir, 'keep.cast');
    const before = '{"version":2,"width":80,"height":24}\n[0.5,"o","precious"]\n';
    fs.writeFileSync(cast, before);
    const r = runCli(['record', MISSING, '-o', cast], { env: { HOME: tempDir() } });
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('definitely-not-installed-xyz');
    expect(r.stderr).not.toContain('recording written');
    expect(fs.readFileSync(cast, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['keep.cast']);
  });

  it('creates no recording file at all when the start fails and none existed', () => {
    const dir = tempDir();
    const r = runCli(['record', MISSING, '-o', path.join(dir, 'new.cast')], { env: { HOME: tempDir() } });
    expect(r.code).toBe(127);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a recording path that cannot be written', () => {
  it('is refused with exit 2 before the agent starts, and leaves nothing behind', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'x.cast'));
    const log = path.join(tempDir(), 'agent.log');
    const r = runCli(['record', path.join(REPO_ROOT, 'test/fixtures/specs/fake-agent.json'), '-o', path.join(dir, 'x.cast'), '--', FAKE_AGENT, '--log', log, '--exit-after-ms', '300'], { env: { HOME: tempDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot create recording .*x\.cast.*directory/);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(fs.readdirSync(dir)).toEqual(['x.cast']);
    expect(fs.existsSync(log)).toBe(false);
  });
});

describe('--binary PATH', () => {
  it('runs the agent from the given executable instead of the spec\'s binary', () => {
    const r = runCli(['run', MISSING, '--binary', process.execPath, '--', FAKE_AGENT, '--exit-after-ms', '300'], { env: { HOME: tempDir() } });
    expect(r.stderr).not.toContain('cannot start');
    expect(r.code).toBe(0);
  });

  it('records with a relative --binary resolved against the current directory', () => {
    const dir = tempDir();
    const link = path.join(dir, 'my-node');
    fs.symlinkSync(process.execPath, link);
    const cast = path.join(dir, 'session.cast');
    const r = runCli(['record', MISSING, '-o', cast, '--binary', './my-node', '--', FAKE_AGENT, '--exit-after-ms', '300'], { cwd: dir, env: { HOME: tempDir() } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`recording written to ${cast}`);
    expect(fs.readFileSync(cast, 'utf8').split('\n')[0]).toMatch(/^\{"version":2/);
  });

  it.each([
    ['a path that does not exist', () => path.join(tempDir(), 'nope'), /--binary .*nope: no such file/],
    ['a directory', () => tempDir(), /--binary .*: not a file/],
    ['a file that is not executable', () => { const f = path.join(tempDir(), 'agent'); fs.writeFileSync(f, '#!/bin/sh\n'); fs.chmodSync(f, 0o644); return f; }, /--binary .*agent: not executable.*chmod \+x/],
  ])('refuses %s with exit 2 before starting anything', (_what, make, why) => {
    const r = runCli(['run', MISSING, '--binary', make()], { env: { HOME: tempDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(why);
  });
});
