import { describe, expect, it } from 'vitest';
import { parseScenario, parseScenarioText, selectRule, DEFAULT_WPM } from './scenario.js';

const minimal = { model: 'm1', rules: [{ match: 'hi', steps: [{ say: 'hello' }] }] };

describe('parseScenario', () => {
  it('accepts a minimal scenario and fills defaults', () => {
    const result = parseScenario(minimal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.models).toEqual([{ name: 'm1' }]);
    expect(result.scenario.verbs.length).toBeGreaterThan(0);
    expect(result.scenario.rules[0].steps).toEqual([{ say: 'hello' }]);
  });

  it('normalises a tool step with approval, output and default fields', () => {
    const result = parseScenario({ model: 'm', rules: [{ steps: [{ tool: 'Bash', command: 'npm test', approval: true }] }] });
    expect(result.ok && result.scenario.rules[0].steps[0]).toEqual({ tool: 'Bash', command: 'npm test', approval: true, output: [] });
  });

  it('names the field path, the value and the fix for a bad step field', () => {
    const result = parseScenario({ model: 'm', rules: [{ match: 'x', steps: [{ think_ms: 5 }, { say: 'a', wpm: 'fast' }] }] });
    expect(result).toEqual({ ok: false, errors: ['rules[0].steps[1].wpm must be a positive number, got "fast"'] });
  });

  it('rejects a step that does two things or none', () => {
    const result = parseScenario({ model: 'm', rules: [{ steps: [{ say: 'a', error: 'b' }, { wait: 1 }] }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatch(/^rules\[0\]\.steps\[0\] must have exactly one of .* \(found say and error\)/);
    expect(result.errors[1]).toMatch(/^rules\[0\]\.steps\[1\] must have exactly one of .* \(found none of them\)/);
  });

  it('rejects unknown fields but tolerates _documentation keys', () => {
    const result = parseScenario({ _note: 'ok', model: 'm', rules: [{ _why: 'ok', steps: [{ say: 'a', speed: 3 }] }] });
    expect(result).toEqual({ ok: false, errors: ['rules[0].steps[0].speed is not a field of a say step (allowed: say, wpm)'] });
  });

  it('reports an invalid match regex', () => {
    const result = parseScenario({ model: 'm', rules: [{ match: '(', steps: [{ say: 'a' }] }] });
    expect(!result.ok && result.errors[0]).toMatch(/^rules\[0\]\.match "\(" is not a valid regex/);
  });

  it('requires the active model to be listed in models', () => {
    const result = parseScenario({ model: 'x', models: ['a', 'b'], rules: [{ steps: [{ say: 'a' }] }] });
    expect(result).toEqual({ ok: false, errors: ['model "x" is not in models (a, b); add it to models'] });
  });

  it('refuses a default rule that is not last', () => {
    const result = parseScenario({ model: 'm', rules: [{ steps: [{ say: 'a' }] }, { match: 'b', steps: [{ say: 'b' }] }] });
    expect(!result.ok && result.errors[0]).toMatch(/^rules\[0\] has no match .* move it to the end/);
  });

  it('reports a non-object root and missing rules', () => {
    expect(parseScenario([])).toEqual({ ok: false, errors: ['the scenario must be a JSON object {"model": …, "rules": […]}, got an array'] });
    const result = parseScenario({ model: 'm' });
    expect(!result.ok && result.errors).toEqual(['rules must be a non-empty array of {"match", "steps"} rules, got nothing']);
  });
});

describe('parseScenarioText', () => {
  it('prefixes errors with the source name and reports JSON syntax errors', () => {
    const bad = parseScenarioText('{', 'demo.json');
    expect(!bad.ok && bad.errors[0]).toMatch(/^demo\.json: not valid JSON \(.*\); fix the syntax$/);
    const invalid = parseScenarioText('{"model": 1, "rules": []}', 'demo.json');
    expect(!invalid.ok && invalid.errors[0]).toBe('demo.json: model must be a non-empty string, got number 1');
  });
});

describe('selectRule', () => {
  const parsed = parseScenario({
    model: 'm',
    rules: [
      { match: 'test', steps: [{ say: 'tests' }] },
      { match: 'TEST', flags: '', steps: [{ say: 'never reached case-sensitively first' }] },
      { steps: [{ say: 'default' }] },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const scenario = parsed.scenario;

  it('picks the first matching rule, case-insensitively by default', () => {
    expect(selectRule(scenario, 'Run the TESTS').steps).toEqual([{ say: 'tests' }]);
  });

  it('falls through to the default rule', () => {
    expect(selectRule(scenario, 'something else').steps).toEqual([{ say: 'default' }]);
  });

  it('answers with a built-in reply when nothing matches and there is no default', () => {
    const only = parseScenario({ model: 'm', rules: [{ match: 'x', steps: [{ say: 'x' }] }] });
    if (!only.ok) throw new Error('unexpected');
    const steps = selectRule(only.scenario, 'zzz').steps;
    expect(steps.some((s) => 'say' in s && s.say.includes('scripted answer'))).toBe(true);
  });

  it('exports a sane default pace', () => {
    expect(DEFAULT_WPM).toBe(600);
  });
});
