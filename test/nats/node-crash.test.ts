/**
 * A node killed mid-stream (SIGKILL: no goodbye, the cursor maybe not saved after JetStream's
 * last ack) and started again: its agents live on in the PTY host, the new daemon re-attaches to
 * them and publishes on from its cursor — and the stream holds every event of the node once, in
 * order, with nothing lost across the crash (a republished event is kept once by its message id).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedEvents, type StreamedEvent } from '../helpers/nats-stream.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs } from '../daemon/daemon-harness.js';

const WAIT_MS = 60_000;
let nats: NatsServer;
let dirs: DaemonDirs;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer();
  dirs = makeDirs();
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
}, 90_000);
afterAll(async () => {
  await nc?.close().catch(() => {});
  await stopAll();
  await nats?.dispose();
}, 60_000);

describe('a node killed mid-stream', () => {
  it('starts again and its events reach the stream once each, in order, none lost', async () => {
    const first = await startDaemon(dirs, ['--nats', nats.url, '--node', 'k1']);
    const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'crash', cols: 100, rows: 30 } });
    await waitFor(async () => (await first.client.call('getSession', { params: { id: created.id } })).state?.id === 'idle' || undefined, WAIT_MS, 'idle');
    await first.client.call('sendMessage', { params: { id: created.id }, body: { text: 'hello', wait: 'started', timeout_ms: 45_000 } });
    first.child.kill('SIGKILL');
    await first.exited;
    const cursorFile = path.join(dirs.stateDir, 'nats-published.json');
    const cursorBefore = fs.existsSync(cursorFile) ? (JSON.parse(fs.readFileSync(cursorFile, 'utf8')) as { seq: number }).seq : 0;

    const second = await startDaemon(dirs, ['--nats', nats.url, '--node', 'k1']);
    await waitFor(async () => (await second.client.call('getSession', { params: { id: created.id } })).state?.id === 'idle' || undefined, WAIT_MS, 'the re-attached session idle again');
    await second.client.call('sendMessage', { params: { id: created.id }, body: { text: 'again', wait: 'idle', timeout_ms: 45_000 } });
    const events = await waitFor(async () => {
      const all = await streamedEvents(nc).catch(() => []);
      const turns = all.filter((e) => e.session_id === created.id && e.type === 'turn.finished').length;
      return turns >= 2 ? all : undefined;
    }, 90_000, 'both turns on the stream');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e) => e.node === 'k1')).toBe(true);
    expect(events.at(-1)!.seq).toBeGreaterThan(cursorBefore);
  }, 240_000);
});

/**
 * Node `node` works a turn, stops, has `reset` done to its state dir, starts again under the same
 * name and works a turn in a new session: the stream's events of that node from before and after.
 */
