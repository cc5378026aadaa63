import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCondition } from './condition-kind.js';
import { validateSpec, type RegexScreen } from './validate.js';

type Json = Record<string, unknown>;

/** A small valid spec; every test edits its own copy. */
function baseSpec(): Json {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 'mini',
    binary: 'mini-agent',
    send_message: { submit_key: '\r' },
    sections: { body: { from_top: 0, until: 'footer' }, footer: { from_bottom: 2 } },
    states: [
      { id: 'starting', label: 'Starting', initial: true },
      { id: 'idle', label: 'Idle' },
      { id: 'busy', label: 'Busy', status: 'generating' },
      {
        id: 'approval',
        label: 'Approval',
        modal: true,
        extract: { buttons: { section: 'footer', pattern: '(\\d+)\\. (\\S+)', flags: 'gm', key_for_index: '{index}\r' } },
      },
    ],
    transitions: [
      { from: 'starting', to: 'idle', when: { elapsed_ms: 1000 } },
      { from: 'idle', to: 'busy', when: { section: 'body', matches: 'Working' } },
      { from: 'busy', to: 'idle', when: { all: [{ not: { matches: 'Working' } }, { stable_ms: 1000 }] } },
      { from: ['idle', 'busy'], to: 'approval', priority: 100, when: { section: 'footer', matches: '1\\. Yes' } },
      { from: 'approval', to: 'busy', when: { not: { matches: '1\\. Yes' } } },
    ],
  };
}

function edit(mutate: (spec: any) => void): Json {
  const spec = baseSpec();
  mutate(spec);
  return spec;
}

/** Strict: every check reports as an error, those the reference does not make included. */
const errorsOf = (raw: unknown, screen?: RegexScreen) => validateSpec(raw, { screenRegex: screen, strict: true }).errors;
const warningsOf = (raw: unknown, screen?: RegexScreen) => validateSpec(raw, { screenRegex: screen }).warnings;

function expectError(raw: unknown, fragment: string): void {
  const errors = errorsOf(raw);
  expect(errors.some((e) => e.includes(fragment)), `expected "${fragment}" in:\n${errors.join('\n')}`).toBe(true);
}
function expectWarning(raw: unknown, fragment: string): void {
  const { errors, warnings } = validateSpec(raw);
  expect(errors, 'a warning case must not produce errors').toEqual([]);
  expect(warnings.some((w) => w.includes(fragment)), `expected "${fragment}" in:\n${warnings.join('\n')}`).toBe(true);
}

describe('validateSpec: a valid spec', () => {
  it('accepts the base spec with no errors and no warnings', () => {
    expect(validateSpec(baseSpec())).toEqual({ errors: [], warnings: [], issues: [] });
  });

  it('tolerates documentation keys starting with "_" everywhere', () => {
    const spec = edit((s) => {
      s._note = 'x';
      s.states[0]._why = 'y';
      s.transitions[0].when._c = 1;
      s.sections.body._n = 2;
    });
    expect(validateSpec(spec)).toEqual({ errors: [], warnings: [], issues: [] });
  });
});

describe('rule 1: $schema', () => {
  it('reports only the $schema error when the schema is wrong, however broken the rest is', () => {
    const errors = errorsOf({ $schema: 'adhdev:cli/spec@3', states: 5, transitions: 'x' });
    expect(errors).toEqual(['$schema: must be "adhdev:cli/spec@4" (got "adhdev:cli/spec@3"); set "$schema": "adhdev:cli/spec@4"']);
    expect(warningsOf({ $schema: 'x', bogus: 1 })).toEqual([]);
  });

  it.each([
    ['null', null], ['undefined', undefined], ['a number', 42], ['a string', 'spec'], ['an empty array', []], ['an array holding a spec', [baseSpec()]], ['a boolean', true],
  ])('reports one error for %s', (_name, raw) => {
    const errors = errorsOf(raw);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^spec: must be a JSON object/);
  });
});

describe('rule 2: id, binary, send_message.submit_key', () => {
  it('requires id, binary and submit_key', () => {
    const spec = edit((s) => {
      delete s.id;
      s.binary = '';
      s.send_message = {};
    });
    const errors = errorsOf(spec);
    expect(errors).toContain('id: is required (missing); give the provider id, e.g. "claude-cli"');
    expect(errors.some((e) => e.startsWith('binary: must be a non-empty string (got "")'))).toBe(true);
    expect(errors.some((e) => e.startsWith('send_message.submit_key: is required'))).toBe(true);
  });

  it('requires send_message to be an object', () => {
    expectError(edit((s) => (s.send_message = '\r')), 'send_message: must be an object (got "\\r")');
    expectError(edit((s) => delete s.send_message), 'send_message.submit_key: is required');
  });

  it('checks the types of the optional top-level fields', () => {
    expectError(edit((s) => (s.spawn_args = '--x')), 'spawn_args: must be an array of strings');
    expectError(edit((s) => (s.spawn_args = ['a', 3])), 'spawn_args[1]: must be a string (got 3)');
    expectError(edit((s) => (s.env = { A: 1 })), 'env.A: must be a string (got 1)');
    expectError(edit((s) => (s.name = 5)), 'name: must be a string');
    expectError(edit((s) => (s.send_on_spawn_delay_ms = -1)), 'send_on_spawn_delay_ms: must be a number ≥ 0 (got -1)');
    expectError(edit((s) => (s.send_message.delay_ms_per_char = 'fast')), 'send_message.delay_ms_per_char: must be a number ≥ 0');
    expectError(edit((s) => (s.requiresFinalAssistantBeforeIdle = 'yes')), 'requiresFinalAssistantBeforeIdle: must be true or false');
    expectError(edit((s) => (s.native_history = [])), 'native_history: must be an object');
  });

  it('warns about unknown top-level fields with a suggestion', () => {
    expectWarning(edit((s) => (s.transition = [])), 'transition: unknown field in the spec; it is ignored; did you mean "transitions"?');
  });
});

describe('rule 3: pre_launch_trust', () => {
  it.each(['kimi_workspace_file', 'grok_toml_file', 'codex_toml_file', 'claude_json_projects', 'gemini_trusted_folders', 'qwen_trusted_folders'])('accepts the scheme %s', (scheme) => {
    expect(errorsOf(edit((s) => (s.pre_launch_trust = { scheme })))).toEqual([]);
  });

  it('rejects an unknown scheme, a non-object, mixed forms and an incomplete array form', () => {
    expectError(edit((s) => (s.pre_launch_trust = { scheme: 'x' })), 'pre_launch_trust.scheme: must be one of "kimi_workspace_file", "grok_toml_file", "codex_toml_file", "claude_json_projects", "gemini_trusted_folders", "qwen_trusted_folders" (got "x")');
    expectError(edit((s) => (s.pre_launch_trust = 'yes')), 'pre_launch_trust: must be an object');
    expectError(edit((s) => (s.pre_launch_trust = { scheme: 'grok_toml_file', key: 'k' })), 'pre_launch_trust: with scheme excludes settings_path/key');
    expectError(edit((s) => (s.pre_launch_trust = { key: 'k' })), 'pre_launch_trust.settings_path: is required');
    expectError(edit((s) => (s.pre_launch_trust = { settings_path: '~/.x.json' })), 'pre_launch_trust.key: is required');
  });

  it('accepts the settings_path/key array form', () => {
    expect(errorsOf(edit((s) => (s.pre_launch_trust = { settings_path: '~/.x.json', key: 'trusted' })))).toEqual([]);
  });
});

