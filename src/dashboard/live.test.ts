/**
 * The dashboard's connection against a real WebSocket server on loopback (the `ws` package's
 * client stands in for the browser's WebSocket, which Node 20 lacks): where event
 * subscriptions start, and where they resume after the network drops.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { LiveConnection } from './live.js';

type Received = { type: string; topic?: string; since?: number };

async function server() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (protocols) => [...protocols][0] ?? false });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const connections: Array<{ socket: WebSocket; received: Received[] }> = [];
  wss.on('connection', (socket) => {
    const connection = { socket, received: [] as Received[] };
    connections.push(connection);
    socket.on('message', (data) => connection.received.push(JSON.parse(String(data)) as Received));
  });
  return { wss, connections, port: (wss.address() as { port: number }).port };
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited 10 s for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const event = (topic: string, seq: number) => JSON.stringify({ type: 'event', topic, event: { seq, at: seq, session_id: 's_1', type: 'session.removed' } });

let cleanup: Array<() => void> = [];
afterEach(() => { for (const c of cleanup) c(); cleanup = []; vi.unstubAllGlobals(); });

describe('LiveConnection.subscribeEvents', () => {
  it('starts after `from`, and after a drop resumes after the newest event it delivered', async () => {
    const { wss, connections, port } = await server();
    vi.stubGlobal('WebSocket', WebSocket);
    vi.stubGlobal('location', { protocol: 'http:', host: `127.0.0.1:${port}` });
    const live = new LiveConnection(() => {});
    cleanup.push(() => live.close(), () => wss.close());

    const seen: number[] = [];
    let acknowledged = 0;
    live.subscribeEvents('sessions', { from: 40, event: (e) => seen.push(e.seq), subscribed: () => { acknowledged += 1; } });
    live.subscribeEvents('session/s_1', { from: undefined, event: () => {} });
    const first = await until(() => (connections[0]?.received.length === 2 ? connections[0] : undefined), 'the first subscriptions');
    expect(first.received).toEqual([{ type: 'subscribe', topic: 'sessions', since: 40 }, { type: 'subscribe', topic: 'session/s_1' }]);

    first.socket.send(JSON.stringify({ type: 'subscribed', topic: 'sessions' }));
    for (const seq of [41, 43, 42]) first.socket.send(event('sessions', seq));
    await until(() => (seen.length === 3 ? true : undefined), 'three events');
    expect(seen).toEqual([41, 43, 42]);
    expect(acknowledged).toBe(1);

    first.socket.terminate(); // the network drops: the page reconnects after 0.5 s
    const second = await until(() => (connections[1]?.received.length === 2 ? connections[1] : undefined), 'the subscriptions after the drop');
    // The newest delivered, not the last to arrive and not where it first started.
    expect(second.received).toEqual([{ type: 'subscribe', topic: 'sessions', since: 43 }, { type: 'subscribe', topic: 'session/s_1' }]);
    second.socket.send(JSON.stringify({ type: 'subscribed', topic: 'sessions' }));
    await until(() => (acknowledged === 2 ? true : undefined), 'the second acknowledgement');
  });
});
