/**
 * Spec tests: every built-in spec ships recordings (`specs/<id>/recordings/<name>.cast`) with
 * expectations (`<name>.expect.json`); this engine replays each recording through the real
 * driver in virtual time and checks the expectations. `specterm test` and
 * `test/spec-recordings.test.ts` both run it. The expectation format is documented in
 * docs/cli.md.
 *
 * @module
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listBuiltinSpecs, loadSpecRef } from '../catalog/builtin.js';
import type { ModalView } from '../driver/events.js';
import { parseAsciicast, RecordingError, type Asciicast } from '../recording/index.js';
import { explainReplayAt, formatExplanation, formatSeconds, summarizeModal } from './explain.js';
import { replaySession, type StateChangeRecord } from './replay-session.js';

/** Expected modal: every given key must match; `buttons` as labels (in order) or `{index, label}`. */
export interface ModalExpectation {
  title?: string | null;
  buttons?: Array<string | { index: number; label: string }>;
  kind?: string | null;
}

/** One expected state: every given key must match (at least one is required). */
export interface StateExpectation {
  state?: string;
  status?: string;
  /** `null` = no modal; an object = a modal matching it; absent = not checked. */
  modal?: ModalExpectation | null;
}

/** A point check: the state in force at `t` seconds (the last change at or before `t`). */
export interface AtExpectation extends StateExpectation {
  t: number;
}

/** The content of `<name>.expect.json`. */
export interface ExpectationFile {
  description?: string;
  /** Virtual time after the last event (ms); default the replay default (10 000). */
  tail_ms?: number;
  /** Expected changes, matched in order as a subsequence of the replay's changes. */
  sequence?: StateExpectation[];
  at?: AtExpectation[];
  /** The state after the tail (the last change). */
  final?: StateExpectation;
  /** Signal ids (the spec's `signal_rules`) the replay must raise at least once, and must never raise. */
  signals?: { seen?: string[]; never?: string[] };
}

/** One recording with expectations. */
export interface SpecTestCase {
  /** `<spec-id>/<recording name>`. */
  name: string;
  specId: string;
  specPath: string;
  castPath: string;
  expectPath: string;
}

/** Outcome of one case. */
export interface SpecTestResult {
  case: SpecTestCase;
  ok: boolean;
  /** The replay's changes (empty when the files could not be read). */
  changes: StateChangeRecord[];
  /** On failure: what was expected, what happened, and the explain output at that time. */
  report: string;
}

/** The recordings of one spec folder that have a sibling `.expect.json`, sorted by name. */
export function findSpecTestCases(specId: string, specPath: string): SpecTestCase[] {
  const dir = path.join(path.dirname(specPath), 'recordings');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.cast') && names.includes(`${n.slice(0, -'.cast'.length)}.expect.json`))
    .sort()
    .map((n) => {
      const base = n.slice(0, -'.cast'.length);
      return { name: `${specId}/${base}`, specId, specPath, castPath: path.join(dir, n), expectPath: path.join(dir, `${base}.expect.json`) };
    });
}

/**
 * The cases of the named specs (built-in ids or spec file paths), or of every built-in spec.
 * Unknown references are returned in `errors` (with the known ids).
 */
export function discoverSpecTests(refs?: readonly string[]): { cases: SpecTestCase[]; errors: string[] } {
  const errors: string[] = [];
  const specs: Array<{ id: string; path: string }> = [];
  if (!refs || refs.length === 0) {
    specs.push(...listBuiltinSpecs());
  } else {
    for (const ref of refs) {
      const r = loadSpecRef(ref);
      if (!r.ok) { errors.push(r.errors[0] ?? `cannot load spec ${ref}`); continue; }
      specs.push({ id: r.builtinId ?? r.spec.id, path: path.resolve(r.sourcePath) });
    }
  }
  return { cases: specs.flatMap((s) => findSpecTestCases(s.id, s.path)), errors };
}

// ── Reading an expectation file ──────────────────────────────────────────

