/**
 * The host writes to each client once per event-loop turn: every frame of the turn (answers,
 * replayed and live output of every session) goes out in ONE socket write, in order, and the
 * backlog limit is checked on what the socket could not take after that write — a turn larger
 * than the limit that the socket takes at once is not a drop. At 100 streaming sessions this is
 * the difference between a syscall and a daemon wake-up per chunk and one per turn.
 * In-process `HostServer` (so its socket writes can be counted), real PTYs, a raw client socket.
 */
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HostServer } from '../../src/host/host-server.js';
import { encodeJson, FrameDecoder, HOST_PROTOCOL_VERSION, type Frame } from '../../src/host/wire.js';
import { shortPrivateDir, stopAllHosts, trackPid, waitFor } from './host-harness.js';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };
const servers: HostServer[] = [];
const sockets: net.Socket[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of sockets.splice(0)) s.destroy();
  for (const server of servers.splice(0)) await server.close();
  await stopAllHosts();
});

/** Writes made by the host's side of its client sockets (accepted sockets carry their server). */
function countHostWrites(): { count(): number } {
  const original = net.Socket.prototype.write;
  let count = 0;
  vi.spyOn(net.Socket.prototype, 'write').mockImplementation(function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
    if ((this as net.Socket & { server?: unknown }).server) count += 1;
    return original.apply(this, args);
  });
  return { count: () => count };
}

const log: string[] = [];

async function startHost(options: { maxClientBacklogBytes?: number } = {}): Promise<HostServer> {
  log.length = 0;
  const server = new HostServer({ socketPath: `${shortPrivateDir()}/host.sock`, log: (line) => log.push(line), ...options });
  await server.listen();
  servers.push(server);
  return server;
}

/** Starts `n` sessions that each print `bytes` bytes of text and then stay quiet. */
async function quietSessions(server: HostServer, n: number, bytes: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `q${i}`;
    const session = server.spawn({ id, file: '/bin/sh', args: ['-c', `head -c ${bytes} /dev/zero | tr '\\0' '${'abc'[i % 3]}'; exec sleep 60`], cwd: '/', env: ENV, cols: 80, rows: 24 });
    trackPid(session.info().pid);
    ids.push(id);
  }
  await waitFor(() => ids.every((id) => server.session(id).ring.seq >= bytes), 20_000, 'every session to print its text');
  return ids;
}

/** A raw client: every frame it receives, in order. */
async function connect(server: HostServer): Promise<{ socket: net.Socket; frames: Frame[]; closed: Promise<void> }> {
  const socket = net.connect(server.socketPath);
  sockets.push(socket);
  const frames: Frame[] = [];
  const decoder = new FrameDecoder();
  socket.on('data', (chunk) => frames.push(...decoder.push(chunk)));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(encodeJson({ type: 'hello', req: 1, protocol: HOST_PROTOCOL_VERSION }));
  await waitFor(() => frames.length >= 1, 10_000, 'the answer to hello');
  return { socket, frames, closed };
}

describe('PTY host output batching', () => {
  it('sends every frame of a turn in one write, in order: an attach storm of 3 sessions is 1 write, not 6', async () => {
    const server = await startHost();
    const ids = await quietSessions(server, 3, 20_000);
    const client = await connect(server);
    const writes = countHostWrites();
    // One socket write from the client: the host reads and answers all three in one turn.
    client.socket.write(Buffer.concat(ids.map((id, i) => encodeJson({ type: 'attach', req: 10 + i, id, since: 0 }))));
    await waitFor(() => client.frames.length >= 1 + 2 * ids.length, 10_000, 'three answers and three replays');
    expect(writes.count()).toBe(1);
    const order = client.frames.slice(1).map((f) => (f.kind === 'json' ? `ok ${(f.message as { req: number }).req}` : `${f.kind} ${f.id} ${f.seq} ${f.bytes.length}`));
    expect(order).toEqual(ids.flatMap((id, i) => [`ok ${10 + i}`, `replay ${id} 0 20000`]));
    for (const [i, f] of client.frames.slice(1).entries()) if (f.kind === 'replay') expect(f.bytes.every((b) => b === 'abc'.charCodeAt(((i - 1) / 2) % 3))).toBe(true);
  });

  it('checks the backlog limit after the turn\'s write: a turn over the limit that the socket takes is not a drop, a client that reads nothing is', { timeout: 60_000 }, async () => {
    const server = await startHost({ maxClientBacklogBytes: 16 * 1024 });
    const ids = await quietSessions(server, 3, 20_000);
    const reader = await connect(server);
    // 60 KB in one turn against a 16 KiB limit: the kernel takes it all, nothing is left unread.
    reader.socket.write(Buffer.concat(ids.map((id, i) => encodeJson({ type: 'attach', req: 10 + i, id, since: 0 }))));
    await waitFor(() => reader.frames.length >= 1 + 2 * ids.length, 10_000, 'the three replays');
    expect(reader.socket.destroyed).toBe(false);

    const stalled = await connect(server);
    stalled.socket.pause();
    const flood = server.spawn({ id: 'flood', file: '/bin/sh', args: ['-c', 'sleep 0.3; head -c 4000000 /dev/zero | tr "\\0" x; exec sleep 60'], cwd: '/', env: ENV, cols: 80, rows: 24 });
    trackPid(flood.info().pid);
    stalled.socket.write(encodeJson({ type: 'attach', req: 2, id: 'flood', since: 0 }));
    await waitFor(() => log.some((line) => line.startsWith('dropping a client')), 30_000, 'the host to drop the client that reads nothing');
    // A paused socket sees the host's close once it reads again.
    stalled.socket.resume();
    await stalled.closed;
    expect(log.filter((line) => line.startsWith('dropping a client'))).toHaveLength(1);
    expect(reader.socket.destroyed).toBe(false);
    expect(fs.existsSync(server.socketPath)).toBe(true);
  });
});
