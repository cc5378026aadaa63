/**
 * The host finder of the test teardowns (test/helpers/host-processes.ts) against a real detached
 * host: it is found by its runtime dir with this run's id (inherited from test/global-setup.ts),
 * and ending the hosts under that dir ends it even though nobody asked it over its socket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isUnder, killHostsUnder, listHostProcesses, TEST_RUN_ENV } from '../helpers/host-processes.js';
import { processExists, shortPrivateDir, startTestHost, stopAllHosts } from './host-harness.js';

afterEach(async () => { await stopAllHosts(); });

describe('host processes by runtime dir', () => {
  it('finds a started host with its runtime dir and this run\'s id, and ends it by its dir', async () => {
    expect(process.env[TEST_RUN_ENV]).toMatch(/^\d+-[0-9a-f]{12}$/);
    const dir = shortPrivateDir();
    const host = await startTestHost({ dir });
    expect(listHostProcesses()).toContainEqual({ pid: host.pid, runtimeDir: dir, testRun: process.env[TEST_RUN_ENV] });
    // Another dir's hosts are not touched.
    expect(await killHostsUnder([`${dir}-other`])).toEqual([]);
    expect(processExists(host.pid)).toBe(true);
    expect(await killHostsUnder([dir])).toEqual([host.pid]);
    expect(processExists(host.pid)).toBe(false);
    expect(listHostProcesses().map((h) => h.pid)).not.toContain(host.pid);
  });

  it('isUnder: the dir itself and what is inside it, not a sibling sharing its prefix', () => {
    expect(isUnder('/tmp/sdm-1/r', '/tmp/sdm-1')).toBe(true);
    expect(isUnder('/tmp/sdm-1', '/tmp/sdm-1')).toBe(true);
    expect(isUnder('/tmp/sdm-10/r', '/tmp/sdm-1')).toBe(false);
    expect(isUnder('/tmp/x', '/tmp/')).toBe(true);
  });
});