describe('rules 4–6: interactive_prompts, startup_dismiss, refocus_when_stalled_ms', () => {
  it('checks interactive_prompts', () => {
    expect(errorsOf(edit((s) => (s.interactive_prompts = { scheme: 'kimi_wire' })))).toEqual([]);
    expectError(edit((s) => (s.interactive_prompts = 'claude_tui')), 'interactive_prompts: must be an object');
    expectError(edit((s) => (s.interactive_prompts = { scheme: 'x' })), 'interactive_prompts.scheme: must be "claude_tui" or "kimi_wire" (got "x")');
  });

  it('checks startup_dismiss', () => {
    expect(errorsOf(edit((s) => (s.startup_dismiss = { key: '\r', patterns: [{ regex: 'Trust' }] })))).toEqual([]);
    expectError(edit((s) => (s.startup_dismiss = [])), 'startup_dismiss: must be an object');
    expectError(edit((s) => (s.startup_dismiss = { patterns: [{ regex: 'x' }] })), 'startup_dismiss.key: is required');
    expectError(edit((s) => (s.startup_dismiss = { key: '\r', patterns: {} })), 'startup_dismiss.patterns: must be a non-empty array');
    expectError(edit((s) => (s.startup_dismiss = { key: '\r', patterns: [{}] })), 'startup_dismiss.patterns[0].regex: is required');
    expectError(edit((s) => (s.startup_dismiss = { key: '\r', patterns: [{ regex: '(' }] })), 'startup_dismiss.patterns[0].regex: does not compile');
    expectError(edit((s) => (s.startup_dismiss = { key: '\r', patterns: [{ regex: 'x' }], max_attempts: 1.5 })), 'startup_dismiss.max_attempts: must be a whole number ≥ 0');
  });

  it('checks refocus_when_stalled_ms', () => {
    expect(errorsOf(edit((s) => Object.assign(s, { send_on_spawn: ['\u001b[I'], refocus_when_stalled_ms: 30000 })))).toEqual([]);
    expectError(edit((s) => Object.assign(s, { send_on_spawn: ['\u001b[I'], refocus_when_stalled_ms: 0 })), 'refocus_when_stalled_ms: must be a positive number');
    expectError(edit((s) => (s.refocus_when_stalled_ms = 1000)), 'refocus_when_stalled_ms: requires send_on_spawn (the wake sequence to re-inject)');
    expectError(edit((s) => Object.assign(s, { send_on_spawn: [''], refocus_when_stalled_ms: 1000 })), 'requires send_on_spawn');
  });
});

describe('rule 7: states and transitions lists', () => {
  it('stops after a missing or empty states list', () => {
    const errors = errorsOf(edit((s) => Object.assign(s, { states: [], transitions: 5, control_bar: 7 })));
    expect(errors).toEqual(['states: must be a non-empty array (got []); declare at least one state {id, label, initial: true}']);
  });

  it('stops after a non-array transitions list', () => {
    const errors = errorsOf(edit((s) => Object.assign(s, { transitions: { a: 1 }, control_bar: 7 })));
    expect(errors).toEqual(['transitions: must be an array (got {"a":1}); use [] for a machine without transitions']);
  });

  it('accepts an empty transitions list', () => {
    expect(errorsOf(edit((s) => (s.transitions = [])))).toEqual([]);
  });
});

describe('rules 8–9: states', () => {
  it('skips the rest of a state without id', () => {
    const errors = errorsOf(edit((s) => s.states.push({ status: 'bogus' })));
    expect(errors).toContain('states[4].id: is required (missing); give the state a unique id such as "idle"');
    expect(errors.some((e) => e.includes('states[4].status'))).toBe(false);
  });

  it('reports a non-object state, a duplicate id, a missing label and "*" as id', () => {
    expectError(edit((s) => s.states.push('idle')), 'states[4]: must be a state object');
    expectError(edit((s) => s.states.push({ id: 'idle', label: 'Again' })), 'states[4].id: "idle" is duplicated (first declared at states[1])');
    expectError(edit((s) => delete s.states[1].label), 'states[1].label: is required');
    expectError(edit((s) => s.states.push({ id: '*', label: 'Any' })), 'states[4].id: "*" is reserved');
  });

  it.each(['idle', 'generating', 'approval', 'waiting_external'])('accepts the status %s', (status) => {
    expect(errorsOf(edit((s) => (s.states[1].status = status)))).toEqual([]);
  });

  it('rejects an unknown status and a modal waiting_external state', () => {
    expectError(edit((s) => (s.states[1].status = 'busy')), 'states[1].status: must be idle|generating|approval|waiting_external (got "busy")');
    expectError(edit((s) => (s.states[3].status = 'waiting_external')), 'states[3].status: "waiting_external" must not be modal');
  });

  it('checks initial, modal and modal_kind types', () => {
    expectError(edit((s) => (s.states[1].modal = 'yes')), 'states[1].modal: must be true or false');
    expectError(edit((s) => (s.states[3].modal_kind = 'dialog')), 'states[3].modal_kind: must be approval|picker|confirm');
    expectWarning(edit((s) => (s.states[1].modal_kind = 'picker')), 'states[1].modal_kind: is ignored on a state without "modal": true');
  });

  it('requires exactly one initial state', () => {
    expectError(edit((s) => delete s.states[0].initial), 'states: exactly one state must have initial:true (none found)');
    expectError(edit((s) => (s.states[2].initial = true)), 'states: exactly one state must have initial:true (2 found: starting, busy)');
  });

  it('warns about unknown state fields with a suggestion', () => {
    expectWarning(edit((s) => (s.states[2].stauts = 'idle')), 'states[2].stauts: unknown field in a state; it is ignored; did you mean "status"?');
  });
});

