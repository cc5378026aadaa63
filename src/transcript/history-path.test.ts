import { describe, expect, it } from 'vitest';
import { resolveHistoryPath } from './history-path.js';

const ctx = { env: {}, home: '/home/me', cwd: '/home/me/my.proj', sessionId: 'abc' };

describe('resolveHistoryPath', () => {
  it('fills the environment, the home and the placeholders', () => {
    expect(resolveHistoryPath('${CLAUDE_CONFIG_DIR:-~/.claude}/projects/{cwd_claude_project}/{session_id}.jsonl', ctx)).toBe('/home/me/.claude/projects/-home-me-my-proj/abc.jsonl');
    expect(resolveHistoryPath('${CLAUDE_CONFIG_DIR:-~/.claude}/projects/{cwd_claude_project}/{session_id}.jsonl', { ...ctx, env: { CLAUDE_CONFIG_DIR: '/cfg' } })).toBe('/cfg/projects/-home-me-my-proj/abc.jsonl');
    expect(resolveHistoryPath('${DEMO_AGENT_HOME:-~/.demo-agent}/sessions/{session_id}.jsonl', ctx)).toBe('/home/me/.demo-agent/sessions/abc.jsonl');
  });

  it('answers null for what names no one file: a glob, a date, an unknown placeholder', () => {
    expect(resolveHistoryPath('~/.codex/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl', ctx)).toBeNull();
    expect(resolveHistoryPath('~/x/{nope}.json', ctx)).toBeNull();
  });

  it('names a cwd the way pi names its session folder (one leading slash off; "/", "\\" and ":" as "-")', () => {
    // pi 0.73 getDefaultSessionDir: `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`
    expect(resolveHistoryPath('~/.pi/agent/sessions/{cwd_pi}/{session_id}.jsonl', { ...ctx, cwd: '/tmp/lab:1/work' })).toBe('/home/me/.pi/agent/sessions/--tmp-lab-1-work--/abc.jsonl');
    expect(resolveHistoryPath('~/.pi/agent/sessions/{cwd_pi}/{session_id}.jsonl', { ...ctx, cwd: '//srv/x' })).toBe('/home/me/.pi/agent/sessions/---srv-x--/abc.jsonl');
  });
});
