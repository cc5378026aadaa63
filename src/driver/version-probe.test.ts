import * as os from 'node:os';
import { describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../core/spec/types.js';
import type { DashboardEvent } from './events.js';
import { checkCliVersion, judgeVersion, readVersion } from './version-probe.js';
import { harness, baseSpec } from '../../test/helpers/driver-harness.js';

const NODE = process.execPath;
const printing = (text: string) => ({ args: ['-e', `console.log(${JSON.stringify(text)})`] });

describe('reading and judging a CLI version', () => {
  it('takes the first group of the regex, else the first x.y.z', () => {
    expect(readVersion('codex-cli 0.171.0\n', { args: [] })).toBe('0.171.0');
    expect(readVersion('node 20.1.0, codex 0.172.3', { args: [], regex: 'codex (\\S+)' })).toBe('0.172.3');
    expect(readVersion('no digits here', { args: [] })).toBeNull();
  });

  it('is proven inside the range, outside past it, unreadable without a version or a parseable range', () => {
    expect(judgeVersion('0.171.0', '>=0.171.0 <=0.171.0').verdict).toBe('proven');
    expect(judgeVersion('0.172.0', '>=0.171.0 <=0.171.0')).toEqual({ found: '0.172.0', range: '>=0.171.0 <=0.171.0', verdict: 'outside' });
    expect(judgeVersion(null, '>=1').verdict).toBe('unreadable');
    expect(judgeVersion('1.0.0', 'soon').verdict).toBe('unreadable');
  });

  it('runs the real binary (no shell) and survives one that does not exist', async () => {
    expect(await checkCliVersion(NODE, printing('codex-cli 0.171.0'), '>=0.171.0 <=0.171.0', process.env, os.tmpdir())).toMatchObject({ verdict: 'proven', found: '0.171.0' });
    const missing = await checkCliVersion('/nonexistent/codex', { args: ['--version'] }, '>=1', process.env, os.tmpdir());
    expect(missing.verdict).toBe('unreadable');
    expect(missing.reason).toMatch(/\/nonexistent\/codex --version failed/);
  });
});

describe('the driver reports a version outside the proven range', () => {
  function versionedSpec(range: string): CliSpecV4 {
    return baseSpec({ cli_version_range: range, cli_version: printing('agent 2.5.0') } as Partial<CliSpecV4>);
  }
  const plan = { file: NODE, args: [], cwd: os.tmpdir(), env: { ...process.env } as Record<string, string>, cols: 60, rows: 16, resolvedBinary: NODE, viaShell: false, argvForDisplay: ['node'] };

  async function versionEvents(range: string): Promise<DashboardEvent[]> {
    const h = harness(versionedSpec(range), { spawnPlan: plan, checkVersion: true });
    const logged = new Promise<void>((resolve) => h.driver.subscribe((e) => { if (e.kind === 'version_unproven' || (e.kind === 'log' && e.message.startsWith('cli version'))) resolve(); }));
    h.driver.start();
    await logged;
    h.driver.shutdown();
    return h.events.filter((e) => e.kind === 'version_unproven' || (e.kind === 'log' && e.message.startsWith('cli version')));
  }

  it('emits version_unproven with what it found and the range, and the session keeps running', async () => {
    const events = await versionEvents('>=1.0.0 <2.0.0');
    expect(events).toEqual([{ kind: 'version_unproven', found: '2.5.0', range: '>=1.0.0 <2.0.0', verdict: 'outside' }]);
  });

  it('only logs a version inside the range', async () => {
    const events = await versionEvents('>=2.0.0 <3.0.0');
    expect(events).toEqual([{ kind: 'log', level: 'info', message: 'cli version 2.5.0 is in the proven range >=2.0.0 <3.0.0' }]);
  });

  it('does not probe a driver given its spawn plan unless asked (replays have no binary to ask)', async () => {
    const h = harness(versionedSpec('>=1.0.0 <2.0.0'), { spawnPlan: plan });
    h.driver.start();
    // Longer than the probes above take (under a second each).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(h.events.filter((e) => e.kind === 'version_unproven' || (e.kind === 'log' && e.message.startsWith('cli version')))).toEqual([]);
    h.driver.shutdown();
  });
});
