/**
 * The terminal stream end to end: real host, real driver + HostTransport running a torture
 * stream (escape sequences and UTF-8 characters split across PTY chunks), a real server and
 * real `ws` viewers. Viewers join at random moments (a snapshot at whatever point the stream
 * is) and drop and resume by `since`; at the end every viewer's own xterm shows the daemon's
 * screen cell for cell, and no viewer saw a gap or a duplicate byte.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stopAllHosts, startTestHost, waitFor } from '../host/host-harness.js';
import { cwdDir, expectSameScreens, startSession, startStreamServer, TORTURE, Viewer, type StreamServer, type TestSession } from './terminal-harness.js';
import { seededRandom } from '../helpers/seeded-random.js';

const TEST_MS = 120_000;
const WAIT_MS = 60_000;
/** Viewers joining one torture run: enough that some snapshots fall inside a sequence or a character. */
const JOINERS = 16;

let server: StreamServer | undefined;
const viewers: Viewer[] = [];
afterEach(async () => {
  for (const v of viewers.splice(0)) v.socket.terminate();
  await server?.close();
  server = undefined;
  await stopAllHosts();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function torture(s: StreamServer, id: string, args: string[] = []): Promise<TestSession> {
  const host = await startTestHost();
  const session = startSession(await host.connect(), { id, file: process.execPath, args: [TORTURE, ...args], cwd: cwdDir() });
  s.sessions.set(id, session);
  s.stream.follow(id);
  return session;
}

function viewer(s: StreamServer, id: string, options?: ConstructorParameters<typeof Viewer>[3]): Viewer {
  const v = new Viewer(s.wsUrl, s.adminToken, id, options);
  viewers.push(v);
  return v;
}

describe('terminal stream: snapshot + bytes by seq', () => {
  it('viewers joining at random moments and resuming by since end with the daemon screen, cell for cell', async () => {
    const seed = Number(process.env.TERMINAL_STREAM_SEED ?? Date.now() % 100_000);
    const rand = seededRandom(seed);
    server = await startStreamServer();
    const session = await torture(server, 's_torture', ['--rounds', '30', '--seed', String(seed)]);
    const done: Viewer[] = [];
    const resumed: Array<{ viewer: Viewer; snapshotsBefore: number }> = [];
    // Joiners at random moments while the stream runs; every other one drops and resumes.
    for (let i = 0; i < JOINERS; i++) {
      await sleep(5 + rand() * 60);
      const v = viewer(server, session.id);
      await v.subscribe();
      done.push(v);
      if (i % 2 === 1) {
        await sleep(rand() * 40);
        await v.close();
        await v.drained();
        // What this client rendered before the drop: it resumes after exactly that. A client
        // dropped before its first snapshot arrived (the snapshot follows `subscribed` once the
        // daemon's write queue drains) has nothing to resume from: it subscribes afresh, as the
        // dashboard does.
        const since = v.expected;
        await sleep(rand() * 40);
        const again = since >= 0 ? viewer(server, session.id, { term: v.term!, expected: since }) : viewer(server, session.id);
        await again.subscribe(since >= 0 ? since : undefined);
        done.splice(done.indexOf(v), 1, again);
        if (since >= 0) resumed.push({ viewer: again, snapshotsBefore: again.snapshots });
      }
    }
    await expectSameScreens(session, done, 'TORTURE-DONE');
    for (const r of resumed) expect(r.viewer.snapshots, `seed ${seed}: a resume within the ring needs no snapshot`).toBe(0);
    expect(done.length).toBe(JOINERS);
  }, TEST_MS);

  it('a resume from a seq that fell out of the ring gets a snapshot instead, and still ends equal', async () => {
    server = await startStreamServer({ feed: { ringBytes: 2048 } });
    const session = await torture(server, 's_small_ring', ['--rounds', '12']);
    const v = viewer(server, session.id);
    await v.subscribe();
    await waitFor(() => v.expected > 0, WAIT_MS, 'first bytes');
    await v.close();
    await v.drained();
    const since = v.expected;
    const term = v.term!;
    await waitFor(() => session.transport.seq > since + 8192, WAIT_MS, 'more than the ring of output after the drop');
    const again = viewer(server, session.id, { term, expected: since });
    await again.subscribe(since);
    await expectSameScreens(session, [again], 'TORTURE-DONE');
    expect(again.snapshots).toBe(1);
  }, TEST_MS);

  it('a viewer joining while the cursor waits to wrap gets its snapshot at once, and the next output lands as on the daemon', async () => {
    server = await startStreamServer();
    // 100 columns: the x's fill the row and the cursor waits behind the last one until `go` comes.
    // Raw mode: no echo, so nothing (not even the spec's focus-in prime) writes before that.
    const script = "process.stdin.setRawMode(true); process.stdout.write('x'.repeat(100)); process.stdin.on('data', (d) => { if (String(d).includes('go')) process.stdout.write('z WRAP-DONE'); });";
    const host = await startTestHost();
    const session = startSession(await host.connect(), { id: 's_wrap', file: process.execPath, args: ['-e', script], cwd: cwdDir() });
    server.sessions.set(session.id, session);
    server.stream.follow(session.id);
    await waitFor(() => session.driver.screen.headless.buffer.active.cursorX === 100, WAIT_MS, 'the cursor waiting to wrap');
    const v = viewer(server, session.id);
    await v.subscribe();
    await waitFor(() => v.snapshots === 1, 10_000, 'a snapshot while nothing more is written');
    v.send({ type: 'input', ref: 'in', session_id: session.id, data: 'go' });
    expect(await v.next((m) => 'ref' in m && m.ref === 'in')).toMatchObject({ type: 'ok' });
    await expectSameScreens(session, [v], 'WRAP-DONE');
    // The 'z' wrapped onto the next row instead of overwriting the last column.
    expect(v.term!.buffer.active.getLine(0)?.translateToString(true)).toBe('x'.repeat(100));
    expect(v.term!.buffer.active.getLine(1)?.translateToString(true)).toBe('z WRAP-DONE');
  }, TEST_MS);

  it('input over the socket reaches the child, and the new output streams to every viewer', async () => {
    server = await startStreamServer();
    const session = await torture(server, 's_input', ['--rounds', '3']);
    const a = viewer(server, session.id);
    const b = viewer(server, session.id);
    await a.subscribe();
    await b.subscribe();
    await expectSameScreens(session, [a, b], 'TORTURE-DONE');
    const before = session.transport.seq;
    a.send({ type: 'input', ref: 'in', session_id: session.id, data: 'again' });
    expect(await a.next((m) => 'ref' in m && m.ref === 'in')).toMatchObject({ type: 'ok' });
    await waitFor(() => session.transport.seq > before + 1000, WAIT_MS, 'the second round');
    await expectSameScreens(session, [a, b], 'TORTURE-DONE');
    a.send({ type: 'input', ref: 'bad', session_id: 'nope', data: 'x' });
    expect(await a.next((m) => 'ref' in m && m.ref === 'bad')).toMatchObject({ type: 'error', code: 'TERMINAL_SESSION_NOT_FOUND' });
  }, TEST_MS);
});

describe('terminal stream: frames coalesced per viewer per tick', () => {
  it('sends fewer frames than the PTY made chunks, contiguous and in seq order, and the screens still end equal', async () => {
    server = await startStreamServer({ frameTickMs: 15 });
    const session = await torture(server, 's_coalesce', ['--rounds', '20']);
    let chunks = 0;
    const a = viewer(server, session.id);
    const b = viewer(server, session.id);
    await a.subscribe();
    await b.subscribe();
    // Chunks made after both viewers were live: without coalescing each would be a frame to each.
    session.transport.onBytes(() => { chunks += 1; });
    // expectSameScreens also checks each frame starts where the previous one ended (no gap, no duplicate).
    await expectSameScreens(session, [a, b], 'TORTURE-DONE');
    const [serverA, serverB] = server.stream.viewersOf(session.id);
    expect(a.frames).toBe(serverA!.frames);
    expect(b.frames).toBe(serverB!.frames);
    expect(chunks).toBeGreaterThan(20);
    expect(a.frames, `${a.frames} frames for ${chunks} PTY chunks`).toBeLessThan(chunks / 2);
    expect(b.frames).toBeLessThan(chunks / 2);
  }, TEST_MS);
});

describe('terminal stream: a subscribe storm', () => {
  it('many viewers subscribing at once all get the screen, from snapshots serialized once per screen change', async () => {
    server = await startStreamServer();
    const session = await torture(server, 's_storm', ['--rounds', '4']);
    await waitFor(() => session.driver.getScreenWithScrollback().includes('TORTURE-DONE'), WAIT_MS, 'the torture run to end');
    const feed = server.stream.feedOf(session.id)!;
    const before = feed.serializations;
    // A dashboard reconnecting with every tab, or the benchmark's clients at start-up: all at once.
    const storm = Array.from({ length: 40 }, () => viewer(server!, session.id));
    await Promise.all(storm.map((v) => v.subscribe()));
    await expectSameScreens(session, storm, 'TORTURE-DONE');
    for (const v of storm) expect(v.snapshots).toBe(1);
    // The screen did not change during the storm: one serialization served all 40 viewers.
    expect(feed.serializations - before).toBe(1);
  }, TEST_MS);
});
