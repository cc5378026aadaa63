/**
 * The daemon's connection to the host survives being dropped: a daemon whose event loop is too
 * busy to read falls behind, the host drops it (its backlog limit), and the client reconnects,
 * reattaches every session from the last byte it applied, and the screen goes on as if nothing
 * happened — or, when the ring no longer holds that byte, is rebuilt from the ring as a daemon
 * restart rebuilds it. A host that is gone for good ends its sessions with a clear error.
 * Real host process, real sockets, real PTYs; the "busy daemon" is this process's event loop
 * blocked until the host's log says it dropped us.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HostClient } from '../../src/host/host-client.js';
import { isProcessGone } from '../../src/host/host-process.js';
import { HostTransport } from '../../src/host/host-transport.js';
import { TerminalScreen } from '../../src/terminal/index.js';
import { processExists, startTestHost, stopAllHosts, trackPid, waitFor, type TestHost } from './host-harness.js';

const FLOOD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'flood.mjs');
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };
const COLS = 80;
const ROWS = 24;
const SCROLLBACK = 5000;

const clients: HostClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await stopAllHosts();
});

async function reconnectingClient(host: TestHost, giveUpAfterMs = 20_000): Promise<HostClient> {
  const client = await HostClient.connect({ socketPath: host.socketPath, clientName: 'daemon', reconnect: { giveUpAfterMs } });
  clients.push(client);
  return client;
}

/** The driver's wiring (output → screen, the screen's answers → the child), plus every raw byte delivered. */
function wire(client: HostClient, id: string, kib: number) {
  const transport = new HostTransport({ client, target: { mode: 'spawn', id } });
  const screen = new TerminalScreen({ cols: COLS, rows: ROWS, scrollback: SCROLLBACK });
  const chunks: Buffer[] = [];
  const errors: Error[] = [];
  const exits: unknown[] = [];
  /** Where the byte stream jumped (a rebuild from the ring): the seq it jumped to and the chunk index. */
  const jumps: Array<{ seq: number; chunk: number }> = [];
  let end = 0;
  let text = '';
  screen.onResponse((data) => transport.write(data));
  transport.onBytes(({ seq, bytes }) => {
    if (seq !== end) jumps.push({ seq, chunk: chunks.length });
    end = seq + bytes.length;
    chunks.push(Buffer.from(bytes));
  });
  transport.onData((chunk) => {
    text += chunk;
    screen.write(chunk);
  });
  transport.onError((e) => errors.push(e));
  transport.onExit((e) => exits.push(e));
  transport.spawn({ file: process.execPath, args: [FLOOD, '--kib', String(kib)], cwd: '/', env: ENV, cols: COLS, rows: ROWS });
  return { transport, screen, errors, exits, jumps, text: () => text, bytes: () => Buffer.concat(chunks), bytesFrom: (chunk: number) => Buffer.concat(chunks.slice(chunk)) };
}

/** Blocks this process's event loop (a daemon too busy to read) until the host logs that it dropped a client. */
function stallUntilDropped(host: TestHost, client = 'daemon', timeoutMs = 60_000): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.readFileSync(host.logFile, 'utf8').includes(`dropping a client (${JSON.stringify(client)})`)) return;
    if (Date.now() > deadline) throw new Error(`the host did not drop the stalled client within ${timeoutMs} ms; its log:\n${fs.readFileSync(host.logFile, 'utf8')}`);
    const until = Date.now() + 20;
    while (Date.now() < until) { /* busy: nothing is read from the socket */ }
  }
}

/** The ring as a fresh attach from seq 0 replays it (a daemon restart's view), on its own connection. */
async function ringReplay(host: TestHost, id: string): Promise<{ from: number; bytes: Buffer }> {
  const client = await HostClient.connect({ socketPath: host.socketPath, clientName: 'probe' });
  clients.push(client);
  const chunks: Buffer[] = [];
  client.onOutput((e) => { if (e.id === id) chunks.push(Buffer.from(e.bytes)); });
  const attached = await client.attach(id, 0);
  await waitFor(() => chunks.reduce((n, c) => n + c.length, 0) >= attached.session.seq - attached.replayFrom, 10_000, 'the replay of the ring');
  client.close();
  return { from: attached.replayFrom, bytes: Buffer.concat(chunks) };
}

function screenOf(bytes: Buffer): TerminalScreen {
  const screen = new TerminalScreen({ cols: COLS, rows: ROWS, scrollback: SCROLLBACK });
  screen.write(bytes.toString('utf8'));
  return screen;
}

async function settled(screen: TerminalScreen): Promise<void> {
  await waitFor(() => screen.isParserAtRest(), 10_000, 'the screen to parse its input');
}

/**
 * A session whose agent bursts `kib` KiB while this process does not read, until the host drops
 * the connection; then waits for the end of the burst and the echo of a write made after it.
 */
async function burstThroughADrop(host: TestHost, id: string, kib: number): Promise<ReturnType<typeof wire>> {
  const session = wire(await reconnectingClient(host), id, kib);
  await waitFor(() => session.text().includes('ready'), 20_000, 'the agent to start');
  trackPid(session.transport.pid);
  session.transport.write('F');
  stallUntilDropped(host);
  await waitFor(() => session.text().includes('burst 1 done'), 30_000, () => `the end of the burst after the reconnect (have ${session.transport.seq} bytes; errors: ${session.errors.map((e) => e.message).join('; ')})`);
  session.transport.write('ping');
  await waitFor(() => session.text().includes('got: "ping"'), 20_000, 'the echo of a write made after the reconnect');
  return session;
}

