/**
 * `specterm schema | head -1`, `specterm replay … | grep -m1 …`: the reader closes the pipe while
 * specterm is still writing. The command must end with 0 and print nothing on stderr (before the fix: an
 * unhandled EPIPE 'error' event, a stack trace and exit code 1).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

it('ends quietly with 0 when the reader of its stdout goes away', async () => {
  const child = spawn(process.execPath, [path.resolve('bin/specterm.js'), 'schema'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => { err += c; });
  // A reader that is gone before the output comes (as `head` is once it has its line).
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(err).toBe('');
  expect(code).toBe(0);
}, 60_000);
