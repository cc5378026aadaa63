import { describe, expect, it } from 'vitest';
import type { SessionDetail } from '../protocol/sessions.js';
import { groupByNode, groupSummary } from './node-groups.js';

const base: SessionDetail = {
  id: 's_x', name: null, labels: {}, lifecycle: 'running', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null,
  controls: [], cwd: '/tmp', branch: null, spec: { id: 'demo-agent', version: null, proven_versions: [] }, pid: 1, cols: 80, rows: 24,
  exit: null, created_at: 0, started_at: 0, exited_at: null, state_since: 100,
};
const s = (id: string, node?: string, over: Partial<SessionDetail> = {}): SessionDetail => ({ ...base, id, ...(node ? { node } : {}), ...over });
const modal = { approval_id: 'a_1', fingerprint: 'f', title: 'Run?', buttons: [{ index: 1, label: 'Yes', current: false }], kind: 'approval' as const };

describe('the overview grouped by machine', () => {
  it('keeps one machine as one group without a heading', () => {
    expect(groupByNode([s('a', 'laptop'), s('b', 'laptop')])).toEqual([{ node: null, sessions: [s('a', 'laptop'), s('b', 'laptop')] }]);
    expect(groupByNode([s('a'), s('b')]).map((g) => g.node)).toEqual([null]);
    expect(groupByNode([])).toEqual([{ node: null, sessions: [] }]);
  });

  it('groups a fleet by node in name order, each keeping the given order', () => {
    const groups = groupByNode([s('1', 'web'), s('2', 'build-01'), s('3', 'web'), s('4', 'build-01')]);
    expect(groups.map((g) => [g.node, g.sessions.map((x) => x.id)])).toEqual([['build-01', ['2', '4']], ['web', ['1', '3']]]);
  });

  it('says in the heading how many sessions wait for approval', () => {
    expect(groupSummary([s('a')])).toBe('1 session');
    expect(groupSummary([s('a', undefined, { modal }), s('b'), s('c', undefined, { modal })])).toBe('3 sessions · 2 need approval');
    expect(groupSummary([s('a', undefined, { modal })])).toBe('1 session · 1 needs approval');
  });
});