describe('rule 10: transitions', () => {
  it('names unknown states with the known list and a suggestion', () => {
    const errors = errorsOf(edit((s) => (s.transitions[1].to = 'budy')));
    expect(errors).toEqual(['transitions[1].to: unknown state "budy" (known: starting, idle, busy, approval); did you mean "busy"?']);
    expectError(edit((s) => (s.transitions[1].from = 'idel')), 'transitions[1].from: unknown state "idel"');
    expectError(edit((s) => (s.transitions[3].from = ['idle', 'zzz'])), 'transitions[3].from[1]: unknown state "zzz" (known: starting, idle, busy, approval); use one of the declared state ids');
  });

  it('requires from and to', () => {
    expectError(edit((s) => (s.transitions[1].from = [])), 'transitions[1].from: is required ([])');
    expectError(edit((s) => (s.transitions[1].from = '')), 'transitions[1].from: is required');
    expectError(edit((s) => delete s.transitions[1].from), 'transitions[1].from: is required (missing)');
    expectError(edit((s) => delete s.transitions[1].to), 'transitions[1].to: is required (missing)');
    expectError(edit((s) => (s.transitions[1].to = 3)), 'transitions[1].to: must be a state id (got 3)');
    expectError(edit((s) => s.transitions.push(null)), 'transitions[5]: must be a transition object');
  });

  it('explains that "*" inside a list names no state', () => {
    expectError(edit((s) => (s.transitions[1].from = ['*'])), 'transitions[1].from[0]: "*" inside a list names no state ("*"); use "from": "*" (a string) for every state');
  });

  it('checks min_hold_ms ≥ 0, priority finite (negative allowed) and label', () => {
    expectError(edit((s) => (s.transitions[1].min_hold_ms = -1)), 'transitions[1].min_hold_ms: must be a number ≥ 0 (got -1)');
    expectError(edit((s) => (s.transitions[1].min_hold_ms = Number.NaN)), 'transitions[1].min_hold_ms: must be a number ≥ 0 (got NaN)');
    expectError(edit((s) => (s.transitions[1].priority = Number.POSITIVE_INFINITY)), 'transitions[1].priority: must be a number (got Infinity)');
    expectError(edit((s) => (s.transitions[1].priority = '10')), 'transitions[1].priority: must be a number');
    expect(errorsOf(edit((s) => (s.transitions[1].priority = -5)))).toEqual([]);
    expectError(edit((s) => (s.transitions[1].label = 1)), 'transitions[1].label: must be a string');
  });
});

describe('rule 10: guards', () => {
  const withGuard = (when: unknown) => edit((s) => (s.transitions[1].when = when));

  it('compiles a regex leaf with its flags (default "i", replaced by flags)', () => {
    expect(errorsOf(withGuard({ matches: '[\\w-a]' }))).toEqual([]);
    expectError(withGuard({ matches: '[\\w-a]', flags: 'u' }), 'transitions[1].when.matches: invalid regex: Invalid regular expression');
    expectError(withGuard({ matches: 'a(' }), 'transitions[1].when.matches: invalid regex');
    expectError(withGuard({ matches: 5 }), 'transitions[1].when.matches: must be a regex string (5)');
  });

  it('checks regex flags: known letters, no repeats, not u with v', () => {
    expectError(withGuard({ matches: 'a', flags: 'mx' }), 'transitions[1].when.flags: unknown regex flag "x" ("mx")');
    expectError(withGuard({ matches: 'a', flags: 'mm' }), 'transitions[1].when.flags: regex flag "m" is repeated');
    expectError(withGuard({ matches: 'a', flags: 'uv' }), 'transitions[1].when.flags: regex flags "u" and "v" cannot be combined');
    expectError(withGuard({ matches: 'a', flags: 3 }), 'transitions[1].when.flags: must be a string of regex flags');
  });

  it('checks regex leaf section and cursor bounds', () => {
    expectError(withGuard({ matches: 'a', section: 'bdy' }), 'transitions[1].when.section: unknown section "bdy" (known: body, footer); did you mean "body"?');
    expectError(withGuard({ matches: 'a', cursor_row_min: -1 }), 'transitions[1].when.cursor_row_min: must be a whole number ≥ 0');
    expectWarning(withGuard({ matches: 'a', cursor_col_min: 9, cursor_col_max: 2 }), 'transitions[1].when.cursor_col_min: is greater than cursor_col_max, so the condition never matches (9 > 2)');
  });

  it('checks signal, elapsed and changed leaves', () => {
    expect(errorsOf(withGuard({ signal: 'final_assistant_present', equals: true }))).toEqual([]);
    expectError(withGuard({ signal: '' }), 'transitions[1].when.signal: must be a non-empty string');
    expectError(withGuard({ signal: 'x', equals: 'yes' }), 'transitions[1].when.equals: must be a boolean');
    expectError(withGuard({ elapsed_ms: 'soon' }), 'transitions[1].when.elapsed_ms: must be a number ≥ 0 (got "soon")');
    expectError(withGuard({ elapsed_ms: -1 }), 'transitions[1].when.elapsed_ms: must be a number ≥ 0 (got -1)');
    expect(errorsOf(withGuard({ cursor_above: 4, changed: false }))).toEqual([]);
    expectError(withGuard({ cursor_above: 4, changed: 'no' }), 'transitions[1].when.changed: must be true or false');
  });

  it('checks stable leaves: number, section, ignore_lines compiled with "m"', () => {
    expect(errorsOf(withGuard({ stable_ms: 8000, ignore_lines: '^\\s*\\d+ tokens$' }))).toEqual([]);
    expectError(withGuard({ stable_ms: '1s' }), 'transitions[1].when.stable_ms: must be a number ≥ 0');
    expectError(withGuard({ stable_ms: 1, section: 'nope' }), 'transitions[1].when.section: unknown section "nope"');
    expectError(withGuard({ stable_ms: 1, ignore_lines: 7 }), 'transitions[1].when.ignore_lines: must be a string');
    expectError(withGuard({ stable_ms: 1, ignore_lines: '[' }), 'transitions[1].when.ignore_lines: invalid regex: Invalid regular expression: /[/m');
  });

  it('checks the window_title leaf (specterm extension)', () => {
    expect(errorsOf(withGuard({ window_title: '[⠁-⣿]', flags: 'u' }))).toEqual([]);
    expectError(withGuard({ window_title: '(' }), 'transitions[1].when.window_title: invalid regex');
    expectError(withGuard({ window_title: 1 }), 'transitions[1].when.window_title: must be a regex string');
    expectError(withGuard({ window_title: 'x', flags: 'q' }), 'transitions[1].when.flags: unknown regex flag "q"');
  });

  it('checks the osc leaf (specterm extension): number, payload regex, held_ms', () => {
    expect(errorsOf(withGuard({ osc: 7501, payload: '^state=idle', held_ms: 150 }))).toEqual([]);
    for (const bad of [-1, 1.5, 65536, '7501', null]) {
      const issues = validateSpec(withGuard({ osc: bad, payload: 'x' })).issues;
      expect(issues.find((i) => i.code === 'SPEC_BAD_OSC')?.path, String(bad)).toBe('transitions[1].when.osc');
    }
    expectError(withGuard({ osc: 7501, payload: '(' }), 'transitions[1].when.payload: invalid regex');
    expectError(withGuard({ osc: 7501 }), 'transitions[1].when.payload: is required');
    expectError(withGuard({ osc: 7501, payload: 1 }), 'transitions[1].when.payload: must be a regex string');
    expectError(withGuard({ osc: 7501, payload: 'x', held_ms: -5 }), 'transitions[1].when.held_ms: must be a number ≥ 0');
  });

  it('screens the osc payload regex for ReDoS like every other regex', () => {
    const screen: RegexScreen = (source) => (source.includes('(a+)+') ? { complexity: 'exponential' } : { complexity: 'safe' });
    const issues = validateSpec(withGuard({ osc: 7501, payload: '^(a+)+$' }), { screenRegex: screen }).issues;
    expect(issues.find((i) => i.code === 'SPEC_REDOS')?.path).toBe('transitions[1].when.payload');
  });

  it('warns that {osc, matches} is a screen regex and says where the payload regex goes', () => {
    const { warnings } = validateSpec(withGuard({ osc: 7501, matches: '^state=idle' }));
    expect(warnings.join('\n')).toMatch(/evaluated as a matches condition.*"osc" ignored.*"payload"/s);
  });

  it('reports a non-array all/any and a non-object not instead of crashing', () => {
    expectError(withGuard({ all: { matches: 'x' } }), 'transitions[1].when.all: must be an array of conditions');
    expectError(withGuard({ any: 'x' }), 'transitions[1].when.any: must be an array of conditions ("x")');
    expectError(withGuard({ not: 5 }), 'transitions[1].when.not: is not a recognized condition (5)');
    expectError(withGuard({ all: [{ any: [null] }] }), 'transitions[1].when.all[0].any[0]: is not a recognized condition (null)');
  });

  it('reports unrecognized conditions with a fix', () => {
    expectError(withGuard({}), 'transitions[1].when: is not a recognized condition ({}); use one of all, any, not');
    expectError(withGuard({ cursor_above: 3 }), 'a changed condition needs both "cursor_above" and "changed"');
    expectError(withGuard({ stable: 100 }), 'did you mean "stable_ms" instead of "stable"?');
  });

  it('classifies mixed objects in the evaluator order and warns', () => {
    // The reference validator checks this as a regex; the evaluator runs it as stable_ms.
    const mixed = withGuard({ stable_ms: 100, matches: '(' });
    expect(errorsOf(mixed)).toEqual([]);
    expectWarning(mixed, 'transitions[1].when: mixes keys of several condition kinds (stable_ms + matches); it is evaluated as a stable_ms condition and "matches" ignored');
    expectWarning(withGuard({ stable_ms: 100, cursor_above: 3, changed: false }), 'evaluated as a stable_ms condition and "changed" ignored');
    expectWarning(withGuard({ signal: 's', matches: 'x', flags: 'i' }), '(signal + matches); it is evaluated as a signal condition and "matches", "flags" ignored');
    expect(classifyCondition({ matches: 'a', elapsed_ms: 1 })).toBe('elapsed');
    expect(classifyCondition({ window_title: 'a', matches: 'b' })).toBe('regex');
    expect(classifyCondition({ cursor_above: 1, changed: true, window_title: 'x' })).toBe('window_title');
  });

  it('warns about fields a condition kind ignores', () => {
    expectWarning(withGuard({ elapsed_ms: 5, section: 'body' }), 'transitions[1].when.section: does not apply to a elapsed_ms condition; it is ignored');
    expectWarning(withGuard({ matches: 'x', flag: 'm' }), 'transitions[1].when.flag: unknown field in a matches condition; it is ignored; did you mean "flags"?');
  });

  it('warns about ^ or $ without "m" in regex leaves, exactly like the reference lint', () => {
    expectWarning(withGuard({ matches: '^Working' }), 'transitions[1].when.matches: uses ^ or $ without the "m" flag — the anchor binds to the whole screen, not a line ("^Working"); Add "flags": "im" or use the (?:^|\\n) idiom');
    expectWarning(withGuard({ matches: 'done$', flags: 's' }), 'Add "flags": "sm"');
    for (const clean of ['(?:^|\\n)Working(?=\\n|$)', '(?:\\n|^)a(?:$|\\n)', '[^a]b', 'cost \\$5', 'a[$^]']) {
      expect(warningsOf(withGuard({ matches: clean })), clean).toEqual([]);
    }
    expect(warningsOf(withGuard({ matches: '^Working', flags: 'im' }))).toEqual([]);
  });

  it('warns about deep guards and refuses nesting deeper than 64 levels', () => {
    let deep: unknown = { matches: 'x' };
    for (let i = 0; i < 10; i++) deep = { not: deep };
    expectWarning(withGuard(deep), 'transitions[1].when: nests 11 levels deep');
    let tooDeep: unknown = { matches: 'x' };
    for (let i = 0; i < 100_000; i++) tooDeep = { all: [tooDeep] };
    const errors = errorsOf(withGuard(tooDeep));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^transitions\[1\]\.when\.all\[0\].*….*\.all\[0\]: nesting deeper than 64 levels; flatten the guard with all\/any$/);
  });
});

