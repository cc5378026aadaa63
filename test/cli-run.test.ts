/**
 * `specterm run` / `specterm record` as a user meets them: the real command in a real PTY
 * (standing in for the user's terminal), running the real demo agent. Checks the status bar,
 * key pass-through, the bell, exit codes (including a ^C storm) and terminal restoration.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

const { Terminal } = xtermHeadless;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'bin/specterm.js');
const WAIT_MS = 30_000;
const TEST_MS = 120_000;

interface UserTerminal {
  write(data: string): void;
  lastRow(): string;
  screen(): string;
  raw(): string;
  waitFor(pred: () => boolean, what: string): Promise<void>;
  exited: Promise<{ exitCode: number; signal?: number }>;
  kill(): void;
}

const cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups.splice(0)) c(); });

function tempDir(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

function specterm(args: string[]): UserTerminal {
  const home = tempDir('specterm-cli-run-home-');
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [BIN, ...args], { cols: 80, rows: 24, cwd: root, env: { ...process.env, HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent'), TERM: 'xterm-256color' } as Record<string, string> });
  let raw = '';
  let alive = true;
  child.onData((d) => { raw += d; term.write(d); });
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit((e) => { alive = false; resolve(e); }));
  cleanups.push(() => { if (alive) child.kill('SIGKILL'); term.dispose(); });
  const row = (y: number) => term.buffer.active.getLine(term.buffer.active.viewportY + y)?.translateToString(true) ?? '';
  const screen = () => Array.from({ length: term.rows }, (_, y) => row(y)).join('\n');
  return {
    write: (d) => child.write(d),
    lastRow: () => row(term.rows - 1),
    screen,
    raw: () => raw,
    exited,
    kill: () => child.kill(),
    waitFor: async (pred, what) => {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        await new Promise<void>((r) => term.write('', r));
        if (pred()) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nlast row: ${row(term.rows - 1)}\nscreen:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

describe('specterm run / record in a terminal', () => {
  it('shows the state in the status bar, passes keys through, rings on notifications, records, and exits with the agent', async () => {
    const cwd = tempDir('specterm-cli-run-project-');
    const castPath = path.join(tempDir('specterm-cli-run-cast-'), 'session.cast');
    const t = specterm(['record', 'demo-agent', '-o', castPath, '--cwd', cwd, '--', '--speed', '0.5']);
    await t.waitFor(() => /○ Idle · idle/.test(t.lastRow()), 'the idle status bar');
    expect(t.lastRow()).toMatch(/demo-agent\s*$/);
    t.write('hello\r');
    await t.waitFor(() => /● Generating · generating/.test(t.lastRow()), 'the generating status bar');
    await t.waitFor(() => /○ Idle · idle/.test(t.lastRow()), 'idle again');
    expect(t.screen()).toContain('> hello');
    expect(t.raw()).toContain('\x07'); // the "turn finished" notification rang the bell
    t.write('/exit\r');
    const exit = await t.exited;
    expect(exit.exitCode).toBe(0);
    // Terminal restored: the scroll region reset and the bar row cleared.
    await t.waitFor(() => t.raw().includes('\x1b7\x1b[r\x1b8'), 'the scroll region reset');
    expect(t.lastRow().trim()).toBe('');

    expect(fs.statSync(castPath).mode & 0o777).toBe(0o600);
    const cast = parseAsciicast(fs.readFileSync(castPath, 'utf8'));
    expect(cast.header.height).toBe(23); // the agent had rows − 1
    expect(cast.events.some((e) => e.type === 'i' && e.data.includes('hello'))).toBe(true);
    const spec = loadSpecRef('demo-agent');
    if (!spec.ok) throw new Error(spec.errors.join('\n'));
    const r = replaySession({ cast, spec: spec.spec });
    r.driver.shutdown();
    expect(r.changes.map((c) => c.state)).toEqual(expect.arrayContaining(['starting', 'idle', 'busy', 'done']));
  }, TEST_MS);

  it('passes ^C to the agent instead of dying, and reports the agent\'s exit code after a ^C storm', async () => {
    const cwd = tempDir('specterm-cli-run-project-');
    const t = specterm(['run', 'demo-agent', '--cwd', cwd, '--', '--speed', '0.5']);
    await t.waitFor(() => /○ Idle · idle/.test(t.lastRow()), 'the idle status bar');
    t.write('\x03');
    await t.waitFor(() => t.screen().includes('Press Ctrl-C again to exit'), 'the agent\'s own ^C prompt');
    t.write('\x03\x03\x03');
    const exit = await t.exited;
    expect(exit.exitCode).toBe(130);
    expect(t.raw()).toContain('\x1b7\x1b[r\x1b8');
  }, TEST_MS);
});
