/**
 * The rules that keep agents starting agents bounded and a person in charge (docs/mcp.md,
 * "Safety"), enforced here in the daemon whatever carried the call: a chain of child sessions at
 * most `max_depth` deep, at most `max_children` running children per session, no session given
 * work by one it waits on, and a child's prompts answered by its parent agent only where
 * `settings.json` names that pair. Also reads `delegate_routes`: where a spec's delegate
 * trigger hands its task (./task-runner.ts acts on them).
 * @module
 */
import { ModalKind } from '../protocol/index.js';

const MODAL_KINDS = ModalKind.options;
import { DaemonError } from './errors.js';

/** The label a child session carries: the session that started it (a handoff, an assign, a start_session by an agent). */
export const PARENT_LABEL = 'specterm.parent';
/** How many parents up the chain goes (1 = a child of a session started by a person). */
export const DEPTH_LABEL = 'specterm.depth';

export const DEFAULT_LIMITS = { max_depth: 3, max_children: 5 } as const;

/** Where a delegate trigger's task goes: a named (or id'd) session, or a new session of a spec. */
export type DelegateRoute =
  | { session: string; timeout_ms?: number }
  | { spec: string; cwd: string; worktree_branch?: string; timeout_ms?: number };

/** `settings.json`'s `orchestration` member, checked. */
export interface OrchestrationSettings {
  max_depth: number;
  max_children: number;
  /** By `<spec id>/<trigger id>` or `<trigger id>`. */
  delegate_routes: Record<string, DelegateRoute>;
  /** Pairs (spec id or session name) where the parent agent may answer its child's prompts of these kinds. */
  parent_answers: Array<{ parent: string; child: string; kinds: string[] }>;
}

export type ChildLimits = Pick<OrchestrationSettings, 'max_depth' | 'max_children'>;

/** What the rules read of a session. */
export interface LineageSession {
  id: string;
  name: string | null;
  specId: string | null;
  labels: Record<string, string>;
  running: boolean;
}

/** A session as the rules read it. */
export function lineageOf(session: { id: string; record: { name: string | null; specId: string | null; labels: Record<string, string>; exitedAt: number | null } }): LineageSession {
  // Not yet exited (a child still starting counts: it will run).
  return { id: session.id, name: session.record.name, specId: session.record.specId, labels: session.record.labels, running: session.record.exitedAt === null };
}

const SETTINGS_EXAMPLE = '{"orchestration": {"max_depth": 3, "max_children": 5, "delegate_routes": {"usage_limit_handoff": {"spec": "codex", "cwd": "/home/me/project"}}, "parent_answers": [{"parent": "claude-code", "child": "demo-agent", "kinds": ["approval"]}]}}';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

function fail(path: string, value: unknown, fix: string): never {
  throw new Error(`orchestration${path} is ${show(value)}: ${fix}`);
}

function wholeNumber(value: unknown, path: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(path, value, `use a whole number from ${min} to ${max}`);
  return value;
}

function text(value: unknown, path: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 4096) fail(path, value, `name ${what} (a non-empty string)`);
  return value;
}

function onlyKeys(value: Record<string, unknown>, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(`${path}.${key}`, value[key], `it is not a setting here; use ${allowed.join(', ')}`);
  }
}

function parseRoute(value: unknown, path: string): DelegateRoute {
  if (!isObject(value)) fail(path, value, 'give an object: {"session": "<name or id>"} or {"spec": "<spec id>", "cwd": "/absolute/dir"}');
  onlyKeys(value, path, ['session', 'spec', 'cwd', 'worktree_branch', 'timeout_ms']);
  const timeout = value.timeout_ms === undefined ? {} : { timeout_ms: wholeNumber(value.timeout_ms, `${path}.timeout_ms`, 1_000, 86_400_000, 0) };
  if (value.session !== undefined) {
    if (value.spec !== undefined || value.cwd !== undefined) fail(path, value, 'name either "session" (an existing one) or "spec" and "cwd" (a new one), not both');
    return { session: text(value.session, `${path}.session`, 'the session'), ...timeout };
  }
  const spec = text(value.spec, `${path}.spec`, 'the spec to start (e.g. "codex") or give "session"');
  const cwd = text(value.cwd, `${path}.cwd`, 'the new session\'s working directory');
  if (!cwd.startsWith('/')) fail(`${path}.cwd`, cwd, 'use an absolute path');
  const branch = value.worktree_branch === undefined ? {} : { worktree_branch: text(value.worktree_branch, `${path}.worktree_branch`, 'the new worktree\'s branch') };
  return { spec, cwd, ...branch, ...timeout };
}

