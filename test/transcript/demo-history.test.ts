/**
 * The Demo Agent keeps a native history (src/demo/history.ts) that specterm's demo-jsonl parser
 * reads: the built agent runs in a real PTY, a person's turn with an approved tool goes into
 * `$DEMO_AGENT_HOME/sessions/<id>.jsonl`, and `--resume <id>` shows the conversation again and
 * appends to the same file.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryReader } from '../../src/transcript/index.js';

const MAIN = fileURLToPath(new URL('../../dist/demo/main.js', import.meta.url));
const WAIT_MS = 30_000;
let dir: string;
const children: pty.IPty[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'st-demo-hist-')));
});
afterEach(() => {
  for (const c of children.splice(0)) {
    try { c.kill(); } catch { /* already gone */ }
  }
  rmSync(dir, { recursive: true, force: true });
});

function start(args: string[]) {
  let out = '';
  const child = pty.spawn(process.execPath, [MAIN, '--speed', '0.2', '--no-trust-prompt', ...args], {
    cols: 100, rows: 30, cwd: dir, env: { ...process.env, HOME: dir, DEMO_AGENT_HOME: path.join(dir, '.demo-agent'), TERM: 'xterm-256color' } as Record<string, string>,
  });
  children.push(child);
  child.onData((d) => { out += d; });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  const waitFor = async (re: RegExp) => {
    for (const until = Date.now() + WAIT_MS; !re.test(out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${re}; got ${JSON.stringify(out.slice(-400))}`);
    }
  };
  return { child, waitFor, exited, out: () => out };
}

function transcriptOf(file: string) {
  const reader = new HistoryReader({ format: 'demo-jsonl', path: file, homeDir: dir });
  reader.finish();
  return reader.transcript();
}

describe('the Demo Agent history', () => {
  it('records a turn with an approved tool call, and --resume continues it', async () => {
    const a = start(['--session-id', 'demo-s1']);
    await a.waitFor(/❯/);
    a.child.write('run the tests');
    await new Promise((r) => setTimeout(r, 300));
    a.child.write('\r');
    await a.waitFor(/1\. Yes/);
    a.child.write('1');
    await a.waitFor(/Nothing to fix right now\.[\s\S]*Worked for/);
    a.child.write('/exit\r');
    expect(await a.exited).toBe(0);
    expect(a.out()).toContain('Resume this session with: demo-agent --resume demo-s1');

    const file = path.join(dir, '.demo-agent', 'sessions', 'demo-s1.jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const t = transcriptOf(file);
    expect(t.warnings).toEqual([]);
    expect(t.native_session_ids).toEqual(['demo-s1']);
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]?.user?.text).toBe('run the tests');
    expect(t.turns[0]?.items.map((i) => (i.kind === 'text' ? i.text : `${i.name}(${JSON.stringify(i.input)}) ${i.status}`))).toEqual([
      "I'll run the test suite to see where things stand.",
      'Bash({"command":"npm test"}) ok',
      'All 12 tests pass across 2 files. Nothing to fix right now.',
    ]);
    const call = t.turns[0]?.items[1];
    expect(call?.kind === 'tool_call' && call.output).toContain('Tests  12 passed (12)');
    expect(t.turns[0]?.usage?.output_tokens).toBeGreaterThan(0);

    const b = start(['--resume', 'demo-s1']);
    await b.waitFor(/Nothing to fix right now\./);
    b.child.write('hello');
    await new Promise((r) => setTimeout(r, 300));
    b.child.write('\r');
    await b.waitFor(/I'm Demo Agent[\s\S]*Worked for/);
    b.child.write('/exit\r');
    expect(await b.exited).toBe(0);
    const again = transcriptOf(file);
    expect(again.turns.map((turn) => turn.user?.text)).toEqual(['run the tests', 'hello']);
    expect(again.native_session_ids).toEqual(['demo-s1']);
  }, 90_000);

  it('refuses to resume a session that does not exist, in a person\'s words (exit 2)', async () => {
    const a = start(['--resume', 'nope']);
    expect(await a.exited).toBe(2);
    expect(a.out()).toContain('no session "nope" to resume');
  }, 60_000);

  it('keeps no history on a plain run without an id or a home of its own', async () => {
    let out = '';
    const child = pty.spawn(process.execPath, [MAIN, '--no-trust-prompt'], { cols: 80, rows: 24, cwd: dir, env: { ...process.env, HOME: dir, DEMO_AGENT_HOME: '', TERM: 'xterm-256color' } as Record<string, string> });
    children.push(child);
    child.onData((d) => { out += d; });
    const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
    for (const until = Date.now() + WAIT_MS; !out.includes('❯') && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    child.write('/exit\r');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dir, '.demo-agent', 'sessions'))).toBe(false);
  }, 60_000);
});
