/**
 * vitest globalSetup: names this run in the environment every test process, daemon, host and
 * agent inherits (`SPECTERM_TEST_RUN`), and at the end ends any PTY host of this run still alive
 * — a detached host outlives whatever started it, and one left behind keeps its agents and
 * sockets until the machine restarts. Only hosts carrying this run's id and a runtime dir under
 * the temp root are touched: never another run's (other worktrees test in parallel) nor a user's.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isUnder, killHosts, listHostProcesses, TEST_RUN_ENV } from './helpers/host-processes.js';

const TEMP_ROOTS = [...new Set(['/tmp', os.tmpdir()])];

export function setup(): () => Promise<void> {
  const run = `${process.pid}-${randomBytes(6).toString('hex')}`;
  process.env[TEST_RUN_ENV] = run;
  // Caches a test run writes (ReDoS verdicts) go to a folder of the run's own, not the user's.
  const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-test-cache-'));
  process.env.XDG_CACHE_HOME = cacheHome;
  return async () => {
    fs.rmSync(cacheHome, { recursive: true, force: true });
    const left = listHostProcesses().filter((h) => h.testRun === run && TEMP_ROOTS.some((root) => isUnder(h.runtimeDir, root)));
    if (left.length === 0) return;
    await killHosts(left);
    process.stderr.write(`global teardown: ended ${left.length} specterm-host process(es) the tests left running: ${left.map((h) => `pid ${h.pid} (${h.runtimeDir})`).join(', ')}\n`);
  };
}
