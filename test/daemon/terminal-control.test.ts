/**
 * Flow control and the controller lease on the real stack (host, driver, server, `ws`):
 * a viewer that stops reading falls behind without slowing the PTY or the other viewer, and
 * once it reads and acks again it gets a fresh snapshot; only the lease holder resizes, the
 * lease answers you/other/none, and it frees when its socket closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stopAllHosts, startTestHost, waitFor } from '../host/host-harness.js';
import { cwdDir, expectSameScreens, startSession, startStreamServer, TORTURE, Viewer, type StreamServer, type TestSession } from './terminal-harness.js';

const TEST_MS = 120_000;
const WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: StreamServer | undefined;
const viewers: Viewer[] = [];
afterEach(async () => {
  for (const v of viewers.splice(0)) v.socket.terminate();
  await server?.close();
  server = undefined;
  await stopAllHosts();
});

async function torture(s: StreamServer, id: string, args: string[]): Promise<TestSession> {
  const host = await startTestHost();
  const session = startSession(await host.connect(), { id, file: process.execPath, args: [TORTURE, ...args], cwd: cwdDir() });
  s.sessions.set(id, session);
  s.stream.follow(id);
  return session;
}

function viewer(s: StreamServer, id: string, token = s.adminToken): Viewer {
  const v = new Viewer(s.wsUrl, token, id);
  viewers.push(v);
  return v;
}

describe('terminal stream: backpressure', () => {
  it('a viewer that stops reading falls behind alone, and after catching up gets a fresh snapshot', async () => {
    server = await startStreamServer({ limits: { maxUnackedBytes: 16 * 1024, maxBufferedBytes: 64 * 1024 } });
    const session = await torture(server, 's_flow', ['--rounds', '90', '--pace-ms', '1']);
    const normal = viewer(server, session.id);
    const stalled = viewer(server, session.id);
    await normal.subscribe();
    await stalled.subscribe();
    stalled.stopReading();
    const started = Date.now();
    // The normal viewer keeps up with the whole run while the stalled one reads nothing.
    await expectSameScreens(session, [normal], 'TORTURE-DONE');
    const elapsedMs = Date.now() - started;
    const total = session.transport.seq;
    expect(total, 'several times what the stalled viewer may be sent').toBeGreaterThan(100 * 1024);
    const [serverNormal, serverStalled] = server.stream.viewersOf(session.id);
    expect(serverNormal!.state).toBe('live');
    expect(serverStalled!.state).toBe('behind');
    expect(stalled.expected, 'the stalled viewer was sent at most the bound past its last ack').toBeLessThan(40 * 1024);
    // Reading again: it renders what it was sent, acks, and is resynced with a snapshot.
    stalled.resumeReading();
    await waitFor(() => stalled.snapshots >= 2, WAIT_MS, () => `a fresh snapshot (state ${serverStalled!.state}, expected ${stalled.expected})`);
    expect(serverStalled!.resyncs).toBe(1);
    await expectSameScreens(session, [normal, stalled], 'TORTURE-DONE');
    expect(elapsedMs).toBeLessThan(WAIT_MS);
  }, TEST_MS);
});

describe('terminal stream: hostile viewers (issue 24 item 2)', () => {
  /** A child that prints numbered 90-byte lines at up to ~4 MB/s: enough to fill a stalled socket's kernel buffers in seconds. */
  const FAST = "let n = 0; const t = setInterval(() => { let s = ''; for (let i = 0; i < 100; i++) s += `line ${n++} ${'y'.repeat(80)}\\r\\n`; process.stdout.write(s); if (n > 300000) clearInterval(t); }, 2);";

  async function fastSession(s: StreamServer, id: string): Promise<TestSession> {
    const host = await startTestHost();
    const session = startSession(await host.connect(), { id, file: process.execPath, args: ['-e', FAST], cwd: cwdDir() });
    s.sessions.set(id, session);
    s.stream.follow(id);
    return session;
  }

  /** Sends `rounds` bursts of acks 20 ms apart; returns the most the daemon held unsent for the viewers meanwhile. */
  async function floodAcks(s: StreamServer, flood: Viewer, ack: () => number, rounds: number): Promise<number> {
    let maxBacklog = 0;
    for (let i = 0; i < rounds; i++) {
      for (let j = 0; j < 10; j++) flood.send({ type: 'ack', topic: `terminal/${flood.sessionId}`, bytes: ack() });
      await sleep(20);
      for (const v of s.stream.viewersOf(flood.sessionId)) maxBacklog = Math.max(maxBacklog, v.backlogBytes);
    }
    return maxBacklog;
  }

  it('an ack beyond what was sent is a protocol error: the socket closes with 1002, having been sent next to nothing', async () => {
    server = await startStreamServer({ limits: { maxUnackedBytes: 16 * 1024, maxBufferedBytes: 64 * 1024 } });
    const session = await fastSession(server, 's_ackflood');
    const flood = viewer(server, session.id, server.tokens.create({ name: 'phone', scope: 'read' }).token);
    await flood.subscribe();
    flood.stopReading();
    const [serverSide] = server.stream.viewersOf(session.id);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => flood.socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    await waitFor(() => session.transport.seq > 256 * 1024, WAIT_MS, 'output while the viewer reads nothing');
    const maxBacklog = await floodAcks(server, flood, () => 2 ** 52, 150);
    expect(serverSide!.sentBytes, 'bytes the daemon wrote for the flooding viewer').toBeLessThan(2 * 1024 * 1024);
    expect(maxBacklog, 'what the daemon held unsent for it').toBeLessThan(1024 * 1024);
    flood.resumeReading();
    expect(await Promise.race([closed, sleep(20_000).then(() => 'still open')])).toEqual({ code: 1002, reason: 'ack beyond what was sent' });
    expect(flood.inbox.find((m) => m.type === 'error')).toMatchObject({ code: 'ACK_BEYOND_SENT' });
    expect(server.stream.viewersOf(session.id)).toEqual([]);
    // The session and the other viewers never noticed.
    const normal = viewer(server, session.id);
    await normal.subscribe();
    await waitFor(() => normal.snapshots === 1, WAIT_MS, 'a snapshot for a new viewer');
  }, TEST_MS);

  it('a viewer that reads nothing but acks all it was sent gets no fresh snapshot while its backlog is over the bound', async () => {
    server = await startStreamServer({ limits: { maxUnackedBytes: 16 * 1024, maxBufferedBytes: 64 * 1024 } });
    const session = await fastSession(server, 's_acksent');
    const flood = viewer(server, session.id);
    await flood.subscribe();
    flood.stopReading();
    const [serverSide] = server.stream.viewersOf(session.id);
    // Acks claiming everything rendered: the daemon resyncs it until the kernel's buffers are
    // full and the socket's own backlog passes the bound. From then on nothing more is queued.
    const started = Date.now();
    while (serverSide!.backlogBytes <= 64 * 1024) {
      expect(Date.now() - started, `the backlog to pass the bound (sent ${serverSide!.sentBytes} bytes)`).toBeLessThan(WAIT_MS);
      await floodAcks(server, flood, () => serverSide!.sentSeq, 5);
    }
    const maxBacklog = await floodAcks(server, flood, () => serverSide!.sentSeq, 100);
    expect(maxBacklog, 'what the daemon held unsent for the stalled viewer').toBeLessThan(1024 * 1024);
    expect(serverSide!.state).toBe('behind');
    // Reading again, it catches up with a fresh snapshot and then follows the stream.
    const snapshots = flood.snapshots;
    flood.resumeReading();
    await waitFor(() => flood.snapshots > snapshots && serverSide!.state === 'live', WAIT_MS, () => `a fresh snapshot (state ${serverSide!.state})`);
  }, TEST_MS);
});

