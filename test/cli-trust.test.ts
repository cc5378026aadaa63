/**
 * `specterm run` shows every pre-launch trust outcome that changes, or refuses to change, a
 * user's settings file (issue 12, item 5): the real command as a child process, a private HOME,
 * the fake agent under a spec with `pre_launch_trust: codex_toml_file`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_AGENT, REPO_ROOT, runCli } from './helpers/cli.js';

const SPEC = path.join(REPO_ROOT, 'test/fixtures/specs/fake-agent-codex-trust.json');
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

/** A private HOME and project; `config` (when given) is written to ~/.codex/config.toml. */
function setUp(config?: { text: string; mode?: number }): { home: string; project: string; configFile: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-cli-trust-')));
  dirs.push(base);
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  fs.mkdirSync(project, { recursive: true });
  const configFile = path.join(home, '.codex', 'config.toml');
  if (config) {
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(configFile, config.text);
    fs.chmodSync(configFile, config.mode ?? 0o644);
  }
  return { home, project, configFile };
}

function runAgent(home: string, project: string, extra: string[] = []) {
  return runCli(['run', SPEC, '--cwd', project, ...extra, '--', FAKE_AGENT, '--exit-after-ms', '300'], { env: { HOME: home } });
}

/** The stderr lines about pre-launch trust. */
const trustLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes('pre-launch trust'));

describe('specterm run reports pre-launch trust', () => {
  it('says which file it changed when it records the trust', () => {
    const { home, project, configFile } = setUp();
    const r = runAgent(home, project);
    expect(r.code).toBe(0);
    expect(trustLines(r.stderr)).toEqual([expect.stringMatching(new RegExp(`^specterm run: pre-launch trust: marked ${project} as trusted in ${configFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))]);
    expect(fs.readFileSync(configFile, 'utf8')).toContain('trust_level = "trusted"');
  });

  it('says nothing when the folder is already trusted', () => {
    const { home, project } = setUp();
    runAgent(home, project);
    const r = runAgent(home, project);
    expect(r.code).toBe(0);
    expect(trustLines(r.stderr)).toEqual([]);
  });

  it.each([
    ['not valid TOML', { text: 'model = "o3"\nthis is not toml\n' }, /not valid TOML .*line 2.*left untouched/],
    ['read-only', { text: 'model = "o3"\n', mode: 0o444 }, /read-only.*left untouched.*chmod u\+w/],
    ['explicitly untrusted', { text: '[ projects."PROJECT" ]\ntrust_level = "untrusted"\n' }, /marks .* as not trusted.*left as it is/],
  ] as Array<[string, { text: string; mode?: number }, RegExp]>)('names the file, why it was left alone, and the fix, when it is %s; the agent still runs', (_what, config, why) => {
    const { home, project, configFile } = setUp({ text: 'placeholder' });
    const text = config.text.replace('PROJECT', project);
    fs.writeFileSync(configFile, text);
    fs.chmodSync(configFile, config.mode ?? 0o644);
    const r = runAgent(home, project);
    expect(r.code).toBe(0);
    const lines = trustLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(configFile);
    expect(lines[0]).toMatch(why);
    expect(lines[0]).toMatch(/--no-trust|by hand/);
    expect(fs.readFileSync(configFile, 'utf8')).toBe(text);
  });

  it('touches nothing and says nothing with --no-trust', () => {
    const { home, project, configFile } = setUp();
    const r = runAgent(home, project, ['--no-trust']);
    expect(r.code).toBe(0);
    expect(trustLines(r.stderr)).toEqual([]);
    expect(fs.existsSync(configFile)).toBe(false);
  });
});
