import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO_JSON } from './default-scenario.js';
import { parseScenario, selectRule } from './scenario.js';

describe('the bundled default scenario', () => {
  it('is identical to scenarios/default.json', () => {
    const file = JSON.parse(readFileSync(new URL('./scenarios/default.json', import.meta.url), 'utf8'));
    expect(DEFAULT_SCENARIO_JSON).toEqual(file);
  });

  it('is valid', () => {
    const result = parseScenario(DEFAULT_SCENARIO_JSON);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('runs an approval-gated Bash tool for a message about tests, and a plain answer for hello', () => {
    const result = parseScenario(DEFAULT_SCENARIO_JSON);
    if (!result.ok) throw new Error(result.errors.join('; '));
    const tests = selectRule(result.scenario, 'run the tests').steps;
    expect(tests).toContainEqual(expect.objectContaining({ tool: 'Bash', command: 'npm test', approval: true }));
    const hello = selectRule(result.scenario, 'hello').steps;
    expect(hello.every((s) => !('tool' in s))).toBe(true);
    const long = selectRule(result.scenario, 'long').steps.filter((s) => 'say' in s);
    expect(long.length).toBeGreaterThanOrEqual(4);
  });
});