describe('rule 11 and extraction rules', () => {
  it('checks title and button sections', () => {
    expectError(edit((s) => (s.states[3].extract.title = { section: 'modal', first_line: true })), 'states[3].extract.title.section: unknown section "modal"');
    expectError(edit((s) => (s.states[3].extract.buttons.section = 'modl')), 'states[3].extract.buttons.section: unknown section "modl"');
  });

  it('checks title rules', () => {
    expectError(edit((s) => (s.states[3].extract.title = { regex: '(' })), 'states[3].extract.title.regex: invalid regex');
    expectWarning(edit((s) => (s.states[3].extract.title = { section: 'footer' })), 'states[3].extract.title: has neither "first_line": true nor "regex"');
  });

  it('checks button rules: pattern, groups, modes, keys', () => {
    expectError(edit((s) => delete s.states[3].extract.buttons.pattern), 'states[3].extract.buttons.pattern: is required');
    expectError(edit((s) => (s.states[3].extract.buttons.pattern = '(\\d+)\\.')), 'states[3].extract.buttons.pattern: needs capture group 1 (index) and 2 (label) but has 1');
    expectError(edit((s) => Object.assign(s.states[3].extract.buttons, { pattern: '(\\w+) (\\w+)', label_group: 3 })), 'states[3].extract.buttons.label_group: names capture group 3 but the pattern has 2');
    expect(errorsOf(edit((s) => Object.assign(s.states[3].extract.buttons, { pattern: '(→)?\\s*(\\w+) \\((\\w+)\\)', label_group: 2, key_group: 3 })))).toEqual([]);
    expectError(edit((s) => (s.states[3].extract.buttons.select_mode = 'mouse')), 'states[3].extract.buttons.select_mode: must be index|arrow_keys');
    expectError(edit((s) => (s.states[3].extract.buttons.cursor_keys = { up: 1 })), 'states[3].extract.buttons.cursor_keys.up: must be a string');
    expectError(edit((s) => (s.states[3].extract.buttons.min_count = -2)), 'states[3].extract.buttons.min_count: must be a whole number ≥ 0');
    expectWarning(edit((s) => (s.states[3].extract.buttons.key_for_index = '\r')), 'states[3].extract.buttons.key_for_index: has no "{index}"');
  });

  it('checks label_continuation: an object {match_style?, word_wrap?}, not with continuation_lines', () => {
    expect(errorsOf(edit((s) => (s.states[3].extract.buttons.label_continuation = { match_style: true })))).toEqual([]);
    expect(errorsOf(edit((s) => (s.states[3].extract.buttons.label_continuation = { word_wrap: true, match_style: true })))).toEqual([]);
    expectError(edit((s) => (s.states[3].extract.buttons.label_continuation = { word_wrap: 1 })), 'states[3].extract.buttons.label_continuation.word_wrap: must be true or false');
    expect(errorsOf(edit((s) => (s.states[3].extract.buttons.label_continuation = {})))).toEqual([]);
    expectError(edit((s) => (s.states[3].extract.buttons.label_continuation = true)), 'states[3].extract.buttons.label_continuation: must be an object {match_style?, word_wrap?, mirror_margin?}');
    expectError(edit((s) => (s.states[3].extract.buttons.label_continuation = { match_style: 'yes' })), 'states[3].extract.buttons.label_continuation.match_style: must be true or false');
    expectWarning(edit((s) => (s.states[3].extract.buttons.label_continuation = { match_colour: true })), 'states[3].extract.buttons.label_continuation');
    expectError(
      edit((s) => Object.assign(s.states[3].extract.buttons, { continuation_lines: true, label_continuation: { match_style: true } })),
      'states[3].extract.buttons.label_continuation: cannot be combined with "continuation_lines": true',
    );
  });

  it('checks label_continuation.mirror_margin: a boolean, only with word_wrap', () => {
    expect(errorsOf(edit((s) => (s.states[3].extract.buttons.label_continuation = { word_wrap: true, mirror_margin: true })))).toEqual([]);
    expectError(edit((s) => (s.states[3].extract.buttons.label_continuation = { word_wrap: true, mirror_margin: 2 })), 'states[3].extract.buttons.label_continuation.mirror_margin: must be true or false');
    expectError(edit((s) => (s.states[3].extract.buttons.label_continuation = { match_style: true, mirror_margin: true })), 'states[3].extract.buttons.label_continuation.mirror_margin: only narrows the width word_wrap measures against');
  });

  it('checks label_style (a boolean) and label_column (only "title")', () => {
    expect(errorsOf(edit((s) => Object.assign(s.states[3].extract.buttons, { label_style: true, label_column: 'title' })))).toEqual([]);
    expectError(edit((s) => (s.states[3].extract.buttons.label_style = 'yes')), 'states[3].extract.buttons.label_style: must be true or false');
    expectError(edit((s) => (s.states[3].extract.buttons.label_column = 'left')), 'states[3].extract.buttons.label_column: must be "title"');
  });

  it('checks extract.subject (specterm extension): one rule or alternatives, each with a kind', () => {
    const subject = (v: unknown) => edit((s) => (s.states[3].extract.subject = v));
    expect(errorsOf(subject({ section: 'body', regex: '\\$ (.+)', kind: 'command' }))).toEqual([]);
    expect(errorsOf(subject([{ regex: 'url: (\\S+)', kind: 'url' }, { kind: 'path' }]))).toEqual([]);
    expectError(subject({ regex: 'x' }), 'states[3].extract.subject.kind: is required');
    expectError(subject({ kind: 'shell' }), 'states[3].extract.subject.kind: must be command|path|url|tool');
    expectError(subject([]), 'states[3].extract.subject: must name at least one rule');
    expectError(subject([{ kind: 'command', regex: '(' }]), 'states[3].extract.subject[0].regex: invalid regex');
    expectError(subject({ kind: 'command', section: 'nope' }), 'states[3].extract.subject.section: unknown section "nope"');
    expectWarning(subject({ kind: 'command', pattern: 'x' }), 'states[3].extract.subject.pattern: unknown field in a subject rule');
    expectWarning(edit((s) => (s.states[2].extract = { subject: { kind: 'command' } })), 'states[2].extract.subject: is only read on an approval');
  });

  it('checks title.join_wrapped: a boolean, with regex and without first_line', () => {
    expect(errorsOf(edit((s) => (s.states[3].extract.title = { regex: '(\\S.*\\?)', join_wrapped: true })))).toEqual([]);
    expectError(edit((s) => (s.states[3].extract.title = { regex: 'x', join_wrapped: 'yes' })), 'states[3].extract.title.join_wrapped: must be true or false');
    expectError(edit((s) => (s.states[3].extract.title = { first_line: true, regex: 'x', join_wrapped: true })), 'states[3].extract.title.join_wrapped: cannot be combined with "first_line": true');
    expectError(edit((s) => (s.states[3].extract.title = { section: 'footer', join_wrapped: true })), 'states[3].extract.title.join_wrapped: needs "regex"');
  });

  it('warns about a modal state without a buttons rule', () => {
    expectWarning(edit((s) => delete s.states[3].extract), 'states[3]: is modal but has no extract.buttons rule');
    expectWarning(edit((s) => (s.states[3].extract = { title: { first_line: true } })), 'states[3]: is modal but has no extract.buttons rule');
  });
});

