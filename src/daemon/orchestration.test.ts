import { describe, expect, it } from 'vitest';
import { admitChild, ancestorsOf, checkAgentAnswer, parseOrchestration, refuseCycle, routeOf, type LineageSession } from './orchestration.js';

const session = (id: string, parent?: string, more: Partial<LineageSession> = {}): LineageSession => ({
  id, name: null, specId: 'demo-agent', labels: parent ? { 'specterm.parent': parent } : {}, running: true, ...more,
});

const codeOf = (f: () => unknown): string | undefined => {
  try { f(); } catch (error) { return (error as { code?: string }).code ?? (error as Error).message; }
  return undefined;
};

describe('settings.json orchestration', () => {
  it('defaults to 3 deep, 5 children, no routes, no parent answers', () => {
    expect(parseOrchestration(undefined)).toEqual({ max_depth: 3, max_children: 5, delegate_routes: {}, parent_answers: [] });
  });

  it('reads routes and pairs, with approval as the default kind', () => {
    const s = parseOrchestration({
      max_depth: 2,
      delegate_routes: { usage_limit_handoff: { spec: 'codex', cwd: '/w', worktree_branch: 'b', timeout_ms: 60_000 }, 'claude-code/x': { session: 'reviewer' } },
      parent_answers: [{ parent: 'boss', child: 'demo-agent' }],
    });
    expect(s.max_depth).toBe(2);
    expect(s.delegate_routes.usage_limit_handoff).toEqual({ spec: 'codex', cwd: '/w', worktree_branch: 'b', timeout_ms: 60_000 });
    expect(s.parent_answers).toEqual([{ parent: 'boss', child: 'demo-agent', kinds: ['approval'] }]);
  });

  it.each([
    [{ max_depth: 0 }, 'orchestration.max_depth is 0: use a whole number from 1 to 20'],
    [{ max_children: 'many' }, 'orchestration.max_children is "many": use a whole number from 1 to 100'],
    [{ depth: 3 }, 'orchestration.depth is 3: it is not a setting here; use max_depth, max_children, delegate_routes, parent_answers'],
    [{ delegate_routes: { t: { spec: 'codex', cwd: 'relative' } } }, 'orchestration.delegate_routes.t.cwd is "relative": use an absolute path'],
    [{ delegate_routes: { t: { session: 'a', spec: 'codex' } } }, 'name either "session" (an existing one) or "spec" and "cwd" (a new one), not both'],
    [{ delegate_routes: { t: {} } }, 'orchestration.delegate_routes.t.spec is undefined: name the spec to start'],
    [{ parent_answers: [{ parent: 'a', child: 'b', kinds: ['everything'] }] }, 'orchestration.parent_answers[0].kinds is ["everything"]: list prompt kinds among approval, picker, confirm'],
    [[], 'orchestration is []: give an object such as'],
  ])('refuses %j naming the place, the value and the fix', (value, message) => {
    expect(() => parseOrchestration(value)).toThrow(message);
  });
});

describe('the rules for agents that start agents', () => {
  const root = session('root', undefined, { name: 'root' });
  const c1 = session('c1', 'root');
  const c2 = session('c2', 'c1');
  const all = [root, c1, c2];

  it('counts depth from the chain of parents, never from a label the caller set', () => {
    expect(ancestorsOf(c2, all).map((s) => s.id)).toEqual(['c1', 'root']);
    expect(admitChild(c1, all, { max_depth: 3, max_children: 5 })).toEqual({ 'specterm.parent': 'c1', 'specterm.depth': '2' });
    const forged = { ...c1, labels: { ...c1.labels, 'specterm.depth': '0' } };
    expect(codeOf(() => admitChild(c2, [root, forged, c2], { max_depth: 2, max_children: 5 }))).toBe('HANDOFF_TOO_DEEP');
  });

  it('stops a looping chain of labels instead of hanging', () => {
    const a = session('a', 'b');
    const b = session('b', 'a');
    expect(ancestorsOf(a, [a, b]).map((s) => s.id)).toEqual(['b']);
  });

  it('counts only children not yet exited against the fan-out', () => {
    const kids = [session('k1', 'root'), session('k2', 'root', { running: false })];
    expect(admitChild(root, [root, ...kids], { max_depth: 3, max_children: 2 })['specterm.depth']).toBe('1');
    expect(codeOf(() => admitChild(root, [root, ...kids, session('k3', 'root')], { max_depth: 3, max_children: 2 }))).toBe('HANDOFF_FAN_OUT');
  });

  it('refuses work for the asker itself or for one it waits on', () => {
    expect(codeOf(() => refuseCycle(c2, c2, all))).toBe('SELF_TARGET');
    expect(codeOf(() => refuseCycle(c2, root, all))).toBe('HANDOFF_CYCLE');
    expect(codeOf(() => refuseCycle(root, c2, all))).toBeUndefined();
  });

  it('lets a parent agent answer a child\'s prompt only where the pair and the kind are named', () => {
    const settings = { parent_answers: [{ parent: 'root', child: 'demo-agent', kinds: ['approval'] }] };
    expect(codeOf(() => checkAgentAnswer(root, c1, 'approval', all, settings))).toBeUndefined();
    expect(codeOf(() => checkAgentAnswer(root, c2, 'approval', all, settings))).toBeUndefined();
    expect(codeOf(() => checkAgentAnswer(root, c1, 'confirm', all, settings))).toBe('AGENT_ANSWER_REFUSED');
    expect(codeOf(() => checkAgentAnswer(c1, c2, 'approval', all, settings))).toBe('AGENT_ANSWER_REFUSED');
    expect(codeOf(() => checkAgentAnswer(c2, c1, 'approval', all, settings))).toBe('AGENT_ANSWER_REFUSED');
    expect(codeOf(() => checkAgentAnswer(c1, c1, 'approval', all, settings))).toBe('SELF_TARGET');
    expect(codeOf(() => checkAgentAnswer(root, c1, 'approval', all, { parent_answers: [] }))).toBe('AGENT_ANSWER_REFUSED');
  });

  it('routes a trigger by spec and id first, then by id', () => {
    const routes = { delegate_routes: { t: { session: 'any' }, 'codex/t': { session: 'for-codex' } } };
    expect(routeOf(routes, 'codex', 't')).toEqual({ session: 'for-codex' });
    expect(routeOf(routes, 'demo-agent', 't')).toEqual({ session: 'any' });
    expect(routeOf(routes, 'demo-agent', 'other')).toBeNull();
  });
});
