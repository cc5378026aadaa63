/**
 * `session_id: {"from": "newest_file"}` discovery on real folder trees: the dated, globbed
 * templates are expanded, a file is taken only by the session of its folder, never one created
 * before the start or followed by another session, and a resume finds its file by id.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSessionHistoryFile, type HistoryDiscovery } from '../../src/transcript/newest-history-file.js';

const CODEX = '${CODEX_HOME:-~/.codex}/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl';
const DEMO = '${DEMO_AGENT_HOME:-~/.demo-agent}/sessions/{session_id}.jsonl';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'st-newest-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const two = (n: number) => String(n).padStart(2, '0');
/** Today's Codex folder, by local date as Codex files it. */
function codexDir(): string {
  const d = new Date();
  const dir = path.join(home, '.codex', 'sessions', String(d.getFullYear()), two(d.getMonth() + 1), two(d.getDate()));
  mkdirSync(dir, { recursive: true });
  return dir;
}
function writeRollout(id: string, cwd: string, extra = ''): string {
  const file = path.join(codexDir(), `rollout-2026-12-06T10-00-00-${id}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ timestamp: '2026-12-06T10:00:00.000Z', type: 'session_meta', payload: { id, cwd } })}\n${extra}`);
  return file;
}
const find = (over: Partial<HistoryDiscovery>) => findSessionHistoryFile({ format: 'codex-rollout-jsonl', template: CODEX, env: {}, home, cwd: '/work/a', startedAt: Date.now() - 1000, ...over });

describe('findSessionHistoryFile', () => {
  it('expands the dated Codex template and takes the file of the session\'s own folder', () => {
    expect(find({})).toBeNull();
    const a = writeRollout('id-a', '/work/a');
    const b = writeRollout('id-b', '/work/b');
    // Two sessions in two folders started together: each takes its own file, whichever came first.
    expect(find({ cwd: '/work/a' })).toEqual({ path: a, sessionId: 'id-a' });
    expect(find({ cwd: '/work/b' })).toEqual({ path: b, sessionId: 'id-b' });
    expect(find({ cwd: '/work/c' })).toBeNull();
  });

  it('honours the CLI\'s home variable', () => {
    const codexHome = path.join(home, 'alt');
    const dir = path.join(codexHome, 'sessions', String(new Date().getFullYear()), two(new Date().getMonth() + 1), two(new Date().getDate()));
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'rollout-x-id-x.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'session_meta', payload: { id: 'id-x', cwd: '/work/a' } })}\n`);
    expect(find({ env: { CODEX_HOME: codexHome } })).toEqual({ path: file, sessionId: 'id-x' });
  });

  it('never takes a file created before the session started, nor one another session follows', () => {
    const old = writeRollout('id-old', '/work/a');
    expect(find({ startedAt: Date.now() + 10_000 })).toBeNull();
    const first = find({});
    expect(first).toEqual({ path: old, sessionId: 'id-old' });
    // A second session of the same folder: the first one's file is claimed, so it waits for its own.
    expect(find({ claimed: new Set([old]) })).toBeNull();
    const second = writeRollout('id-new', '/work/a');
    expect(find({ claimed: new Set([old]) })).toEqual({ path: second, sessionId: 'id-new' });
    // Unclaimed, the one created first after the start is the answer (the CLI writes it as it starts).
    expect(find({})?.sessionId).toBe('id-old');
  });

  it('finds a resumed session\'s file by its id, however old', () => {
    const file = writeRollout('id-r', '/work/a');
    writeRollout('id-other', '/work/a');
    expect(find({ sessionId: 'id-r', startedAt: Date.now() + 60_000 })).toEqual({ path: file, sessionId: 'id-r' });
    expect(find({ sessionId: 'id-missing' })).toBeNull();
  });

  it('waits for the session record: a file whose first line is still being written is not taken yet', () => {
    const file = path.join(codexDir(), 'rollout-partial.jsonl');
    writeFileSync(file, '{"type":"session_meta","payload":{"id":"id-p","cw');
    expect(find({})).toBeNull();
    writeFileSync(file, `${JSON.stringify({ type: 'session_meta', payload: { id: 'id-p', cwd: '/work/a' } })}\n`);
    expect(find({})).toEqual({ path: file, sessionId: 'id-p' });
  });

  it('matches {session_id} as a wildcard until the id is known, and skips what is not a history', () => {
    const dir = path.join(home, '.demo-agent', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'garbage.jsonl'), 'not json\n');
    mkdirSync(path.join(dir, 'folder.jsonl'));
    const file = path.join(dir, 'd1.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'session', session_id: 'd1', cwd: '/work/a' })}\n`);
    expect(findSessionHistoryFile({ format: 'demo-jsonl', template: DEMO, env: {}, home, cwd: '/work/a', startedAt: Date.now() - 1000 })).toEqual({ path: file, sessionId: 'd1' });
    expect(findSessionHistoryFile({ format: 'demo-jsonl', template: DEMO, env: {}, home, cwd: '/work/b', startedAt: Date.now() - 1000 })).toBeNull();
  });

  it('Gemini CLI: a project folder named by the CLI, told apart by the header\'s folder hash; a given id finds its file', () => {
    const GEMINI = '~/.gemini/tmp/*/chats/session-*.jsonl';
    const sha = (cwd: string) => createHash('sha256').update(cwd).digest('hex');
    const write = (project: string, name: string, id: string, cwd: string) => {
      const dir = path.join(home, '.gemini', 'tmp', project, 'chats');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, name), `${JSON.stringify({ sessionId: id, projectHash: sha(cwd), startTime: '2026-12-06T10:00:00.000Z', kind: 'main' })}\n`);
      return path.join(dir, name);
    };
    // Two folders both called "work": Gemini names the second project "work-1".
    const a = write('work', 'session-2026-12-06T10-00-aaaaaaaa.jsonl', 'aaaaaaaa-1', '/x/work');
    const b = write('work-1', 'session-2026-12-06T10-00-bbbbbbbb.jsonl', 'bbbbbbbb-2', '/y/work');
    const gemini = (over: Partial<HistoryDiscovery>) => find({ format: 'gemini-jsonl', template: GEMINI, ...over });
    expect(gemini({ cwd: '/x/work' })).toEqual({ path: a, sessionId: 'aaaaaaaa-1' });
    expect(gemini({ cwd: '/y/work' })).toEqual({ path: b, sessionId: 'bbbbbbbb-2' });
    expect(gemini({ cwd: '/y/work', sessionId: 'bbbbbbbb-2', startedAt: Date.now() + 60_000 })).toEqual({ path: b, sessionId: 'bbbbbbbb-2' });
    expect(gemini({ cwd: '/x/work', sessionId: 'bbbbbbbb-2' })).toBeNull();
  });

  it('goes down folders for a `**` and reads a file that is one JSON document whole', () => {
    const dir = path.join(home, 'deep', 'a', 'b');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'd2.jsonl');
    writeFileSync(file, JSON.stringify({ type: 'session', session_id: 'd2', cwd: '/work/a' }, null, 2));
    expect(findSessionHistoryFile({ format: 'demo-jsonl', template: '~/deep/**/*.jsonl', env: {}, home, cwd: '/work/a', startedAt: Date.now() - 1000 })).toEqual({ path: file, sessionId: 'd2' });
  });

  it.each([
    ['codex-rollout-jsonl', 'codex/0.171.0/hello/rollout.jsonl', CODEX],
    ['gemini-jsonl', 'gemini/0.61.0/hello/session.jsonl', '~/.gemini/tmp/*/chats/session-*.jsonl'],
  ] as const)('%s: the file a real CLI wrote under the lab is found for the folder it ran in', (format, fixture, template) => {
    const fixtures = fileURLToPath(new URL('../fixtures/history/', import.meta.url));
    const { cwd } = JSON.parse(readFileSync(path.join(fixtures, path.dirname(fixture), 'server-log.json'), 'utf8')) as { cwd: string };
    const dir = format === 'gemini-jsonl' ? path.join(home, '.gemini', 'tmp', 'work', 'chats') : codexDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, format === 'gemini-jsonl' ? 'session-2026-12-06T16-07-abcdef12.jsonl' : 'rollout-2026-12-06T13-13-06-x.jsonl');
    copyFileSync(path.join(fixtures, fixture), file);
    expect(findSessionHistoryFile({ format, template, env: {}, home, cwd, startedAt: Date.now() - 1000 })?.path).toBe(file);
    expect(findSessionHistoryFile({ format, template, env: {}, home, cwd: '/elsewhere', startedAt: Date.now() - 1000 })).toBeNull();
  });

  it('answers null for a template it cannot fill or a format it has no parser for', () => {
    writeRollout('id-a', '/work/a');
    expect(find({ template: '~/x/{nope}/*.jsonl' })).toBeNull();
    expect(find({ template: 'relative/*.jsonl' })).toBeNull();
    expect(find({ format: 'opencode-storage' })).toBeNull();
  });
});