describe('sections', () => {
  const withSection = (def: unknown) => edit((s) => (s.sections.extra = def));

  it('accepts the reference example sections', () => {
    const spec = edit((s) => {
      s.sections.modal = {
        anchor: ['^[─╌]+$', '\\S'],
        anchor_last: true,
        anchor_context: [{ next: '^(?![─╌]+$)' }, { next: '^\\s*[❯›>➜]?\\s*1\\.\\s' }],
        until: '^\\s*[❯›>➜](?!\\s*\\d+\\.)',
      };
      s.sections.tail = { anchor: 'esc to interrupt', anchor_miss: 'empty', above: 2, lines: 3 };
      s.sections.half = { from_bottom: '50%' };
      s.sections.exact = { anchor: '^B', until_regex: '^E', until_regex_flags: 'i' };
    });
    expect(validateSpec(spec)).toEqual({ errors: [], warnings: [], issues: [] });
  });

  it('reports a malformed sections object or definition', () => {
    expectError(edit((s) => (s.sections = [])), 'sections: must be an object mapping section ids to definitions');
    expectError(withSection('x'), 'sections.extra: must be a section definition object');
  });

  it('reports anchors, contexts and until regexes that do not compile', () => {
    expectError(withSection({ anchor: '(' }), 'sections.extra.anchor: invalid regex');
    expectError(withSection({ anchor: ['ok', '['] }), 'sections.extra.anchor[1]: invalid regex');
    expectError(withSection({ anchor: [] }), 'sections.extra.anchor: must be a regex string or a non-empty array');
    expectError(withSection({ anchor: 'x', anchor_context: { next: '(' } }), 'sections.extra.anchor_context.next: invalid regex');
    expectError(withSection({ anchor: 'x', anchor_context: [5] }), 'sections.extra.anchor_context[0]: must be an object');
    expectError(withSection({ anchor: 'x', until_regex: '(' }), 'sections.extra.until_regex: invalid regex');
    expectError(withSection({ anchor: 'x', until: '^(' }), 'sections.extra.until: invalid regex');
    expectError(withSection({ anchor: 'x', anchor_flags: 'z' }), 'sections.extra.anchor_flags: unknown regex flag "z"');
  });

  it('reports until naming an unknown section (when it does not start with ^)', () => {
    expectError(withSection({ from_top: 0, until: 'fotter' }), 'sections.extra.until: unknown section "fotter" (known: body, footer, extra); did you mean "footer"?');
    expectWarning(withSection({ from_top: 0, until: 'extra' }), 'sections.extra.until: names its own section, so the section is always empty');
  });

  it('checks anchor_miss, sizes and counts', () => {
    expectError(withSection({ anchor: 'x', anchor_miss: 'whole' }), 'sections.extra.anchor_miss: must be "empty" (got "whole")');
    expectError(withSection({ from_top: '150%' }), 'sections.extra.from_top: must be a line count or a percentage');
    expectError(withSection({ from_bottom: -1 }), 'sections.extra.from_bottom: must be a whole number ≥ 0 (got -1)');
    expectError(withSection({ from_bottom: 2.5 }), 'sections.extra.from_bottom: must be a whole number ≥ 0 (got 2.5)');
    expectError(withSection({ anchor: 'x', lines: 'all' }), 'sections.extra.lines: must be a whole number ≥ 0');
    expectError(withSection({ anchor: 'x', above: -1 }), 'sections.extra.above: must be a whole number ≥ 0');
    expectError(withSection({ anchor: 'x', anchor_last: 1 }), 'sections.extra.anchor_last: must be true or false');
  });

  it('warns about g in anchor_flags, ignored fields and mismatched context lists', () => {
    expectWarning(withSection({ anchor: 'x', anchor_flags: 'gi' }), 'sections.extra.anchor_flags: contains "g", which makes each test() depend on the previous one');
    expectWarning(withSection({ from_top: 1, lines: 3 }), 'sections.extra.lines: only applies to anchored sections');
    expectWarning(withSection({ anchor: 'x', from_top: 1 }), 'sections.extra: "anchor" takes precedence');
    expectWarning(withSection({ from_top: 1, from_bottom: 1 }), 'sections.extra.from_bottom: is ignored because from_top takes precedence');
    expectWarning(withSection({ anchor: ['a', 'b'], anchor_context: [{ next: 'c' }] }), 'sections.extra.anchor_context: has 1 entries for 2 anchor candidate(s)');
    expectWarning(withSection({ anchor: 'x', anchr_last: true }), 'sections.extra.anchr_last: unknown field in a section definition; it is ignored; did you mean "anchor_last"?');
  });
});

