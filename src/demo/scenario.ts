/**
 * Scenario files: the script that stands in for a model. A scenario maps a user message to a
 * list of timed steps (think, say, tool, error). Loading validates everything once, with
 * messages that name the field, the offending value and the fix.
 * @module
 */

/** Show the spinner for a while without output (the model "thinks"). */
export interface ThinkStep {
  think_ms: number;
  /** Spinner verb for this step (`Pondering`); default: the turn's verb. */
  verb?: string;
}

/** Stream text word by word. Blank lines split paragraphs; each finished paragraph is committed. */
export interface SayStep {
  say: string;
  /** Words per minute (default 600 = one word every 100 ms before `--speed`). */
  wpm?: number;
}

/** A tool call: `⏺ Bash(npm test)`, optionally behind an approval modal, then its output. */
export interface ToolStep {
  tool: string;
  command: string;
  /** Ask for approval first (default false). */
  approval?: boolean;
  /** Output lines shown under `⎿` once the tool finished. */
  output?: string[];
  /** How long the tool "runs" (default 800 ms before `--speed`). */
  run_ms?: number;
  /** Second line in the approval modal (e.g. "Run the test suite"). */
  description?: string;
}

/** End the turn with `⎿  API Error: <error>`. */
export interface ErrorStep {
  error: string;
}

export type ScenarioStep = ThinkStep | SayStep | ToolStep | ErrorStep;

/** A rule: the first rule whose `match` tests true on the user's message runs. No `match` = default. */
export interface ScenarioRule {
  match?: string;
  /** Regex flags for `match` (default `i`). */
  flags?: string;
  steps: ScenarioStep[];
}

/** One entry of the `/model` picker. */
export interface ModelInfo {
  name: string;
  description?: string;
}

/** A validated scenario. */
export interface Scenario {
  /** The active model at start. Must be one of `models`. */
  model: string;
  models: ModelInfo[];
  /** Spinner verbs a turn picks from (seeded). */
  verbs: string[];
  rules: ScenarioRule[];
}

/** Outcome of {@link parseScenario}. */
export type ScenarioParseResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

/** Default words per minute of a `say` step: one word per 100 ms. */
export const DEFAULT_WPM = 600;
/** Default tool run time: long enough to see `Running…`, short enough not to bore. */
export const DEFAULT_TOOL_RUN_MS = 800;
/** Verbs used when the scenario names none (Claude Code's style). */
export const DEFAULT_VERBS = ['Thinking', 'Pondering', 'Cogitating', 'Noodling', 'Brewing'];

/** Reply used when no rule matches and the scenario has no default rule. */
const FALLBACK_RULE: ScenarioRule = {
  steps: [{ think_ms: 600 }, { say: "I don't have a scripted answer for that. Try `hello`, `run the tests` or `long`." }],
};

const STEP_KEYS: Record<string, readonly string[]> = {
  think_ms: ['think_ms', 'verb'],
  say: ['say', 'wpm'],
  tool: ['tool', 'command', 'approval', 'output', 'run_ms', 'description'],
  error: ['error'],
};

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys starting with `_` are documentation (as in specs) and never validated. */
function isDocKey(key: string): boolean {
  return key.startsWith('_');
}

class Collector {
  readonly errors: string[] = [];

  add(message: string): void {
    this.errors.push(message);
  }