const STATE_KEYS = ['state', 'status', 'modal'];

function checkState(v: unknown, where: string, errors: string[], extraKeys: string[] = []): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) { errors.push(`${where} must be an object like {"state": "idle"}, got ${JSON.stringify(v)}`); return; }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (![...STATE_KEYS, ...extraKeys].includes(k)) errors.push(`${where}.${k} is not a known key (use ${[...STATE_KEYS, ...extraKeys].join(', ')})`);
  if (!STATE_KEYS.some((k) => k in o)) errors.push(`${where} checks nothing; give at least one of state, status, modal`);
  if ('state' in o && typeof o.state !== 'string') errors.push(`${where}.state must be a state id string, got ${JSON.stringify(o.state)}`);
  if ('status' in o && typeof o.status !== 'string') errors.push(`${where}.status must be a string such as "idle", got ${JSON.stringify(o.status)}`);
  if ('modal' in o && o.modal !== null) {
    const m = o.modal;
    if (typeof m !== 'object' || Array.isArray(m) || m === null) { errors.push(`${where}.modal must be null or an object {title?, buttons?, kind?}, got ${JSON.stringify(m)}`); return; }
    const mo = m as Record<string, unknown>;
    for (const k of Object.keys(mo)) if (!['title', 'buttons', 'kind'].includes(k)) errors.push(`${where}.modal.${k} is not a known key (use title, buttons, kind)`);
    if ('title' in mo && mo.title !== null && typeof mo.title !== 'string') errors.push(`${where}.modal.title must be a string or null`);
    if ('kind' in mo && mo.kind !== null && typeof mo.kind !== 'string') errors.push(`${where}.modal.kind must be a string or null`);
    if ('buttons' in mo) {
      if (!Array.isArray(mo.buttons)) errors.push(`${where}.modal.buttons must be an array of labels or {index, label}`);
      else mo.buttons.forEach((b, i) => {
        const ok = typeof b === 'string' || (typeof b === 'object' && b !== null && typeof (b as { index?: unknown }).index === 'number' && typeof (b as { label?: unknown }).label === 'string');
        if (!ok) errors.push(`${where}.modal.buttons[${i}] must be a label string or {"index": n, "label": "…"}, got ${JSON.stringify(b)}`);
      });
    }
  }
}

/** Parses and checks an expectation file; errors name the file and the field. */
export function parseExpectationFile(text: string, source: string): { ok: true; value: ExpectationFile } | { ok: false; errors: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [`${source}: not valid JSON (${(err as Error).message}); fix the syntax`] };
  }
  const errors: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, errors: [`${source}: the top level must be an object with sequence/at/final`] };
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['description', 'tail_ms', 'sequence', 'at', 'final', 'signals', '_note'].includes(k)) errors.push(`${k} is not a known key (use description, tail_ms, sequence, at, final, signals)`);
  if ('tail_ms' in o && (typeof o.tail_ms !== 'number' || o.tail_ms < 0)) errors.push(`tail_ms must be a number of milliseconds >= 0, got ${JSON.stringify(o.tail_ms)}`);
  if ('sequence' in o) {
    if (!Array.isArray(o.sequence)) errors.push('sequence must be an array of {state?, status?, modal?}');
    else o.sequence.forEach((s, i) => checkState(s, `sequence[${i}]`, errors));
  }
  if ('at' in o) {
    if (!Array.isArray(o.at)) errors.push('at must be an array of {t, state?, status?, modal?}');
    else o.at.forEach((s, i) => {
      checkState(s, `at[${i}]`, errors, ['t']);
      const t = (s as { t?: unknown })?.t;
      if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) errors.push(`at[${i}].t must be a time in seconds >= 0, got ${JSON.stringify(t)}`);
    });
  }
  if ('final' in o) checkState(o.final, 'final', errors);
  if ('signals' in o) checkSignals(o.signals, errors);
  if (!('sequence' in o) && !('at' in o) && !('final' in o) && !('signals' in o)) errors.push('nothing to check: give sequence, at, final or signals');
  return errors.length ? { ok: false, errors: errors.map((e) => `${source}: ${e}`) } : { ok: true, value: o as ExpectationFile };
}