describe('terminal stream: the controller lease', () => {
  it('only the holder resizes; the lease answers you/other/none, is announced, and frees when its socket closes', async () => {
    server = await startStreamServer();
    const session = await torture(server, 's_lease', ['--rounds', '2']);
    const id = session.id;
    const a = viewer(server, id);
    const b = viewer(server, id);
    await a.subscribe();
    await b.subscribe();
    await expectSameScreens(session, [a, b], 'TORTURE-DONE');

    a.send({ type: 'resize', ref: 'r0', session_id: id, cols: 90, rows: 20 });
    expect(await a.next((m) => 'ref' in m && m.ref === 'r0')).toMatchObject({ type: 'error', code: 'LEASE_NOT_HELD' });

    a.send({ type: 'lease', ref: 'l1', session_id: id, action: 'acquire' });
    expect(await a.next((m) => 'ref' in m && m.ref === 'l1')).toMatchObject({ type: 'lease', holder: 'you' });
    expect(await b.next((m) => m.type === 'lease')).toMatchObject({ holder: 'other', session_id: id });

    b.send({ type: 'lease', ref: 'l2', session_id: id, action: 'acquire' });
    expect(await b.next((m) => 'ref' in m && m.ref === 'l2')).toMatchObject({ type: 'lease', holder: 'other' });
    b.send({ type: 'resize', ref: 'r1', session_id: id, cols: 90, rows: 20 });
    const refused = await b.next((m) => 'ref' in m && m.ref === 'r1');
    expect(refused).toMatchObject({ type: 'error', code: 'LEASE_NOT_HELD' });
    expect((refused as { message: string }).message).toMatch(/another viewer controls the size/);
    expect(session.driver.screen.cols).toBe(100);

    // The holder resizes: the screen follows and every viewer gets a snapshot of the new size.
    const before = [a.snapshots, b.snapshots];
    a.send({ type: 'resize', ref: 'r2', session_id: id, cols: 90, rows: 20 });
    expect(await a.next((m) => 'ref' in m && m.ref === 'r2')).toMatchObject({ type: 'ok' });
    expect([session.driver.screen.cols, session.driver.screen.rows]).toEqual([90, 20]);
    await waitFor(() => a.snapshots > before[0]! && b.snapshots > before[1]!, WAIT_MS, 'snapshots after the resize');
    expect([a.term!.cols, a.term!.rows, b.term!.cols, b.term!.rows]).toEqual([90, 20, 90, 20]);

    // A lease without a subscription is refused; a read token may not take it (the server's scope check).
    const c = viewer(server, id);
    await c.opened;
    c.send({ type: 'lease', ref: 'l3', session_id: id, action: 'acquire' });
    expect(await c.next((m) => 'ref' in m && m.ref === 'l3')).toMatchObject({ type: 'error', code: 'LEASE_NEEDS_SUBSCRIPTION' });
    const reader = viewer(server, id, server.tokens.create({ name: 'phone', scope: 'read' }).token);
    await reader.subscribe();
    reader.send({ type: 'lease', ref: 'l4', session_id: id, action: 'acquire' });
    expect(await reader.next((m) => 'ref' in m && m.ref === 'l4')).toMatchObject({ type: 'error', code: 'SCOPE_INSUFFICIENT' });
    reader.send({ type: 'input', ref: 'i4', session_id: id, data: 'x' });
    expect(await reader.next((m) => 'ref' in m && m.ref === 'i4')).toMatchObject({ type: 'error', code: 'SCOPE_INSUFFICIENT' });

    // The holder's socket closes: the lease is free, the others are told, and b can take it.
    await a.close();
    expect(await b.next((m) => m.type === 'lease')).toMatchObject({ holder: 'none' });
    b.send({ type: 'lease', ref: 'l5', session_id: id, action: 'acquire' });
    expect(await b.next((m) => 'ref' in m && m.ref === 'l5')).toMatchObject({ type: 'lease', holder: 'you' });
    b.send({ type: 'lease', ref: 'l6', session_id: id, action: 'release' });
    expect(await b.next((m) => 'ref' in m && m.ref === 'l6')).toMatchObject({ type: 'lease', holder: 'none' });
    b.send({ type: 'lease', ref: 'l7', session_id: 'nope', action: 'acquire' });
    expect(await b.next((m) => 'ref' in m && m.ref === 'l7')).toMatchObject({ type: 'error', code: 'TERMINAL_SESSION_NOT_FOUND' });
  }, TEST_MS);
});