describe('control_bar, notifications, delegate', () => {
  const withControls = (controls: unknown) => edit((s) => (s.control_bar = controls));
  const stop = { id: 'stop', label: 'Stop', visible_when_state: ['busy'], action: { type: 'send_keys', keys: '\u0003' } };

  it('accepts the three action types', () => {
    const controls = [
      stop,
      { id: 'model', label: 'Model', action: { type: 'open_picker', trigger_keys: '/model\r', wait_for: { regex: 'Select model' }, extract_choices: { pattern: '(\\d+)\\. (.+)' }, submit_key: '{index}\r', select_mode: 'arrow_keys', cursor_keys: { up: '\u001b[A' } } },
      { id: 'attach', label: 'Attach', action: { type: 'attach_image', method: 'tempfile_then_keys', keys_template: '{path}\r' } },
    ];
    expect(errorsOf(withControls(controls))).toEqual([]);
  });

  it('requires unique ids, known states and complete actions', () => {
    expectError(withControls({}), 'control_bar: must be an array of controls');
    expectError(withControls([stop, stop]), 'control_bar[1].id: "stop" is duplicated (first declared at control_bar[0])');
    expectError(withControls([{ ...stop, visible_when_state: ['bsy'] }]), 'control_bar[0].visible_when_state[0]: unknown state "bsy" (known: starting, idle, busy, approval); did you mean "busy"?');
    expectError(withControls([{ ...stop, visible_when_state: 'busy' }]), 'control_bar[0].visible_when_state: must be an array of strings');
    expectError(withControls([{ ...stop, action: undefined }]), 'control_bar[0].action: is required');
    expectError(withControls([{ ...stop, action: { type: 'send_keys' } }]), 'control_bar[0].action.keys: is required');
    expectError(withControls([{ ...stop, action: { type: 'attach_image', keys_template: 'x' } }]), 'control_bar[0].action.keys_template: must contain "{path}"');
    expectError(withControls([{ ...stop, action: { type: 'attach_image', method: 'paste', keys_template: '{path}' } }]), 'control_bar[0].action.method: must be "tempfile_then_keys"');
    expectError(withControls([{ ...stop, action: { type: 'open_picker', trigger_keys: '/m', wait_for: { regex: 'x' } } }]), 'control_bar[0].action.extract_choices: is required');
    expectError(withControls([{ ...stop, action: { type: 'open_picker', trigger_keys: '/m', wait_for: {}, extract_choices: { pattern: 'x' } } }]), 'control_bar[0].action.wait_for.regex: is required');
    expectError(withControls([{ ...stop, action: { type: 'open_picker', trigger_keys: '/m', wait_for: { regex: 'x', section: 'nope' }, extract_choices: { pattern: '(' } } }]), 'control_bar[0].action.extract_choices.pattern: invalid regex');
    expectError(withControls([{ ...stop, action: { type: 'open_picker', trigger_keys: '/m', wait_for: { regex: 'x', section: 'nope' }, extract_choices: { pattern: 'x' } } }]), 'control_bar[0].action.wait_for.section: unknown section "nope"');
  });

  it('requires notification and delegate when_state to name a state', () => {
    expect(errorsOf(edit((s) => (s.notifications = [{ id: 'n', when_state: 'approval', title: 'T', body: '{state.title}' }])))).toEqual([]);
    expectError(edit((s) => (s.notifications = [{ id: 'n', when_state: 'aproval', title: 'T' }])), 'notifications[0].when_state: unknown state "aproval"');
    expectError(edit((s) => (s.notifications = [{ id: 'n', title: 'T' }])), 'notifications[0].when_state: is required');
    expectError(edit((s) => (s.delegate = [{ id: 'd', when_state: 'idle', task_template: 'go', after_duration_ms: -5 }])), 'delegate[0].after_duration_ms: must be a number ≥ 0');
    expectError(edit((s) => (s.delegate = [{ id: 'd', when_state: 'nap', task_template: 'go' }])), 'delegate[0].when_state: unknown state "nap"');
  });
});

describe('signal_rules', () => {
  const withRules = (rules: unknown) => edit((s) => (s.signal_rules = rules));
  const rule = { id: 'limit', kind: 'usage_limit', pattern: '(?<what>usage limit)', flags: 'i' };

  it('accepts a valid rule and applies the §7.3 rules as errors', () => {
    expect(errorsOf(withRules([rule]))).toEqual([]);
    expectError(withRules([{ ...rule, id: 'Limit!' }]), 'signal_rules[0].id: must match ^[a-z0-9][a-z0-9_]{0,63}$');
    expectError(withRules([rule, rule]), 'signal_rules[1].id: "limit" is duplicated');
    expectError(withRules([{ ...rule, kind: 'oops' }]), 'signal_rules[0].kind: must be usage_limit|auth_error|rate_limit|service_error|info');
    expectError(withRules([{ ...rule, pattern: '' }]), 'signal_rules[0].pattern: must be a non-empty string');
    expectError(withRules([{ ...rule, pattern: 'a'.repeat(201) }]), 'signal_rules[0].pattern: is longer than 200 characters (201 chars)');
    expectError(withRules([{ ...rule, pattern: '(' }]), 'signal_rules[0].pattern: invalid regex');
    expectError(withRules([{ ...rule, flags: 'm' }]), 'signal_rules[0].flags: may only contain "i" and "g"');
    expect(errorsOf(withRules([{ ...rule, flags: 'gi' }]))).toEqual([]);
  });
});