async function aNewJournal(node: string, reset: (stateDir: string) => void, offline?: { turns: number; beyond: (lastSeq: number, streamed: number) => void }): Promise<{ stateDir: string; stderr: string; before: StreamedEvent[]; after: StreamedEvent[] }> {
  const d = makeDirs();
  const ofNode = async () => (await streamedEvents(nc).catch(() => [])).filter((e) => e.node === node);
  const turnOnStream = (sessionId: string | null, what: string) => waitFor(async () => {
    const all = await ofNode();
    return all.some((e) => e.type === 'turn.finished' && (sessionId === null || e.session_id === sessionId)) ? all : undefined;
  }, WAIT_MS, what);
  const first = await startDaemon(d, ['--nats', nats.url, '--node', node]);
  const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: d.work, name: 'old', cols: 100, rows: 30 } });
  await first.client.call('sendMessage', { params: { id: created.id }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
  const before = await turnOnStream(null, 'the first turn on the stream');
  const cursorFile = path.join(d.stateDir, 'nats-published.json');
  await waitFor(() => fs.existsSync(cursorFile) && (JSON.parse(fs.readFileSync(cursorFile, 'utf8')) as { seq: number }).seq >= before.at(-1)!.seq, WAIT_MS, 'the cursor saved');
  first.child.kill('SIGTERM');
  await first.exited;

  reset(d.stateDir);
  if (offline) {
    // The machine works a while before it is linked to the fleet again: its new journal grows
    // past the seqs the fleet already has of that name.
    const unlinked = await startDaemon(d, []);
    const busy = await unlinked.client.call('createSession', { body: { spec: 'demo-agent', cwd: d.work, name: 'unlinked', cols: 100, rows: 30 } });
    for (let i = 0; i < offline.turns; i++) await unlinked.client.call('sendMessage', { params: { id: busy.id }, body: { text: `offline ${i}`, wait: 'idle', timeout_ms: 45_000 } });
    unlinked.child.kill('SIGTERM');
    await unlinked.exited;
    const db = new Database(path.join(d.stateDir, 'specterm.db'), { readonly: true });
    const lastSeq = (db.prepare('SELECT max(seq) AS seq FROM events').get() as { seq: number }).seq;
    db.close();
    offline.beyond(lastSeq, before.at(-1)!.seq);
  }
  const second = await startDaemon(d, ['--nats', nats.url, '--node', node]);
  const again = await second.client.call('createSession', { body: { spec: 'demo-agent', cwd: d.work, name: 'new', cols: 100, rows: 30 } });
  await second.client.call('sendMessage', { params: { id: again.id }, body: { text: 'again', wait: 'idle', timeout_ms: 45_000 } });
  const after = await turnOnStream(again.id, 'the new session\'s turn on the stream');
  return { stateDir: d.stateDir, stderr: second.stderr(), before, after };
}

/** One numbering across the reset: every seq on the stream once, rising; every event of the new journal on it as itself, above the old ones. */
function expectTheNewJournalOnTheStream(r: { stateDir: string; before: StreamedEvent[]; after: StreamedEvent[] }): void {
  const seqs = r.after.map((e) => e.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(new Set(seqs).size).toBe(seqs.length);
  const db = new Database(path.join(r.stateDir, 'specterm.db'), { readonly: true });
  const local = db.prepare('SELECT seq, type, session_id FROM events ORDER BY seq').all() as Array<{ seq: number; type: string; session_id: string }>;
  db.close();
  const streamed = new Map(r.after.map((e) => [e.seq, `${e.type} ${e.session_id}`]));
  expect(local.length).toBeGreaterThan(0);
  expect(local.every((e) => e.seq > r.before.at(-1)!.seq)).toBe(true);
  expect(local.filter((e) => streamed.get(e.seq) !== `${e.type} ${e.session_id}`)).toEqual([]);
}

describe('a node whose database was moved aside as corrupt', () => {
  it('numbers its new events after the ones the fleet has: none is dropped as a duplicate', async () => {
    const r = await aNewJournal('k2', (stateDir) => {
      // The database is unreadable: the daemon moves it aside and starts a new one.
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(stateDir, `specterm.db${suffix}`), { force: true });
      fs.writeFileSync(path.join(stateDir, 'specterm.db'), 'not a database '.repeat(400));
    });
    expect(r.stderr).toMatch(/moved aside|not a database|old database/i);
    expectTheNewJournalOnTheStream(r);
  }, 240_000);
});

describe('a node set up again from nothing under its old name', () => {
  it('numbers its new journal after the events the fleet has of that name: none is dropped or skipped', async () => {
    // A machine set up again: its state dir (database, cursor) is gone; the name is the same.
    const r = await aNewJournal('k3', (stateDir) => {
      for (const entry of fs.readdirSync(stateDir)) fs.rmSync(path.join(stateDir, entry), { recursive: true, force: true });
    });
    expect(r.stderr).toMatch(/state dir is new under an old name/);
    expectTheNewJournalOnTheStream(r);
  }, 240_000);
});

describe('a node set up again that worked unlinked before it joined the fleet again', () => {
  it('numbers its whole new journal after the fleet\'s events of that name, however far it reaches', async () => {
    // Its journal reaches past the fleet's last seq of the name: only the events themselves tell
    // that the ones the fleet has are not this journal's.
    const r = await aNewJournal('k4', (stateDir) => {
      for (const entry of fs.readdirSync(stateDir)) fs.rmSync(path.join(stateDir, entry), { recursive: true, force: true });
    }, { turns: 3, beyond: (lastSeq, streamed) => expect(lastSeq).toBeGreaterThan(streamed) });
    expect(r.stderr).toMatch(/state dir is new under an old name/);
    expectTheNewJournalOnTheStream(r);
  }, 300_000);
});
