/**
 * A resize through the WebSocket's controller lease (what the dashboard's session view sends
 * when it fits the terminal) is the session's size, as `POST …/resize` makes it: the session
 * record keeps it, so an exited session shows it and a daemon started afterwards reads it from
 * SQLite. Real `specterm serve`, a demo-agent session, a real `ws` client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, WS_SUBPROTOCOL, type ServerMessage } from '../../src/protocol/index.js';
import { makeDirs, startDaemon, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
afterEach(stopAll, 60_000);

describe('specterm serve: a lease resize', () => {
  it('updates the session record: the exited session and the next daemon report the new size', async () => {
    const dirs = makeDirs();
    const first = await startDaemon(dirs);
    const created = await first.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.work, name: 'fit' } });
    await waitFor(async () => (await first.client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');
    const before = await first.client.call('getSession', { params: { id: created.id } });
    expect([before.cols, before.rows]).not.toEqual([91, 27]);

    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const socket = new WebSocket(first.url.replace(/^http/, 'ws') + WS_PATH, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${token}`, origin: first.url } });
    const messages: ServerMessage[] = [];
    socket.on('message', (data, binary) => { if (!binary) messages.push(JSON.parse(String(data)) as ServerMessage); });
    await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
    try {
      socket.send(JSON.stringify({ type: 'subscribe', topic: `terminal/${created.id}` }));
      await waitFor(() => messages.some((m) => m.type === 'snapshot'), 20_000, 'the snapshot');
      socket.send(JSON.stringify({ type: 'lease', ref: 'l1', session_id: created.id, action: 'acquire' }));
      await waitFor(() => messages.some((m) => m.type === 'lease' && m.ref === 'l1'), 10_000, 'the lease');
      socket.send(JSON.stringify({ type: 'resize', ref: 'r1', session_id: created.id, cols: 91, rows: 27 }));
      await waitFor(() => messages.some((m) => m.type === 'snapshot' && m.cols === 91 && m.rows === 27), 20_000, 'the snapshot of the new size');
      expect(messages.filter((m) => m.type === 'error')).toEqual([]);
    } finally {
      socket.close();
    }

    await first.client.call('killSession', { params: { id: created.id } });
    const exited = await waitFor(async () => {
      const d = await first.client.call('getSession', { params: { id: created.id } });
      return d.lifecycle === 'exited' ? d : undefined;
    }, WAIT_MS, 'exited');
    expect([exited.cols, exited.rows], 'the record of the exited session').toEqual([91, 27]);

    first.child.kill('SIGTERM');
    await first.exited;
    const second = await startDaemon(dirs);
    const stored = await second.client.call('getSession', { params: { id: created.id } });
    expect([stored.cols, stored.rows], 'the SQLite sessions row the next daemon reads').toEqual([91, 27]);
  }, 180_000);
});