describe('findSessionHistoryFile on a database (OpenCode, Kilo Code)', () => {
  const FIXTURE = fileURLToPath(new URL('../fixtures/history/opencode/1.18.33/hello/', import.meta.url));

  it('takes the newest top-level session of the cwd created since the start, in the database the path names', () => {
    const log = JSON.parse(readFileSync(path.join(FIXTURE, 'server-log.json'), 'utf8')) as { cwd: string; events: Array<{ t?: number }> };
    const data = path.join(home, 'share', 'opencode');
    mkdirSync(data, { recursive: true });
    copyFileSync(path.join(FIXTURE, 'opencode.db'), path.join(data, 'opencode.db'));
    const at = (over: Partial<HistoryDiscovery>) => findSessionHistoryFile({
      format: 'opencode-sqlite', template: '${XDG_DATA_HOME:-~/.local/share}/opencode/opencode.db', env: { XDG_DATA_HOME: path.join(home, 'share') }, home,
      cwd: log.cwd, startedAt: log.events[0]?.t ?? 0, ...over,
    });
    const found = at({});
    expect(found).toEqual({ path: path.join(data, 'opencode.db'), sessionId: expect.stringMatching(/^ses_/) });
    // Another folder's, or one started before this session: not this session's.
    expect(at({ cwd: '/elsewhere' })).toBeNull();
    expect(at({ startedAt: Date.now() })).toBeNull();
    // A resume knows its id; a database not written yet is looked for again later.
    expect(at({ sessionId: 'ses_known', startedAt: Date.now() })).toEqual({ path: path.join(data, 'opencode.db'), sessionId: 'ses_known' });
    expect(at({ env: { XDG_DATA_HOME: path.join(home, 'none') } })).toBeNull();
  });
});
