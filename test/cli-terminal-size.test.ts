/**
 * `specterm run` on a terminal that reports 0×0 (issue 12, item 8), as under `script` without a
 * size: the real command in a real PTY whose size is set to 0×0 with `stty` before it starts.
 */
import pty from '@lydell/node-pty';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quotePosixArg } from '../src/driver/spawn-plan.js';
import { FAKE_AGENT, REPO_ROOT, SPECTERM_BIN } from './helpers/cli.js';

const SPEC = path.join(REPO_ROOT, 'test/fixtures/specs/fake-agent.json');
const cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups.splice(0)) c(); });

describe('a terminal that reports 0×0', () => {
  it('runs the agent at 80×24 and says so on stderr instead of failing with an internal error', async () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-cli-size-')));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const log = path.join(home, 'agent.log');
    const cli = [process.execPath, SPECTERM_BIN, 'run', SPEC, '--', FAKE_AGENT, '--exit-after-ms', '1500', '--log', log].map(quotePosixArg).join(' ');
    const child = pty.spawn('/bin/sh', ['-c', `stty cols 0 rows 0 && stty size >&2 && exec ${cli}`], { cols: 100, rows: 30, cwd: REPO_ROOT, env: { ...process.env, HOME: home, TERM: 'xterm-256color' } as Record<string, string> });
    let output = '';
    child.onData((d) => { output += d; });
    cleanups.push(() => { try { child.kill('SIGKILL'); } catch { /* exited */ } });
    const exit = await new Promise<{ exitCode: number }>((resolve) => child.onExit(resolve));
    expect(output).toMatch(/^0 0/);
    expect(output).not.toContain('internal error');
    expect(output).toContain('the terminal reports its size as 0×0; using 80×24');
    // The fake agent draws its input box rules across the width it was given.
    expect(output).toContain('─'.repeat(80));
    expect(output).not.toContain('─'.repeat(81));
    expect(exit.exitCode).toBe(0);
  }, 60_000);
});
