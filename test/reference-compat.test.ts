/**
 * Reference-compatible loading (issue 12, item 10): a spec the reference loader accepts loads in
 * specterm — checks the reference does not make are warnings — and replays as the reference
 * would run it; `specterm validate --strict` refuses the same spec.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpec, loadSpecFromText } from '../src/catalog/index.js';
import { evaluateFsm } from '../src/core/eval/index.js';
import { main } from '../src/cli/main.js';
import { createMemoryIo } from '../src/cli/io.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(root, 'test/fixtures/specs/reference-compatible');
const BAD_SECTION_REGEX = path.join(FIXTURES, 'bad-section-regex.json');
const FROM_TOP_NOT_A_NUMBER = path.join(FIXTURES, 'from-top-not-a-number.json');

/** A 40×10 recording: a welcome line, then "Working" at `row` (1-based), then a cleared screen. */
function castWithWorkingAt(row: number) {
  const lines = [
    JSON.stringify({ version: 2, width: 40, height: 10 }),
    JSON.stringify([0.0, 'o', 'Welcome\r\n']),
    JSON.stringify([1.0, 'o', `\u001b[${row};1HWorking (3s)`]),
    JSON.stringify([3.0, 'o', '\u001b[2J\u001b[HDone\r\n']),
  ];
  return parseAsciicast(`${lines.join('\n')}\n`, 'inline.cast');
}

function statesOf(specPath: string, row: number): string[] {
  const loaded = loadSpec(specPath);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const run = replaySession({ cast: castWithWorkingAt(row), spec: loaded.spec, tailMs: 2_000 });
  run.driver.shutdown();
  return run.changes.map((c) => c.state);
}

async function validate(...args: string[]) {
  const io = createMemoryIo({ cwd: root });
  const code = await main(['validate', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('a spec whose section anchor does not compile (accepted by the reference)', () => {
  it('loads with a strict-only warning naming the section regex', () => {
    const r = loadSpec(BAD_SECTION_REGEX);
    expect(r.ok, JSON.stringify(r.issues, null, 2)).toBe(true);
    expect(r.issues).toContainEqual(expect.objectContaining({ code: 'SPEC_BAD_REGEX', path: 'sections.status.anchor', severity: 'warning', strictOnly: true }));
    expect(r.warnings.join('\n')).toContain('an error under --strict');
  });

  it('replays as the reference runs it: the broken anchor block is abandoned and the section is the whole screen, despite anchor_miss "empty"', () => {
    expect(statesOf(BAD_SECTION_REGEX, 2)).toEqual(['starting', 'idle', 'busy', 'idle']);
  });

  it('is refused by strict loading and by validate --strict (exit 1, the error listed)', async () => {
    const strict = loadSpec(BAD_SECTION_REGEX, { strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.issues).toContainEqual(expect.objectContaining({ code: 'SPEC_BAD_REGEX', path: 'sections.status.anchor', severity: 'error', strictOnly: true }));
    const r = await validate('--strict', BAD_SECTION_REGEX);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/error: sections\.status\.anchor: invalid regex/);
    const lenient = await validate(BAD_SECTION_REGEX);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toMatch(/ok, 1 warning\(s\)/);
  });
});

describe('a spec with from_top "abc" and from_bottom "3" (accepted by the reference)', () => {
  it('loads with strict-only SPEC_BAD_SIZE warnings for both sizes', () => {
    const r = loadSpec(FROM_TOP_NOT_A_NUMBER);
    expect(r.ok, JSON.stringify(r.issues, null, 2)).toBe(true);
    expect(r.issues).toContainEqual(expect.objectContaining({ code: 'SPEC_BAD_SIZE', path: 'sections.rest.from_top', severity: 'warning', strictOnly: true }));
    expect(r.issues).toContainEqual(expect.objectContaining({ code: 'SPEC_BAD_SIZE', path: 'sections.tail.from_bottom', severity: 'warning', strictOnly: true }));
  });

  it('replays as the reference runs it: "abc" skips 0 lines (whole screen) and "3" keeps 0 lines (not coerced to 3)', () => {
    // "Working" on the last row: a from_bottom coerced to 3 lines would see it and win (priority 10).
    expect(statesOf(FROM_TOP_NOT_A_NUMBER, 10)).toEqual(['starting', 'idle', 'busy']);
  });

  it('is refused by validate --strict with both errors', async () => {
    const r = await validate('--strict', FROM_TOP_NOT_A_NUMBER);
    expect(r.code).toBe(1);
    expect(r.out).toContain('error: sections.rest.from_top');
    expect(r.out).toContain('error: sections.tail.from_bottom');
  });
});

describe('validate --json', () => {
  it('prints every issue of every spec as {path, code, message, severity} on one JSON document', async () => {
    const r = await validate('--json', '--strict', BAD_SECTION_REGEX, 'demo-agent');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out) as { specs: Array<{ ref: string; path: string; ok: boolean; issues: Array<Record<string, unknown>> }> };
    expect(doc.specs).toHaveLength(2);
    expect(doc.specs[0]).toMatchObject({ ok: false, path: BAD_SECTION_REGEX });
    expect(doc.specs[0]!.issues).toContainEqual(expect.objectContaining({ path: 'sections.status.anchor', code: 'SPEC_BAD_REGEX', severity: 'error' }));
    expect(doc.specs[1]).toMatchObject({ ref: 'demo-agent', ok: true });
  });
});

describe('negative waits (min_hold_ms, elapsed_ms, stable_ms; the reference checks no range)', () => {
  const spec = {
    $schema: 'adhdev:cli/spec@4',
    id: 'negative-waits',
    binary: 'x',
    send_message: { submit_key: '\r' },
    states: [
      { id: 'starting', label: 'Starting', initial: true },
      { id: 'idle', label: 'Idle' },
      { id: 'busy', label: 'Busy', status: 'generating' },
    ],
    transitions: [
      { from: 'starting', to: 'idle', min_hold_ms: -5, when: { elapsed_ms: -1 } },
      { from: 'idle', to: 'busy', when: { stable_ms: -1 } },
    ],
  };

  it('load with strict-only warnings and fire on the first frame in the state, as "now - entered >= n" does in the reference', () => {
    const r = loadSpecFromText(JSON.stringify(spec), 'negative-waits.json');
    expect(r.ok, JSON.stringify(r.issues, null, 2)).toBe(true);
    if (!r.ok) return;
    expect(r.issues.filter((i) => i.strictOnly).map((i) => i.path)).toEqual(['transitions[0].when.elapsed_ms', 'transitions[0].min_hold_ms', 'transitions[1].when.stable_ms']);
    const clock = { now: 1_000, stateEnteredAt: 1_000, regionLastChangedAt: new Map<number | string, number>() };
    expect(evaluateFsm(r.spec, 'starting', 'Welcome', undefined, undefined, clock).fired?.to).toBe('idle');
    expect(evaluateFsm(r.spec, 'idle', 'Welcome', undefined, ['Welcome'], clock).fired?.to).toBe('busy');
    expect(loadSpecFromText(JSON.stringify(spec), 'negative-waits.json', { strict: true }).ok).toBe(false);
  });
});
