/**
 * What a session costs the real daemon in memory (issue 27 item 2): its headless screen keeps
 * the scrollback the driver reads (`SPEC_READ_SCROLLBACK_ROWS`), not the 2,000 rows of a
 * stand-alone `specterm run` — the long history is in the PTY host's ring. At 120 columns a
 * scrollback row costs xterm 1.4 KB of cells, so 2,000 rows were 2.9 MB per session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, WS_SUBPROTOCOL, type ServerMessage } from '../../src/protocol/index.js';
import { SPEC_READ_SCROLLBACK_ROWS } from '../../src/terminal/index.js';
import { REPO, makeDirs, startDaemon, stopAll, waitFor } from './daemon-harness.js';

const WAIT_MS = 60_000;
const PRINTED_ROWS = 1000;
const VIEWPORT_ROWS = 40;

afterAll(stopAll, 60_000);

describe('specterm serve: memory per session', () => {
  it('a session\'s screen keeps the spec-read scrollback, not the stand-alone 2,000 rows', async () => {
    const dirs = makeDirs();
    const daemon = await startDaemon(dirs, ['--no-pair']);
    // 1,000 numbered rows, then the stream agent's idle block (the spec's `starting→idle`).
    const script = path.join(dirs.work, 'rows.sh');
    fs.writeFileSync(script, `#!/bin/sh\ni=0\nwhile [ $i -lt ${PRINTED_ROWS} ]; do echo "row $i"; i=$((i+1)); done\nprintf '╭─\\n│ ❯ say something\\n╰─\\n  ? for shortcuts\\n'\nexec sleep 600\n`, { mode: 0o755 });
    const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'bench', 'fixtures', 'stream-agent.spec.json'), 'utf8')) as Record<string, unknown>;
    const specFile = path.join(dirs.work, 'rows.spec.json');
    fs.writeFileSync(specFile, JSON.stringify({ ...spec, binary: script, spawn_args: [] }));
    const created = await daemon.client.call('createSession', { body: { spec: specFile, cwd: dirs.work, cols: 120, rows: VIEWPORT_ROWS } });
    await waitFor(async () => (await daemon.client.call('getSession', { params: { id: created.id } })).state?.id === 'idle', WAIT_MS, 'idle');

    // The terminal topic's snapshot is the daemon's screen with all the scrollback it keeps.
    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const socket = new WebSocket(daemon.url.replace(/^http/, 'ws') + WS_PATH, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${token}`, origin: daemon.url } });
    const messages: ServerMessage[] = [];
    socket.on('message', (data, binary) => { if (!binary) messages.push(JSON.parse(String(data)) as ServerMessage); });
    await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
    try {
      socket.send(JSON.stringify({ type: 'subscribe', topic: `terminal/${created.id}` }));
      const snapshot = await waitFor(() => messages.find((m): m is Extract<ServerMessage, { type: 'snapshot' }> => m.type === 'snapshot'), 20_000, 'the snapshot');
      const rows = [...snapshot.data.matchAll(/row (\d+)/g)].map((m) => Number(m[1]));
      expect(rows.at(-1)).toBe(PRINTED_ROWS - 1);
      // Viewport + SPEC_READ_SCROLLBACK_ROWS rows, less the idle block (4) and the cursor row — never 1,000.
      expect(rows.length).toBe(VIEWPORT_ROWS + SPEC_READ_SCROLLBACK_ROWS - 5);
    } finally {
      socket.close();
    }
  }, 180_000);
});
