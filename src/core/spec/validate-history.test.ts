/**
 * `native_history` (spec-format "Around the machine"): where the CLI keeps its own transcript,
 * which parser reads it, how a session's id is chosen and how the CLI resumes it.
 */
import { describe, expect, it } from 'vitest';
import { validateSpec } from './validate.js';

const base = {
  $schema: 'adhdev:cli/spec@4',
  id: 'x',
  binary: 'x',
  send_message: { submit_key: '\r' },
  states: [{ id: 'idle', label: 'Idle', initial: true, status: 'idle' }],
  transitions: [],
};
const withHistory = (native_history: unknown) => validateSpec({ ...base, native_history });
const good = {
  format: 'claude-jsonl',
  path: '${CLAUDE_CONFIG_DIR:-~/.claude}/projects/{cwd_claude_project}/{session_id}.jsonl',
  session_id: { from: 'launch_flag', args: ['--session-id', '{session_id}'] },
  resume_args: ['--resume', '{session_id}'],
};

describe('native_history', () => {
  it('accepts a complete block with no message', () => {
    const r = withHistory(good);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('accepts the newest file created for the cwd as the way to find a session', () => {
    const r = withHistory({ ...good, format: 'codex-rollout-jsonl', path: '${CODEX_HOME:-~/.codex}/sessions/**/rollout-*.jsonl', session_id: { from: 'newest_file' }, resume_args: ['resume', '{session_id}'] });
    expect(r.errors).toEqual([]);
  });

  it('takes the commands after which the CLI starts a new file, and names one that is not a command', () => {
    expect(withHistory({ ...good, new_session_on: ['/clear'] }).errors).toEqual([]);
    expect(withHistory({ ...good, new_session_on: ['clear'] }).errors).toEqual([expect.stringContaining('native_history.new_session_on[0]: must be one slash command (got "clear")')]);
    expect(withHistory({ ...good, new_session_on: '/clear' }).issues[0]).toMatchObject({ path: 'native_history.new_session_on' });
  });

  it('keeps the reference shape loading (reader, source, override_path) without a message', () => {
    const r = withHistory({ reader: 'claude', source: { kind: 'jsonl', path: '~/.claude/projects' }, override_path: null });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('names an unknown format, the value and the formats there are', () => {
    const r = withHistory({ ...good, format: 'claude-json' });
    expect(r.errors).toEqual([expect.stringContaining('native_history.format: is not a history format specterm reads (got "claude-json"); did you mean "claude-jsonl"?')]);
    expect(r.issues[0]).toMatchObject({ code: 'SPEC_ENUM', path: 'native_history.format' });
  });

  it('needs a path when a format is given, and the path must start in the home directory', () => {
    const { path: _omit, ...noPath } = good;
    expect(withHistory(noPath).errors).toEqual([expect.stringContaining('native_history.path: is required')]);
    expect(withHistory({ ...good, path: 'projects/{session_id}.jsonl' }).errors).toEqual([
      expect.stringContaining('native_history.path: must start at the home directory ("~/…") or a variable ("${VAR:-~/…}") (got "projects/{session_id}.jsonl")'),
    ]);
  });

  it('names a placeholder it does not know in the path and says which there are', () => {
    const r = withHistory({ ...good, path: '~/.claude/projects/{cwd_dashes}/{session_id}.jsonl' });
    expect(r.errors).toEqual([expect.stringContaining('native_history.path: has a placeholder specterm does not fill ({cwd_dashes}); did you mean {cwd_dashed}?')]);
  });

  it('refuses a path that climbs out with ..', () => {
    expect(withHistory({ ...good, path: '~/../etc/{session_id}.jsonl' }).errors).toEqual([expect.stringContaining('native_history.path: must not contain ".."')]);
  });

  it('needs {session_id} in a launch flag and in resume_args', () => {
    expect(withHistory({ ...good, session_id: { from: 'launch_flag', args: ['--session-id'] } }).errors).toEqual([
      expect.stringContaining('native_history.session_id.args: must contain "{session_id}"'),
    ]);
    expect(withHistory({ ...good, resume_args: ['--continue'] }).errors).toEqual([expect.stringContaining('native_history.resume_args: must contain "{session_id}"')]);
  });

  it('names an unknown way to find the session id', () => {
    const r = withHistory({ ...good, session_id: { from: 'guess' } });
    expect(r.errors).toEqual([expect.stringContaining('native_history.session_id.from: must be "launch_flag" or "newest_file" (got "guess")')]);
  });

  it('warns about a field nothing reads, with a suggestion', () => {
    expect(withHistory({ ...good, resume_arg: [] }).warnings).toEqual([expect.stringContaining('native_history.resume_arg: unknown field in native_history; it is ignored; did you mean "resume_args"?')]);
  });

  it('still refuses a native_history that is not an object', () => {
    expect(withHistory('claude').errors).toEqual(['native_history: must be an object (got "claude")']);
  });
});
