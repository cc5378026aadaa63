/**
 * bin/specterm.js is shell and JavaScript at once: run as a program (npm's bin link, a PATH
 * lookup) its shell line starts Node with the V8 flags of src/cli/node-flags.ts — the daemon's
 * bounded young generation — on the same file. Real processes: the launcher through /bin/sh, a
 * symlink to it, and the daemon it becomes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../src/cli/node-flags.js';
import { makeDirs, REPO, startDaemon, stopAll } from './daemon/daemon-harness.js';

const LAUNCHER = path.join(REPO, 'bin/specterm.js');

/** The arguments of a live process, from /proc. */
function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe('the specterm launcher', () => {
  afterEach(stopAll);

  it('its shell line starts Node with exactly the flags of node-flags.ts', () => {
    const shellLine = fs.readFileSync(LAUNCHER, 'utf8').split('\n')[1]!;
    const flags = /^':' \/\/; exec node (.*) "\$0" "\$@"$/.exec(shellLine);
    expect(flags, `line 2 of bin/specterm.js: ${shellLine}`).not.toBeNull();
    expect(flags![1]!.split(' ')).toEqual([...NODE_FLAGS]);
    expect(fs.statSync(LAUNCHER).mode & 0o111).not.toBe(0);
  });

  it('run as a program, or through a link as npm installs it, `serve` is a Node with those flags in the same process', async () => {
    const dirs = makeDirs();
    const link = path.join(dirs.home, 'specterm');
    fs.symlinkSync(LAUNCHER, link);
    for (const launcher of [LAUNCHER, link]) {
      // startDaemon waits for the state file to name the pid it spawned: the shell exec'd Node.
      const daemon = await startDaemon(dirs, ['--no-pair'], { launcher });
      const argv = commandLine(daemon.child.pid!);
      expect(path.basename(argv[0]!)).toMatch(/^node/);
      expect(argv.slice(1, 1 + NODE_FLAGS.length)).toEqual([...NODE_FLAGS]);
      expect(argv).toContain('serve');
      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
    }
  });
});