describe('graph lints', () => {
  it('warns about states no path reaches from the initial state', () => {
    expectWarning(edit((s) => s.states.push({ id: 'orphan', label: 'Orphan' })), 'states[4]: state "orphan" is unreachable from the initial state "starting"; add a transition with "to": "orphan" or remove the state');
  });

  it('counts "*" edges as reaching their destination', () => {
    const spec = edit((s) => {
      s.states.push({ id: 'error', label: 'Error' });
      s.transitions.push({ from: '*', to: 'error', when: { matches: 'fatal' } });
    });
    expect(warningsOf(spec).some((w) => w.includes('unreachable'))).toBe(false);
  });

  it('warns on every "*" edge and lists the explicit sources', () => {
    const spec = edit((s) => s.transitions.push({ from: '*', to: 'approval', when: { matches: 'Allow' } }));
    expectWarning(spec, 'transitions[5].from: "*" also leaves "approval" itself, so while the guard stays true this edge re-fires on every evaluation and resets the state clock ("*"); list the sources explicitly: ["starting","idle","busy"]');
  });
});

describe('ReDoS screening', () => {
  it('passes every regex of the spec to the screen with the flags the engine uses', () => {
    const calls: string[] = [];
    const screen: RegexScreen = (source, flags) => {
      calls.push(`${flags}/${source}`);
      return { complexity: 'safe' };
    };
    const spec = edit((s) => {
      s.sections.modal = { anchor: ['^A', '^B'], anchor_flags: 'm', anchor_context: { prev: '^P', next: '^N', next_flags: 'i' }, until: '^U' };
      s.sections.tail = { anchor: 'T', until_regex: 'UR' };
      s.transitions[2].when.all.push({ stable_ms: 10, ignore_lines: 'IGN' }, { window_title: 'WT' });
      s.states[3].extract.title = { regex: 'TITLE' };
      s.control_bar = [{ id: 'm', label: 'M', action: { type: 'open_picker', trigger_keys: '/m', wait_for: { regex: 'WAIT' }, extract_choices: { pattern: '(\\d)(CH)' } } }];
      s.signal_rules = [{ id: 'x', kind: 'info', pattern: 'SIG', flags: 'gi' }];
      s.startup_dismiss = { key: '\r', patterns: [{ regex: 'DISMISS' }] };
    });
    expect(errorsOf(spec, screen)).toEqual([]);
    expect(calls).toEqual(
      expect.arrayContaining([
        'm/^A', 'm/^B', '/^P', 'i/^N', '/^U', '/T', '/UR', 'i/Working', 'm/IGN', 'i/WT', 'i/TITLE', 'gm/(\\d+)\\. (\\S+)',
        'i/WAIT', '/(\\d)(CH)', 'i/SIG', '/DISMISS',
      ]),
    );
  });

  it('turns an exponential verdict into an error naming path, pattern and attack string', () => {
    const screen: RegexScreen = (source) => (source === '^(a+)+$' ? { complexity: 'exponential', attack: "'a'.repeat(31)+'!'" } : { complexity: 'safe' });
    const spec = edit((s) => (s.transitions[1].when = { matches: '^(a+)+$', flags: 'm' }));
    expect(errorsOf(spec, screen)).toEqual([
      'transitions[1].when.matches: regex can take exponential time on some screens (ReDoS); attack string: \'a\'.repeat(31)+\'!\' ("^(a+)+$"); remove nested or overlapping quantifiers such as (a+)+ or (a|a)*',
    ]);
  });

  it('turns a polynomial verdict into a warning', () => {
    const screen: RegexScreen = (source) => (source === '\\s*x\\s*' ? { complexity: 'polynomial', attack: "' '.repeat(9999)" } : null);
    const result = validateSpec(edit((s) => (s.sections.body.until = '^\\s*x\\s*')), { screenRegex: () => null });
    expect(result.errors).toEqual([]);
    const spec = edit((s) => (s.transitions[1].when.matches = '\\s*x\\s*'));
    expect(errorsOf(spec, screen)).toEqual([]);
    expect(warningsOf(spec, screen)).toEqual([expect.stringMatching(/^transitions\[1\]\.when\.matches: regex can take polynomial time .*attack string: ' '\.repeat\(9999\) \("\\\\s\*x\\\\s\*"\)/)]);
  });

  it('ignores a screen that throws or answers garbage', () => {
    const throwing: RegexScreen = () => {
      throw new Error('boom');
    };
    expect(validateSpec(baseSpec(), { screenRegex: throwing })).toEqual({ errors: [], warnings: [], issues: [] });
    expect(validateSpec(baseSpec(), { screenRegex: (() => 'exponential') as unknown as RegexScreen })).toEqual({ errors: [], warnings: [], issues: [] });
  });

  it('does not screen regexes that fail to compile', () => {
    const calls: string[] = [];
    errorsOf(edit((s) => (s.transitions[1].when.matches = '(')), (src) => (calls.push(src), null));
    expect(calls).not.toContain('(');
  });
});

