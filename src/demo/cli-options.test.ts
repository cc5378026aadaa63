import { describe, expect, it } from 'vitest';
import { formatUsage, parseDemoArgs } from './cli-options.js';

describe('parseDemoArgs', () => {
  it('has defaults that show the trust prompt at normal speed', () => {
    const result = parseDemoArgs([]);
    expect(result).toMatchObject({ ok: true, options: { speed: 1, seed: 1, trustPrompt: true, focusGated: false, scenarioPath: undefined } });
  });

  it('reads values in both --flag value and --flag=value form', () => {
    const result = parseDemoArgs(['--speed', '0.2', '--seed=7', '--settings=/tmp/s.json', '--scenario', 'a.json', '--no-trust-prompt', '--focus-gated', '--freeze-on-focus-loss']);
    expect(result).toEqual({
      ok: true,
      options: { speed: 0.2, seed: 7, settingsPath: '/tmp/s.json', scenarioPath: 'a.json', trustPrompt: false, focusGated: true, freezeOnFocusLoss: true, help: false, version: false },
    });
  });

  it('explains bad input', () => {
    expect(parseDemoArgs(['--speed', '0'])).toEqual({ ok: false, error: '--speed must be a positive number such as 0.2, got "0"' });
    expect(parseDemoArgs(['--seed', '1.5'])).toEqual({ ok: false, error: '--seed must be an integer, got "1.5"' });
    expect(parseDemoArgs(['--bogus'])).toEqual({ ok: false, error: 'unknown argument "--bogus"; run with --help for the options' });
    expect(parseDemoArgs(['--scenario'])).toEqual({ ok: false, error: '--scenario needs a value (FILE)' });
    expect(parseDemoArgs(['--focus-gated=yes'])).toEqual({ ok: false, error: '--focus-gated takes no value, got "yes"' });
  });

  it('lists every flag in the usage text', () => {
    const usage = formatUsage();
    for (const flag of ['--scenario FILE', '--speed N', '--seed N', '--settings FILE', '--no-trust-prompt', '--focus-gated', '--freeze-on-focus-loss']) {
      expect(usage).toContain(flag);
    }
  });
});