function checkSignals(raw: unknown, errors: string[]): void {
  const shape = 'signals must be an object {"seen"?: ["<signal id>", …], "never"?: [...]}';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) { errors.push(`${shape}, got ${JSON.stringify(raw)}`); return; }
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'seen' && k !== 'never') errors.push(`signals.${k} is not a known key (use seen, never)`);
  for (const k of ['seen', 'never'] as const) {
    if (!(k in o)) continue;
    const ids = o[k];
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === '')) errors.push(`signals.${k} must be an array of signal ids (the ids of the spec's "signal_rules"), got ${JSON.stringify(ids)}`);
  }
  const seen = Array.isArray(o.seen) ? o.seen : [];
  for (const id of Array.isArray(o.never) ? o.never : []) if (seen.includes(id)) errors.push(`signals: ${JSON.stringify(id)} is both in seen and in never; keep it in one`);
}

// ── Matching ─────────────────────────────────────────────────────────────

function modalMatches(exp: ModalExpectation | null, got: ModalView | null): boolean {
  if (exp === null) return got === null;
  if (got === null) return false;
  if ('title' in exp && exp.title !== got.title) return false;
  if ('kind' in exp && exp.kind !== got.kind) return false;
  if (exp.buttons) {
    if (exp.buttons.length !== got.buttons.length) return false;
    return exp.buttons.every((b, i) => {
      const g = got.buttons[i]!;
      return typeof b === 'string' ? b === g.label : b.index === g.index && b.label === g.label;
    });
  }
  return true;
}

/** Whether a change satisfies an expectation (only the keys the expectation gives). */
export function matchesExpectation(exp: StateExpectation, got: StateChangeRecord): boolean {
  if (exp.state !== undefined && exp.state !== got.state) return false;
  if (exp.status !== undefined && exp.status !== got.status) return false;
  if (exp.modal !== undefined && !modalMatches(exp.modal, got.modal)) return false;
  return true;
}

function describeExpectation(exp: StateExpectation): string {
  return JSON.stringify({ state: exp.state, status: exp.status, modal: exp.modal });
}

function describeChange(c: StateChangeRecord): string {
  return `${c.t.toFixed(3).padStart(8)} s  ${c.state} (${c.status})  modal ${summarizeModal(c.modal)}`;
}

function indent(text: string, by = '    '): string {
  return text.trimEnd().split('\n').map((l) => `${by}${l}`).join('\n');
}

/** The change in force at `tMs` (the last one at or before it). */
function changeAt(changes: readonly StateChangeRecord[], tMs: number): StateChangeRecord | undefined {
  let hit: StateChangeRecord | undefined;
  for (const c of changes) if (Math.round(c.t * 1000) <= tMs) hit = c;
  return hit;
}