  string(obj: Record<string, unknown>, key: string, path: string, required: boolean): string | undefined {
    const value = obj[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.length === 0) {
      this.add(`${path}.${key} must be a non-empty string, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }

  positive(obj: Record<string, unknown>, key: string, path: string, allowZero: boolean): number | undefined {
    const value = obj[key];
    if (value === undefined) return undefined;
    const valid = typeof value === 'number' && Number.isFinite(value) && (allowZero ? value >= 0 : value > 0);
    if (!valid) {
      this.add(`${path}.${key} must be a ${allowZero ? 'number ≥ 0' : 'positive number'}, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }
}

function parseStep(raw: unknown, path: string, c: Collector): ScenarioStep | undefined {
  if (!isRecord(raw)) {
    c.add(`${path} must be an object such as {"say": "…"}, got ${describe(raw)}`);
    return undefined;
  }
  const kinds = Object.keys(STEP_KEYS).filter((k) => k in raw);
  if (kinds.length !== 1) {
    const found = kinds.length === 0 ? 'none of them' : kinds.join(' and ');
    c.add(`${path} must have exactly one of think_ms, say, tool, error (found ${found}); a step does one thing`);
    return undefined;
  }
  const kind = kinds[0];
  const allowed = STEP_KEYS[kind];
  for (const key of Object.keys(raw)) {
    if (!isDocKey(key) && !allowed.includes(key)) {
      c.add(`${path}.${key} is not a field of a ${kind} step (allowed: ${allowed.join(', ')})`);
    }
  }
  const before = c.errors.length;
  let step: ScenarioStep | undefined;
  if (kind === 'think_ms') {
    const thinkMs = c.positive(raw, 'think_ms', path, true);
    if (raw.think_ms === undefined) c.add(`${path}.think_ms is required`);
    const verb = c.string(raw, 'verb', path, false);
    step = { think_ms: thinkMs ?? 0, ...(verb !== undefined && { verb }) };
  } else if (kind === 'say') {
    const say = typeof raw.say === 'string' ? raw.say : undefined;
    if (say === undefined || say.trim() === '') c.add(`${path}.say must be a non-empty string, got ${describe(raw.say)}`);
    const wpm = c.positive(raw, 'wpm', path, false);
    step = { say: say ?? '', ...(wpm !== undefined && { wpm }) };
  } else if (kind === 'tool') {
    const tool = c.string(raw, 'tool', path, true);
    const command = c.string(raw, 'command', path, true);
    if (raw.approval !== undefined && typeof raw.approval !== 'boolean') {
      c.add(`${path}.approval must be true or false, got ${describe(raw.approval)}`);
    }
    let output: string[] | undefined;
    if (raw.output !== undefined) {
      if (!Array.isArray(raw.output) || raw.output.some((line) => typeof line !== 'string')) {
        c.add(`${path}.output must be an array of strings (one per line), got ${describe(raw.output)}`);
      } else {
        output = raw.output as string[];
      }
    }
    const runMs = c.positive(raw, 'run_ms', path, true);
    const description = c.string(raw, 'description', path, false);
    step = {
      tool: tool ?? '',
      command: command ?? '',
      approval: raw.approval === true,
      output: output ?? [],
      ...(runMs !== undefined && { run_ms: runMs }),
      ...(description !== undefined && { description }),
    };
  } else {
    const error = c.string(raw, 'error', path, true);
    step = { error: error ?? '' };
  }
  return c.errors.length === before ? step : undefined;
}

function parseRule(raw: unknown, path: string, c: Collector): ScenarioRule | undefined {
  if (!isRecord(raw)) {
    c.add(`${path} must be an object {"match": "regex", "steps": [...]}, got ${describe(raw)}`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!isDocKey(key) && !['match', 'flags', 'steps'].includes(key)) {
      c.add(`${path}.${key} is not a rule field (allowed: match, flags, steps)`);
    }
  }
  const match = c.string(raw, 'match', path, false);
  const flags = raw.flags === undefined ? undefined : typeof raw.flags === 'string' ? raw.flags : null;
  if (flags === null) c.add(`${path}.flags must be a string of regex flags such as "i", got ${describe(raw.flags)}`);
  if (match !== undefined && flags !== null) {
    try {
      new RegExp(match, flags ?? 'i');
    } catch (error) {
      c.add(`${path}.match ${JSON.stringify(match)} is not a valid regex: ${(error as Error).message}`);
    }
  }
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) {
    c.add(`${path}.steps must be a non-empty array of steps, got ${describe(raw.steps)}`);
    return undefined;
  }
  const steps = raw.steps.map((step, i) => parseStep(step, `${path}.steps[${i}]`, c));
  if (steps.some((s) => s === undefined)) return undefined;
  return {
    ...(match !== undefined && { match }),
    ...(typeof flags === 'string' && { flags }),
    steps: steps as ScenarioStep[],
  };
}

function parseModels(raw: unknown, c: Collector): ModelInfo[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    c.add(`models must be a non-empty array of model names, got ${describe(raw)}`);
    return undefined;
  }
  const models: ModelInfo[] = [];
  raw.forEach((entry, i) => {
    if (typeof entry === 'string' && entry.length > 0) {
      models.push({ name: entry });
    } else if (isRecord(entry) && typeof entry.name === 'string' && entry.name.length > 0) {
      if (entry.description !== undefined && typeof entry.description !== 'string') {
        c.add(`models[${i}].description must be a string, got ${describe(entry.description)}`);
      }
      models.push({ name: entry.name, ...(typeof entry.description === 'string' && { description: entry.description }) });
    } else {
      c.add(`models[${i}] must be a model name or {"name": "…", "description": "…"}, got ${describe(entry)}`);
    }
  });
  const seen = new Set<string>();
  for (const m of models) {
    if (seen.has(m.name)) c.add(`models lists "${m.name}" twice; remove the duplicate`);
    seen.add(m.name);
  }
  return models;
}