describe('robustness', () => {
  it('never throws on arbitrary JSON and answers with string lists', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const result = validateSpec(raw);
        expect(Array.isArray(result.errors) && Array.isArray(result.warnings)).toBe(true);
        expect(result.errors.every((e) => typeof e === 'string' && !e.includes('could not be validated'))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws when any field of a valid spec is replaced by arbitrary JSON', () => {
    const paths: Array<(s: any, v: unknown) => void> = [
      (s, v) => (s.states = v), (s, v) => (s.transitions = v), (s, v) => (s.sections = v),
      (s, v) => (s.states[3].extract = v), (s, v) => (s.transitions[2].when = v), (s, v) => (s.transitions[2].when.all = v),
      (s, v) => (s.transitions[1].from = v), (s, v) => (s.control_bar = v), (s, v) => (s.signal_rules = v),
      (s, v) => (s.notifications = v), (s, v) => (s.delegate = v), (s, v) => (s.startup_dismiss = v),
      (s, v) => (s.pre_launch_trust = v), (s, v) => (s.sections.body = v), (s, v) => (s.states[0] = v),
      (s, v) => (s.send_message = v), (s, v) => (s.env = v),
    ];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: paths.length - 1 }), fc.jsonValue(), (i, v) => {
        const spec = baseSpec();
        paths[i]!(spec, v);
        const result = validateSpec(spec);
        expect(result.errors.every((e) => !e.includes('could not be validated'))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary JavaScript values (undefined, NaN, symbols, cycles)', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true }), (raw) => {
        expect(() => validateSpec(raw)).not.toThrow();
        expect(() => validateSpec(edit((s) => (s.transitions[1].when = raw)))).not.toThrow();
      }),
      { numRuns: 300 },
    );
    const cyclic: any = baseSpec();
    cyclic.transitions[1].when = { all: [] };
    cyclic.transitions[1].when.all.push(cyclic.transitions[1].when);
    expect(errorsOf(cyclic)).toEqual([expect.stringContaining('nesting deeper than 64 levels')]);
  });

  it('reports instead of throwing when reading the input throws', () => {
    const hostile = new Proxy(baseSpec(), {
      get(target, key) {
        if (key === 'states') throw new Error('no access');
        return Reflect.get(target, key);
      },
    });
    expect(validateSpec(hostile).errors).toEqual(['spec: could not be validated (no access); pass plain JSON data']);
  });

  it('caps the message lists on a spec broken everywhere', () => {
    const spec = edit((s) => {
      for (let i = 0; i < 1000; i++) s.transitions.push({ from: 'nowhere', to: 'nothing' });
    });
    const errors = errorsOf(spec);
    expect(errors).toHaveLength(201);
    expect(errors[200]).toMatch(/^spec: \d+ more errors not shown/);
  });

  it('validates a machine with 5 000 states and transitions quickly', () => {
    const spec = edit((s) => {
      for (let i = 0; i < 5000; i++) {
        s.states.push({ id: `s${i}`, label: `S${i}` });
        s.transitions.push({ from: i === 0 ? 'idle' : `s${i - 1}`, to: `s${i}`, when: { matches: `step ${i}`, section: 'body' } });
      }
    });
    const started = performance.now();
    expect(errorsOf(spec)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('reference compatibility (checks the reference loader does not make)', () => {
  const withSection = (def: unknown) => edit((s) => (s.sections.extra = def));
  const tolerated: Array<[string, Json, string]> = [
    ['an anchor that does not compile', withSection({ anchor: '(' }), 'sections.extra.anchor: invalid regex'],
    ['anchor flags that are invalid', withSection({ anchor: 'x', anchor_flags: 'z' }), 'sections.extra.anchor_flags: unknown regex flag "z"'],
    ['a context regex that does not compile', withSection({ anchor: 'x', anchor_context: { next: '(' } }), 'sections.extra.anchor_context.next: invalid regex'],
    ['a context that is not an object', withSection({ anchor: 'x', anchor_context: [5] }), 'sections.extra.anchor_context[0]: must be an object'],
    ['an until_regex that does not compile', withSection({ anchor: 'x', until_regex: '(' }), 'sections.extra.until_regex: invalid regex'],
    ['an until regex that does not compile', withSection({ anchor: 'x', until: '^(' }), 'sections.extra.until: invalid regex'],
    ['an until naming no section', withSection({ from_top: 0, until: 'fotter' }), 'sections.extra.until: unknown section "fotter"'],
    ['anchor_miss other than "empty"', withSection({ anchor: 'x', anchor_miss: 'whole' }), 'sections.extra.anchor_miss: must be "empty"'],
    ['a size string that is not a percentage', withSection({ from_top: 'abc' }), 'sections.extra.from_top: must be a line count or a percentage'],
    ['a percentage over 100%', withSection({ from_top: '150%' }), 'sections.extra.from_top: must be a line count or a percentage'],
    ['a negative size', withSection({ from_bottom: -1 }), 'sections.extra.from_bottom: must be a whole number ≥ 0 (got -1)'],
    ['a negative above', withSection({ anchor: 'x', above: -1 }), 'sections.extra.above: must be a whole number ≥ 0'],
    ['a non-boolean anchor_last', withSection({ anchor: 'x', anchor_last: 1 }), 'sections.extra.anchor_last: must be true or false'],
    ['a notification on no state', edit((s) => (s.notifications = [{ id: 'n', when_state: 'aproval', title: 'T' }])), 'notifications[0].when_state: unknown state "aproval"'],
    ['a delegate on no state', edit((s) => (s.delegate = [{ id: 'd', task_template: 't' }])), 'delegate[0].when_state: is required'],
    ['a negative min_hold_ms', edit((s) => (s.transitions[1].min_hold_ms = -5)), 'transitions[1].min_hold_ms: must be a number ≥ 0 (got -5)'],
    ['a negative elapsed_ms', edit((s) => (s.transitions[0].when.elapsed_ms = -1)), 'transitions[0].when.elapsed_ms: must be a number ≥ 0 (got -1)'],
    ['a negative stable_ms', edit((s) => (s.transitions[2].when.all[1].stable_ms = -1)), 'transitions[2].when.all[1].stable_ms: must be a number ≥ 0 (got -1)'],
    ['a control visible in no state', edit((s) => (s.control_bar = [{ id: 'stop', label: 'Stop', visible_when_state: ['bsy'], action: { type: 'send_keys', keys: '\u0003' } }])), 'control_bar[0].visible_when_state[0]: unknown state "bsy"'],
  ];

  it.each(tolerated)('loads %s with a strict-only warning, and strict validation refuses it', (_name, spec, fragment) => {
    const lenient = validateSpec(spec);
    expect(lenient.errors).toEqual([]);
    const warning = lenient.issues.find((i) => i.message.startsWith(fragment));
    expect(warning, lenient.warnings.join('\n')).toMatchObject({ severity: 'warning', strictOnly: true });
    expect(warning!.message).toContain('an error under --strict');
    const strict = validateSpec(spec, { strict: true });
    expect(strict.issues.find((i) => i.message.startsWith(fragment))).toMatchObject({ severity: 'error', strictOnly: true });
  });

  const kept: Array<[string, Json, string]> = [
    ['an anchor that is not a string', withSection({ anchor: 5 }), 'sections.extra.anchor: must be a regex string'],
    ['a line count that is a string', withSection({ anchor: 'x', lines: 'all' }), 'sections.extra.lines: must be a whole number ≥ 0'],
    ['a min_hold_ms that is a string (the reference would coerce it)', edit((s) => (s.transitions[1].min_hold_ms = '800')), 'transitions[1].min_hold_ms: must be a number ≥ 0'],
    ['an elapsed_ms that is not a number (the reference checks it)', edit((s) => (s.transitions[0].when.elapsed_ms = 'soon')), 'transitions[0].when.elapsed_ms: must be a number ≥ 0'],
    ['an until that is not a string', withSection({ from_top: 0, until: 3 }), 'sections.extra.until: must be a string'],
    ['a guard on an unknown section (the reference checks it)', edit((s) => (s.transitions[1].when.section = 'bdy')), 'transitions[1].when.section: unknown section "bdy"'],
    ['a guard regex that does not compile (the reference checks it)', edit((s) => (s.transitions[1].when.matches = '(')), 'transitions[1].when.matches: invalid regex'],
  ];

  it.each(kept)('still refuses %s when loading leniently', (_name, spec, fragment) => {
    const { errors } = validateSpec(spec);
    expect(errors.some((e) => e.startsWith(fragment)), errors.join('\n')).toBe(true);
  });

  it('still refuses an exponential section regex when loading leniently (the reference would freeze on it)', () => {
    const screen: RegexScreen = (source) => (source === '^(a+)+$' ? { complexity: 'exponential' } : { complexity: 'safe' });
    const { issues } = validateSpec(withSection({ anchor: '^(a+)+$' }), { screenRegex: screen });
    expect(issues).toContainEqual(expect.objectContaining({ code: 'SPEC_REDOS', path: 'sections.extra.anchor', severity: 'error' }));
  });
});