/**
 * Checks `settings.json`'s `orchestration` member; a fault names its place, its value and the fix.
 * @throws Error whose message starts `orchestration.<path> is <value>: <fix>`.
 */
export function parseOrchestration(value: unknown): OrchestrationSettings {
  if (value === undefined) return { ...DEFAULT_LIMITS, delegate_routes: {}, parent_answers: [] };
  if (!isObject(value)) fail('', value, `give an object such as ${SETTINGS_EXAMPLE}`);
  onlyKeys(value, '', ['max_depth', 'max_children', 'delegate_routes', 'parent_answers']);
  const routes: Record<string, DelegateRoute> = {};
  if (value.delegate_routes !== undefined) {
    if (!isObject(value.delegate_routes)) fail('.delegate_routes', value.delegate_routes, 'give an object from a trigger id (or "<spec id>/<trigger id>") to a route');
    for (const [key, route] of Object.entries(value.delegate_routes)) routes[key] = parseRoute(route, `.delegate_routes.${key}`);
  }
  const pairs: OrchestrationSettings['parent_answers'] = [];
  if (value.parent_answers !== undefined) {
    if (!Array.isArray(value.parent_answers)) fail('.parent_answers', value.parent_answers, 'give a list of {"parent": "<spec id or name>", "child": "<spec id or name>", "kinds": ["approval"]}');
    value.parent_answers.forEach((pair: unknown, i) => {
      const path = `.parent_answers[${i}]`;
      if (!isObject(pair)) fail(path, pair, 'give {"parent": "<spec id or name>", "child": "<spec id or name>"}');
      onlyKeys(pair, path, ['parent', 'child', 'kinds']);
      const kinds = pair.kinds === undefined ? ['approval'] : pair.kinds;
      if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !(MODAL_KINDS as readonly unknown[]).includes(k))) {
        fail(`${path}.kinds`, pair.kinds, `list prompt kinds among ${MODAL_KINDS.join(', ')} (default ["approval"])`);
      }
      pairs.push({ parent: text(pair.parent, `${path}.parent`, 'the parent (a spec id or session name)'), child: text(pair.child, `${path}.child`, 'the child (a spec id or session name)'), kinds: kinds as string[] });
    });
  }
  return {
    max_depth: wholeNumber(value.max_depth, '.max_depth', 1, 20, DEFAULT_LIMITS.max_depth),
    max_children: wholeNumber(value.max_children, '.max_children', 1, 100, DEFAULT_LIMITS.max_children),
    delegate_routes: routes,
    parent_answers: pairs,
  };
}

/** The sessions above `session`, nearest first (a broken or looping chain stops). */
export function ancestorsOf(session: LineageSession, all: readonly LineageSession[]): LineageSession[] {
  const byId = new Map(all.map((s) => [s.id, s]));
  const chain: LineageSession[] = [];
  for (let parent = byId.get(session.labels[PARENT_LABEL] ?? ''); parent && !chain.includes(parent) && parent !== session; parent = byId.get(parent.labels[PARENT_LABEL] ?? '')) {
    chain.push(parent);
  }
  return chain;
}

/**
 * The labels of a new child of `parent`, once the limits allow it: its depth is counted here
 * (a caller's own depth label is not trusted).
 * @throws DaemonError HANDOFF_TOO_DEEP or HANDOFF_FAN_OUT
 */
