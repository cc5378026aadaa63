import { describe, expect, it } from 'vitest';
import type { SessionDetail } from '../protocol/sessions.js';
import { badgeOf, durationLabel, sortByAttention } from './attention.js';

const base: SessionDetail = {
  id: 's_x', name: null, labels: {}, lifecycle: 'running', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null,
  controls: [], cwd: '/tmp', branch: null, spec: { id: 'demo-agent', version: null, proven_versions: [] }, pid: 1, cols: 80, rows: 24,
  exit: null, created_at: 0, started_at: 0, exited_at: null, state_since: 100,
};
const modal = { approval_id: 'a_1', fingerprint: 'f', title: 'Run?', buttons: [{ index: 1, label: 'Yes', current: false }], kind: 'approval' as const };
const s = (id: string, over: Partial<SessionDetail>): SessionDetail => ({ ...base, id, ...over });

describe('attention order', () => {
  it('puts a modal first, then idle, then working, then exited; longest waiting first within a rank', () => {
    const sessions = [
      s('exited', { lifecycle: 'exited', state_since: 1 }),
      s('gen', { state: { id: 'gen', label: 'Working', title: null, status: 'generating' } }),
      s('idle-new', { state_since: 500 }),
      s('idle-old', { state_since: 50 }),
      s('approval', { modal, state: { id: 'ask', label: 'Asking', title: null, status: 'approval' }, state_since: 900 }),
    ];
    expect(sortByAttention(sessions).map((x) => x.id)).toEqual(['approval', 'idle-old', 'idle-new', 'gen', 'exited']);
    expect(sessions[0]!.id).toBe('exited'); // the input is not reordered
  });

  it('gives each session one badge', () => {
    expect(badgeOf(s('a', { modal }))).toBe('approval');
    expect(badgeOf(s('a', { lifecycle: 'starting', state: null }))).toBe('starting');
    expect(badgeOf(s('a', { lifecycle: 'failed' }))).toBe('failed');
    expect(badgeOf(s('a', { state: { id: 'w', label: 'W', title: null, status: 'waiting_external' } }))).toBe('waiting');
  });

  it('does not badge a modal the person opened as waiting for approval', () => {
    const picker = { ...modal, kind: 'picker' as const, opened_by: 'person' as const };
    const picking = { id: 'pick', label: 'Picking', title: null, status: 'approval' as const };
    expect(badgeOf(s('a', { modal: picker, state: picking }))).toBe('idle');
    expect(badgeOf(s('a', { modal: { ...picker, opened_by: 'agent' }, state: picking }))).toBe('approval');
    expect(sortByAttention([s('mine', { modal: picker, state: picking, state_since: 1 }), s('agent', { modal, state_since: 2 })]).map((x) => x.id)).toEqual(['agent', 'mine']);
  });

  it('labels durations', () => {
    expect([0, 59_999, 60_000, 3_600_000, 90_000_000].map(durationLabel)).toEqual(['0 s', '59 s', '1 min', '1 h', '1 d']);
  });
});