/** Runs one case. Never throws: unreadable files become a failed result naming the file and line. */
export function runSpecTestCase(c: SpecTestCase): SpecTestResult {
  const fail = (report: string, changes: StateChangeRecord[] = []): SpecTestResult => ({ case: c, ok: false, changes, report: `FAIL ${c.name}\n${report}` });
  let cast: Asciicast;
  let expect: ExpectationFile;
  try {
    cast = parseAsciicast(fs.readFileSync(c.castPath, 'utf8'), { source: c.castPath });
    const e = parseExpectationFile(fs.readFileSync(c.expectPath, 'utf8'), c.expectPath);
    if (!e.ok) return fail(indent(e.errors.join('\n')));
    expect = e.value;
  } catch (err) {
    return fail(indent(err instanceof RecordingError || err instanceof Error ? err.message : String(err)));
  }
  const loaded = loadSpecRef(c.specPath);
  if (!loaded.ok) return fail(indent(`spec ${c.specPath} is invalid:\n${loaded.errors.join('\n')}`));
  const spec = loaded.spec;

  const raised = new Map<string, number>();
  const r = replaySession({
    cast, spec, specPath: c.specPath, tailMs: expect.tail_ms,
    onEvent: (ev, atMs) => { if (ev.kind === 'signal_detected' && !raised.has(ev.id)) raised.set(ev.id, atMs); },
  });
  r.driver.shutdown();
  const changes = r.changes;
  const explainAt = (tMs: number): string => {
    const e = explainReplayAt({ cast, spec, specPath: c.specPath, atMs: tMs });
    return `  explain at ${formatSeconds(tMs)} s:\n${indent(formatExplanation(e))}`;
  };
  const happened = (from: number): string => {
    const rest = changes.slice(from);
    return rest.length ? rest.map((ch) => `    ${describeChange(ch)}`).join('\n') : '    (no further changes)';
  };

  // Sequence: a subsequence match, in order.
  let next = 0;
  for (const [i, exp] of (expect.sequence ?? []).entries()) {
    const found = changes.findIndex((ch, k) => k >= next && matchesExpectation(exp, ch));
    if (found < 0) {
      const after = next > 0 ? `after change ${next} (${describeChange(changes[next - 1]!).trim()})` : 'from the start';
      const atMs = changes[next] ? Math.round(changes[next]!.t * 1000) : Math.min(r.stoppedAtMs, r.endMs);
      return fail([
        `  sequence[${i}] was not seen ${after}`,
        `  expected: ${describeExpectation(exp)}`,
        '  happened instead:',
        happened(next),
        explainAt(atMs),
      ].join('\n'), changes);
    }
    next = found + 1;
  }

  for (const [i, exp] of (expect.at ?? []).entries()) {
    const tMs = Math.round(exp.t * 1000);
    const got = changeAt(changes, tMs);
    if (!got || !matchesExpectation(exp, got)) {
      return fail([
        `  at[${i}]: at ${exp.t} s`,
        `  expected: ${describeExpectation(exp)}`,
        `  happened: ${got ? describeChange(got).trim() : '(no state yet)'}`,
        '  all changes:',
        happened(0),
        explainAt(Math.min(tMs, r.stoppedAtMs)),
      ].join('\n'), changes);
    }
  }

  if (expect.final) {
    const last = changes[changes.length - 1];
    if (!last || !matchesExpectation(expect.final, last)) {
      return fail([
        `  final: after ${formatSeconds(r.stoppedAtMs)} s (end + tail)`,
        `  expected: ${describeExpectation(expect.final)}`,
        `  happened: ${last ? describeChange(last).trim() : '(no state)'}`,
        '  all changes:',
        happened(0),
        explainAt(r.stoppedAtMs),
      ].join('\n'), changes);
    }
  }
  const declared = new Set((spec.signal_rules ?? []).map((rule) => rule.id));
  const raisedList = (): string => (raised.size ? [...raised].map(([id, at]) => `${id} at ${formatSeconds(at)} s`).join(', ') : 'none');
  for (const id of [...(expect.signals?.seen ?? []), ...(expect.signals?.never ?? [])]) {
    if (!declared.has(id)) return fail(`  signals: the spec declares no signal ${JSON.stringify(id)} (it has: ${[...declared].join(', ') || 'none'}); fix the id`, changes);
  }
  for (const id of expect.signals?.seen ?? []) {
    if (!raised.has(id)) return fail(`  signals.seen: ${JSON.stringify(id)} was never raised\n  raised: ${raisedList()}`, changes);
  }
  for (const id of expect.signals?.never ?? []) {
    if (raised.has(id)) return fail(`  signals.never: ${JSON.stringify(id)} was raised at ${formatSeconds(raised.get(id)!)} s\n  explain there:\n${indent(explainAt(raised.get(id)!))}`, changes);
  }
  return { case: c, ok: true, changes, report: `ok   ${c.name} (${changes.length} changes)` };
}
