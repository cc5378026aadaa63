import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listBuiltinSpecs } from '../catalog/builtin.js';
import { matchesExpectation, parseExpectationFile, runSpecTestCase } from './spec-test.js';

const demo = listBuiltinSpecs().find((s) => s.id === 'demo-agent')!;
const castPath = path.join(path.dirname(demo.path), 'recordings', 'approve-yes.cast');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-spec-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function runWith(expect: unknown) {
  const expectPath = path.join(tmp, `${Math.random().toString(36).slice(2)}.expect.json`);
  fs.writeFileSync(expectPath, JSON.stringify(expect));
  return runSpecTestCase({ name: 'demo-agent/probe', specId: 'demo-agent', specPath: demo.path, castPath, expectPath });
}

describe('runSpecTestCase', () => {
  it('passes when the expected states occur in order, with gaps allowed', () => {
    const r = runWith({ sequence: [{ state: 'starting' }, { state: 'approval', modal: { buttons: [{ index: 1, label: 'Yes' }, "Yes, and don't ask again for npm commands", 'No, and tell Demo Agent what to do differently (esc)'] } }, { state: 'idle' }], final: { state: 'idle' } });
    expect(r.report).toMatch(/^ok /);
    expect(r.ok).toBe(true);
  });

  it('fails on an out-of-order sequence and prints expected, happened and the explain output', () => {
    const r = runWith({ sequence: [{ state: 'done' }, { state: 'approval' }] });
    expect(r.ok).toBe(false);
    expect(r.report).toContain('sequence[1] was not seen after change');
    expect(r.report).toContain('expected: {"state":"approval"}');
    expect(r.report).toContain('happened instead:');
    expect(r.report).toContain('Transitions from');
    expect(r.report).toContain('Screen (80x24');
  });

  it('fails an at-check with the state that was in force', () => {
    const r = runWith({ at: [{ t: 0.5, state: 'idle' }] });
    expect(r.ok).toBe(false);
    expect(r.report).toContain('at[0]: at 0.5 s');
    expect(r.report).toMatch(/happened: +0\.000 s {2}starting \(idle\)/);
  });

  it('rejects an expectation file with unknown keys, naming the field', () => {
    const r = runWith({ sequence: [{ stat: 'idle' }] });
    expect(r.ok).toBe(false);
    expect(r.report).toContain('sequence[0].stat is not a known key');
  });
});

describe('parseExpectationFile', () => {
  it('names the file and the problem for bad JSON and empty checks', () => {
    expect(parseExpectationFile('{', 'x.expect.json')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^x\.expect\.json: not valid JSON/)] });
    expect(parseExpectationFile('{}', 'x.expect.json')).toMatchObject({ ok: false, errors: ['x.expect.json: nothing to check: give sequence, at, final or signals'] });
    expect(parseExpectationFile('{"at":[{"state":"idle"}]}', 'x')).toMatchObject({ ok: false, errors: ['x: at[0].t must be a time in seconds >= 0, got undefined'] });
  });
});

describe('matchesExpectation', () => {
  it('checks only the keys that are given; modal null means no modal', () => {
    const rec = { t: 1, state: 'busy', status: 'generating', modal: null };
    expect(matchesExpectation({ status: 'generating' }, rec)).toBe(true);
    expect(matchesExpectation({ state: 'busy', modal: null }, rec)).toBe(true);
    expect(matchesExpectation({ modal: { title: 'x' } }, rec)).toBe(false);
  });
});

describe('signals in an expectation file', () => {
  const pi = listBuiltinSpecs().find((s) => s.id === 'pi')!;
  const apiErrorCast = path.join(path.dirname(pi.path), 'recordings', 'api-error.cast');
  function runPi(expect: unknown) {
    const expectPath = path.join(tmp, `${Math.random().toString(36).slice(2)}.expect.json`);
    fs.writeFileSync(expectPath, JSON.stringify(expect));
    return runSpecTestCase({ name: 'pi/probe', specId: 'pi', specPath: pi.path, castPath: apiErrorCast, expectPath });
  }

  it('passes when a signal in seen is raised and one in never is not', () => {
    const r = runPi({ signals: { seen: ['api_error'], never: ['rate_limited'] } });
    expect(r.report).toMatch(/^ok /);
  });

  it('fails a seen signal that never came, listing what was raised', () => {
    const r = runPi({ signals: { seen: ['rate_limited'] } });
    expect(r.ok).toBe(false);
    expect(r.report).toMatch(/signals\.seen: "rate_limited" was never raised\n {2}raised: api_error at \d+\.\d+ s/);
  });

  it('fails a never signal that came, with the explanation at that instant', () => {
    const r = runPi({ signals: { never: ['api_error'] } });
    expect(r.ok).toBe(false);
    expect(r.report).toMatch(/signals\.never: "api_error" was raised at \d+\.\d+ s/);
    expect(r.report).toContain('Screen (');
  });

  it('names an id the spec does not declare, and a malformed signals object', () => {
    expect(runPi({ signals: { seen: ['api_eror'] } }).report).toContain('the spec declares no signal "api_eror" (it has: rate_limited, api_error); fix the id');
    expect(parseExpectationFile('{"signals":{"seen":"api_error"}}', 'x')).toMatchObject({ ok: false, errors: ['x: signals.seen must be an array of signal ids (the ids of the spec\'s "signal_rules"), got "api_error"'] });
    expect(parseExpectationFile('{"signals":{"saw":[]}}', 'x')).toMatchObject({ ok: false, errors: ['x: signals.saw is not a known key (use seen, never)'] });
    expect(parseExpectationFile('{"signals":{"seen":["a"],"never":["a"]}}', 'x')).toMatchObject({ ok: false, errors: ['x: signals: "a" is both in seen and in never; keep it in one'] });
  });
});
