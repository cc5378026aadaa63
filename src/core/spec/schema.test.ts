import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPEC_JSON_SCHEMA } from './schema.js';
import { validateSpec } from './validate.js';

const ROOT = join(import.meta.dirname, '../../..');
const FIXTURES = join(ROOT, 'test/fixtures/specs');
const ajvWarnings: unknown[] = [];
const ajv = new Ajv({ allErrors: true, logger: { log: () => {}, warn: (...args: unknown[]) => ajvWarnings.push(args), error: (...args: unknown[]) => ajvWarnings.push(args) } });
const schemaAccepts = ajv.compile(SPEC_JSON_SCHEMA);

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** Warnings that mean "a field the schema does not know" — the only place the two may disagree. */
const UNKNOWN_FIELD_WARNING = /unknown field|mixes keys of several condition kinds|does not apply to a/;

/** The schema is the strict form: it refuses what strict validation refuses, unknown fields too. */
function codeAcceptsStrictly(raw: unknown): boolean {
  const { errors, warnings } = validateSpec(raw, { strict: true });
  return errors.length === 0 && !warnings.some((w) => UNKNOWN_FIELD_WARNING.test(w));
}

describe('SPEC_JSON_SCHEMA', () => {
  it('compiles under ajv strict mode without warnings', () => {
    expect(ajvWarnings).toEqual([]);
  });

  it('equals the committed schema/spec-v4.schema.json (regenerate with scripts/gen-schema.mjs)', () => {
    expect(readJson(join(ROOT, 'schema/spec-v4.schema.json'))).toEqual(SPEC_JSON_SCHEMA);
  });

  it('describes every field so editors can show help', () => {
    const missing: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${path}[${i}]`));
      if (typeof node !== 'object' || node === null) return;
      const obj = node as Record<string, unknown>;
      if (obj.properties && typeof obj.properties === 'object') {
        for (const [key, child] of Object.entries(obj.properties as Record<string, Record<string, unknown>>)) {
          if (typeof child.description !== 'string' && typeof child.$ref !== 'string') missing.push(`${path}.${key}`);
        }
      }
      for (const [key, child] of Object.entries(obj)) visit(child, `${path}.${key}`);
    };
    visit(SPEC_JSON_SCHEMA, '#');
    expect(missing).toEqual([]);
  });

  it('allows documentation keys starting with "_" on nested objects', () => {
    const spec = readJson(join(FIXTURES, 'valid/claude-like.json')) as any;
    spec.states[0]._why = 'doc';
    spec.transitions[0].when._c = 'doc';
    expect(schemaAccepts(spec), JSON.stringify(schemaAccepts.errors)).toBe(true);
  });
});

describe('schema and code validator agree', () => {
  const validFiles = readdirSync(join(FIXTURES, 'valid')).filter((f) => f.endsWith('.json'));

  it.each(validFiles)('both accept valid/%s', (file) => {
    const spec = readJson(join(FIXTURES, 'valid', file));
    expect(validateSpec(spec).errors).toEqual([]);
    expect(schemaAccepts(spec), JSON.stringify(schemaAccepts.errors)).toBe(true);
  });

  it('agree on every built-in spec under specs/*/spec.json', () => {
    const specsDir = join(ROOT, 'specs');
    const builtIns = existsSync(specsDir)
      ? readdirSync(specsDir).map((d) => join(specsDir, d, 'spec.json')).filter((p) => existsSync(p))
      : [];
    for (const path of builtIns) {
      const spec = readJson(path);
      // A spec with fields the schema does not know passes the code validator with a warning only.
      const codeOk = codeAcceptsStrictly(spec);
      expect(schemaAccepts(spec), `${path}: code ${codeOk ? 'accepts' : 'rejects'}; schema errors ${JSON.stringify(schemaAccepts.errors)}`).toBe(codeOk);
    }
  });

  const broken = readdirSync(join(FIXTURES, 'broken'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, readJson(join(FIXTURES, 'broken', f))] as const);

  it.each(broken.filter(([, s]) => s._breakage === 'structural'))('both reject the structural breakage %s', (_file, spec) => {
    expect(validateSpec(spec, { strict: true }).errors.length).toBeGreaterThan(0);
    expect(schemaAccepts(spec)).toBe(false);
  });

  // Semantic errors (unknown state/section references, regexes that do not compile,
  // duplicate ids, initial count, capture groups, ReDoS, nesting depth) cannot be
  // expressed in JSON Schema: only the code validator rejects these specs.
  it.each(broken.filter(([, s]) => s._breakage === 'semantic'))('only the code validator rejects the semantic breakage %s', (_file, spec) => {
    expect(schemaAccepts(spec), JSON.stringify(schemaAccepts.errors)).toBe(true);
  });

  it('labels every broken spec as structural or semantic', () => {
    expect(broken.filter(([, s]) => s._breakage !== 'structural' && s._breakage !== 'semantic').map(([f]) => f)).toEqual([]);
  });

  it('the schema accepts whatever the code validator accepts without unknown-field warnings (fuzzed)', () => {
    const base = readJson(join(FIXTURES, 'valid/claude-like.json'));
    const edits: Array<(s: any, v: unknown) => void> = [
      (s, v) => (s.states[1].status = v), (s, v) => (s.states[2].initial = v), (s, v) => (s.transitions[0].when = v),
      (s, v) => (s.transitions[4].when.all[2] = v), (s, v) => (s.transitions[1].from = v), (s, v) => (s.transitions[1].priority = v),
      (s, v) => (s.transitions[1].min_hold_ms = v), (s, v) => (s.sections.footer = v), (s, v) => (s.sections.body.from_top = v),
      (s, v) => (s.states[3].extract.buttons = v), (s, v) => (s.states[3].extract.title = v), (s, v) => (s.control_bar[0] = v),
      (s, v) => (s.control_bar[3].action = v), (s, v) => (s.signal_rules[0].flags = v), (s, v) => (s.pre_launch_trust = v),
      (s, v) => (s.startup_dismiss = v), (s, v) => (s.env = v), (s, v) => (s.send_message.delay_ms_per_char = v),
      (s, v) => (s.refocus_when_stalled_ms = v), (s, v) => (s.notifications[0] = v), (s, v) => (s.sections.modal.anchor_context = v),
    ];
    const leafish = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom<unknown>('idle', 'busy', '*', ['idle'], 'body', '50%', 0, 1, -1, 2.5, true, { matches: 'x' }, { stable_ms: 1 }, { elapsed_ms: 1 }, { cursor_above: 1, changed: true }, { scheme: 'codex_toml_file' }, 'waiting_external', 'i', 'gi'),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: edits.length - 1 }), leafish, (i, v) => {
        const spec = structuredClone(base);
        edits[i]!(spec, v);
        if (codeAcceptsStrictly(spec)) expect(schemaAccepts(spec), `edit ${i} = ${JSON.stringify(v)}: ${JSON.stringify(schemaAccepts.errors)}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
