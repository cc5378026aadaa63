/**
 * A node that cannot link keeps serving and tries again every 2 s: it says why once, and again
 * only when the reason changes (nothing listening, then a server without JetStream), and an
 * attempt that failed after connecting leaves no connection behind to pile up on the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor } from '../daemon/daemon-harness.js';

const WAIT_MS = 60_000;
let server: ChildProcess | null = null;

afterAll(async () => {
  await stopAll();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
}, 60_000);

/** The server's monitoring figures (`/varz`): connections open now and ever. */
async function varz(monitorPort: number): Promise<{ connections: number; total_connections: number } | undefined> {
  try {
    return await (await fetch(`http://127.0.0.1:${monitorPort}/varz`)).json() as { connections: number; total_connections: number };
  } catch {
    return undefined;
  }
}

describe('a node that cannot link to its fleet', () => {
  it('says why once per reason and leaves no half-made connection behind', async () => {
    const [port, monitorPort] = [await freePort(), await freePort()];
    const daemon = await startDaemon(makeDirs(), ['--nats', `nats://127.0.0.1:${port}`, '--node', 'r1']);
    const warnings = () => daemon.stderr().split('\n').filter((l) => l.includes('nats: cannot'));
    await waitFor(() => warnings().length >= 1 || undefined, WAIT_MS, 'the first warning');
    // Nothing listens: several attempts, one line.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(warnings()).toHaveLength(1);

    // A server without JetStream: each attempt connects, then fails to set the stream up.
    server = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitorPort)], { stdio: 'ignore' });
    await waitFor(() => warnings().length >= 2 || undefined, WAIT_MS, 'the warning with the new reason');
    const seen = await waitFor(async () => { const v = await varz(monitorPort); return v && v.total_connections >= 3 ? v : undefined; }, WAIT_MS, 'three attempts on the server');
    expect(seen.connections).toBeLessThanOrEqual(1);
    const [first, second] = warnings();
    expect(first).not.toBe(second);
    expect(warnings()).toHaveLength(2);
    // The daemon kept serving all along.
    expect((await daemon.client.call('listSessions')).sessions).toEqual([]);
  }, 120_000);
});