export function admitChild(parent: LineageSession, all: readonly LineageSession[], limits: ChildLimits): Record<string, string> {
  const depth = ancestorsOf(parent, all).length + 1;
  if (depth > limits.max_depth) {
    throw new DaemonError('HANDOFF_TOO_DEEP', `session ${parent.id} is already ${depth - 1} handoffs deep and at most ${limits.max_depth} are allowed; do the work in that session or give it to an existing one (settings.json orchestration.max_depth raises the limit)`);
  }
  const children = all.filter((s) => s.running && s.labels[PARENT_LABEL] === parent.id).length;
  if (children >= limits.max_children) {
    throw new DaemonError('HANDOFF_FAN_OUT', `session ${parent.id} already runs ${children} child sessions (at most ${limits.max_children}); stop one or reuse one (settings.json orchestration.max_children raises the limit)`);
  }
  return { [PARENT_LABEL]: parent.id, [DEPTH_LABEL]: String(depth) };
}

/**
 * Refuses work for `worker` asked by `asker` when the worker is the asker or one of its
 * ancestors (it waits on the asker: the two would wait on each other).
 * @throws DaemonError SELF_TARGET or HANDOFF_CYCLE
 */
export function refuseCycle(asker: LineageSession, worker: LineageSession, all: readonly LineageSession[]): void {
  if (asker.id === worker.id) throw new DaemonError('SELF_TARGET', `session ${asker.id} cannot be given its own task; name another worker`, { path: '/worker' });
  if (ancestorsOf(asker, all).some((a) => a.id === worker.id)) {
    throw new DaemonError('HANDOFF_CYCLE', `session ${worker.id} handed work down to ${asker.id} and waits on it; giving it work from ${asker.id} would wait on itself — start a new session instead`, { path: '/worker' });
  }
}

const names = (s: LineageSession) => [s.specId, s.name].filter((n): n is string => n !== null);

/**
 * Whether the agent of `caller` may answer a prompt of `kind` on `target`: only a prompt of its
 * own child (or a child's child), and only where `parent_answers` names the pair and the kind.
 * @throws DaemonError SELF_TARGET or AGENT_ANSWER_REFUSED
 */
export function checkAgentAnswer(caller: LineageSession, target: LineageSession, kind: string, all: readonly LineageSession[], settings: Pick<OrchestrationSettings, 'parent_answers'>): void {
  if (caller.id === target.id) throw new DaemonError('SELF_TARGET', `the prompt is on the calling agent's own session (${caller.id}); an agent never answers its own prompts — a person does`);
  const isChild = ancestorsOf(target, all).some((a) => a.id === caller.id);
  const allowed = isChild && settings.parent_answers.some((p) => names(caller).includes(p.parent) && names(target).includes(p.child) && p.kinds.includes(kind));
  if (allowed) return;
  const why = isChild ? `no entry of settings.json orchestration.parent_answers lets ${caller.specId ?? caller.id} answer ${kind} prompts of ${target.specId ?? target.id}` : `session ${target.id} is not a child of the calling agent's session ${caller.id}`;
  throw new DaemonError('AGENT_ANSWER_REFUSED', `this ${kind} prompt of session ${target.id} goes to a person (or that session's auto-approve policy): ${why}. To let the parent agent answer, add {"parent": "${caller.specId ?? caller.id}", "child": "${target.specId ?? target.id}", "kinds": ["${kind}"]} to orchestration.parent_answers and restart the daemon`);
}

/** The route of a delegate trigger: by `<spec id>/<trigger id>` first, then by the trigger id. */
export function routeOf(settings: Pick<OrchestrationSettings, 'delegate_routes'>, specId: string | null, triggerId: string): DelegateRoute | null {
  return (specId !== null ? settings.delegate_routes[`${specId}/${triggerId}`] : undefined) ?? settings.delegate_routes[triggerId] ?? null;
}