describe('the host connection under load', () => {
  it('reconnects after the host dropped a client that stopped reading, and resumes from the last byte applied: no gap, no duplicate', async () => {
    const host = await startTestHost({ maxDaemonBacklogBytes: 16 * 1024, ringBytes: 4 * 1024 * 1024 });
    const session = await burstThroughADrop(host, 'busy', 512);

    const ring = await ringReplay(host, 'busy');
    expect(ring.from).toBe(0);
    await waitFor(() => session.transport.seq === ring.bytes.length, 10_000, 'the session to catch up with the ring');
    expect(session.bytes().equals(ring.bytes)).toBe(true);
    expect(session.jumps).toEqual([]);
    expect(session.exits).toEqual([]);
    await settled(session.screen);
    const reference = screenOf(ring.bytes);
    await settled(reference);
    expect(session.screen.viewportLines()).toEqual(reference.viewportLines());
    expect(session.screen.scrollbackLines()).toEqual(reference.scrollbackLines());
  }, 120_000);

  it('rebuilds the screen from the ring when the ring no longer holds the last byte applied, and equals a screen built from the ring', async () => {
    const host = await startTestHost({ maxDaemonBacklogBytes: 16 * 1024, ringBytes: 64 * 1024 });
    const session = await burstThroughADrop(host, 'lapped', 2048);

    const ring = await ringReplay(host, 'lapped');
    expect(ring.from).toBeGreaterThan(0);
    await waitFor(() => session.transport.seq === ring.from + ring.bytes.length, 10_000, 'the session to catch up with the ring');
    // A jump to what the ring held then (more than one when the reader, busy with the replay
    // and a 16 KiB limit, was dropped again); the bytes delivered end with exactly the ring now:
    // nothing after the last jump is missing or doubled.
    expect(session.jumps.length).toBeGreaterThanOrEqual(1);
    const lastJump = session.jumps.at(-1)!;
    expect(session.bytes().subarray(-ring.bytes.length).equals(ring.bytes)).toBe(true);
    expect(session.exits).toEqual([]);
    await settled(session.screen);
    // The screen is the one a restarted daemon builds from the ring at the jump (plus what came
    // after), not the old screen patched: scrollback, viewport and cursor all equal.
    const rebuilt = screenOf(session.bytesFrom(lastJump.chunk));
    const reference = screenOf(ring.bytes);
    await settled(rebuilt);
    await settled(reference);
    expect(session.screen.scrollbackLines()).toEqual(rebuilt.scrollbackLines());
    expect(session.screen.viewportLines()).toEqual(rebuilt.viewportLines());
    expect(session.screen.cursor()).toEqual(rebuilt.cursor());
    expect(session.screen.viewportLines()).toEqual(reference.viewportLines());
  }, 120_000);

  it('gives the daemon connection a larger backlog than a viewer: a stall that drops the viewer keeps the daemon', async () => {
    const host = await startTestHost({ maxClientBacklogBytes: 16 * 1024 });
    const session = wire(await reconnectingClient(host), 'shared', 1024);
    await waitFor(() => session.text().includes('ready'), 20_000, 'the agent to start');
    trackPid(session.transport.pid);
    const viewer = await HostClient.connect({ socketPath: host.socketPath, clientName: 'viewer' });
    clients.push(viewer);
    await viewer.attach('shared', 0);

    session.transport.write('F');
    stallUntilDropped(host, 'viewer');
    await waitFor(() => session.text().includes('burst 1 done'), 30_000, 'the burst at the daemon');
    await waitFor(() => viewer.closed, 10_000, 'the viewer to see its drop');
    expect(fs.readFileSync(host.logFile, 'utf8')).not.toContain('dropping a client ("daemon")');
    expect(session.jumps).toEqual([]);
  }, 120_000);

  it('ends every session with a HOST_GONE error and an exit when the host is gone for good, and refuses requests instead of hanging', async () => {
    const host = await startTestHost();
    const client = await reconnectingClient(host, 1500);
    const session = wire(client, 'orphan', 1);
    await waitFor(() => session.text().includes('ready'), 20_000, 'the agent to start');
    trackPid(session.transport.pid);
    process.kill(host.pid, 'SIGKILL');
    await waitFor(() => session.exits.length > 0, 20_000, 'the session to end');
    expect(session.exits).toEqual([{ exitCode: null, signal: null }]);
    expect(session.errors.map((e) => (e as { code?: string }).code)).toContain('HOST_GONE');
    expect(session.errors.find((e) => (e as { code?: string }).code === 'HOST_GONE')!.message).toMatch(/gave up reconnecting/);
    expect(client.closed).toBe(true);
    await expect(client.list()).rejects.toMatchObject({ code: 'HOST_GONE' });
    await waitFor(() => !processExists(host.pid), 10_000, 'the host to be gone');
  }, 60_000);

  it('with isHostGone, tells a dead host (this process is its parent: a zombie until reaped) from a slow one at once, not after the give-up', async () => {
    const host = await startTestHost();
    const client = await HostClient.connect({ socketPath: host.socketPath, clientName: 'daemon', reconnect: { giveUpAfterMs: 60_000, isHostGone: isProcessGone } });
    clients.push(client);
    const session = wire(client, 'orphan', 1);
    await waitFor(() => session.text().includes('ready'), 20_000, 'the agent to start');
    trackPid(session.transport.pid);
    const killedAt = Date.now();
    process.kill(host.pid, 'SIGKILL');
    await waitFor(() => session.exits.length > 0, 30_000, 'the session to end');
    expect(Date.now() - killedAt).toBeLessThan(5000);
    const gone = session.errors.find((e) => (e as { code?: string }).code === 'HOST_GONE');
    expect(gone?.message).toContain(`the PTY host (pid ${host.pid})`);
    expect(client.closed).toBe(true);
  }, 60_000);
});