/**
 * Validates an untrusted JSON value as a scenario and fills defaults.
 * @returns the scenario, or every problem found (each names its field path).
 */
export function parseScenario(raw: unknown): ScenarioParseResult {
  const c = new Collector();
  if (!isRecord(raw)) {
    return { ok: false, errors: [`the scenario must be a JSON object {"model": …, "rules": […]}, got ${describe(raw)}`] };
  }
  for (const key of Object.keys(raw)) {
    if (!isDocKey(key) && !['model', 'models', 'verbs', 'rules'].includes(key)) {
      c.add(`${key} is not a scenario field (allowed: model, models, verbs, rules)`);
    }
  }
  const model = c.string(raw, 'model', '', true);
  const models = raw.models === undefined && model !== undefined ? [{ name: model }] : parseModels(raw.models, c);
  if (model !== undefined && models !== undefined && !models.some((m) => m.name === model)) {
    c.add(`model "${model}" is not in models (${models.map((m) => m.name).join(', ')}); add it to models`);
  }
  let verbs = DEFAULT_VERBS;
  if (raw.verbs !== undefined) {
    if (!Array.isArray(raw.verbs) || raw.verbs.length === 0 || raw.verbs.some((v) => typeof v !== 'string' || v === '')) {
      c.add(`verbs must be a non-empty array of words such as ["Thinking"], got ${describe(raw.verbs)}`);
    } else {
      verbs = raw.verbs as string[];
    }
  }
  let rules: ScenarioRule[] = [];
  if (!Array.isArray(raw.rules) || raw.rules.length === 0) {
    c.add(`rules must be a non-empty array of {"match", "steps"} rules, got ${describe(raw.rules)}`);
  } else {
    const parsed = raw.rules.map((rule, i) => parseRule(rule, `rules[${i}]`, c));
    parsed.forEach((rule, i) => {
      if (rule !== undefined && rule.match === undefined && i !== parsed.length - 1) {
        c.add(`rules[${i}] has no match (a default rule) but is not last: the rules after it can never match; move it to the end`);
      }
    });
    rules = parsed.filter((r): r is ScenarioRule => r !== undefined);
  }
  // The leading "." of top-level paths comes from the shared helpers; strip it for readability.
  const errors = c.errors.map((e) => (e.startsWith('.') ? e.slice(1) : e));
  if (errors.length > 0 || model === undefined || models === undefined) return { ok: false, errors };
  return { ok: true, scenario: { model, models, verbs, rules } };
}

/**
 * Parses scenario JSON text; `source` (a file name) prefixes every message.
 * @returns the scenario, or errors such as `demo.json: rules[0].steps[1].wpm must be a positive number, got string "x"`.
 */
export function parseScenarioText(text: string, source: string): ScenarioParseResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`${source}: not valid JSON (${(error as Error).message}); fix the syntax`] };
  }
  const result = parseScenario(raw);
  return result.ok ? result : { ok: false, errors: result.errors.map((e) => `${source}: ${e}`) };
}

/** Returns the first rule whose `match` tests true on `message` (a rule without `match` always does). */
export function selectRule(scenario: Scenario, message: string): ScenarioRule {
  for (const rule of scenario.rules) {
    if (rule.match === undefined) return rule;
    if (new RegExp(rule.match, rule.flags ?? 'i').test(message)) return rule;
  }
  return FALLBACK_RULE;
}
