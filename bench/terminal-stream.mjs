#!/usr/bin/env node
// Terminal byte lag: child output (a timestamp it prints) → a WebSocket viewer receives the frame,
// through the PTY host, HostTransport, the driver's screen and the terminal stream. N sessions × M
// viewers each. Prints name=value lines. Usage: node bench/terminal-stream.mjs [sessions] [clients] [seconds]
import fs from 'node:fs';
import WebSocket from 'ws';
import { startHostProcess } from '../dist/host/launch.js';
import { HostClient } from '../dist/host/host-client.js';
import { HostTransport } from '../dist/host/host-transport.js';
import { FsmDriver } from '../dist/driver/fsm-driver.js';
import { loadSpecRef } from '../dist/catalog/builtin.js';
import { TerminalStream } from '../dist/daemon/index.js';
import { createApiServer } from '../dist/server/index.js';
import { decodeTerminalFrame, WS_SUBPROTOCOL } from '../dist/protocol/index.js';

const [sessions = 10, clients = 10, seconds = 10] = process.argv.slice(2).map(Number);
const dir = fs.mkdtempSync('/tmp/stb-'); fs.chmodSync(dir, 0o700);
const host = await startHostProcess({ runtimeDir: dir });
const client = await HostClient.connect({ socketPath: host.socketPath, clientName: 'bench' });
const spec = loadSpecRef('demo-agent').spec;
const child = 'setInterval(() => process.stdout.write("T" + Date.now() + " " + "x".repeat(60) + "\\r\\n"), 50)';
const map = new Map();
for (let i = 0; i < sessions; i++) {
  const id = `b${i}`;
  const transport = new HostTransport({ client, target: { mode: 'spawn', id } });
  const plan = { file: process.execPath, args: ['-e', child], cwd: dir, env: { PATH: process.env.PATH }, cols: 100, rows: 30, resolvedBinary: process.execPath, viaShell: false, argvForDisplay: [] };
  const driver = new FsmDriver({ spec, workingDir: dir, transport, cols: 100, rows: 30, applyTrust: false, spawnPlan: plan });
  driver.start();
  map.set(id, { driver, transport });
}
const stream = new TerminalStream({ sessions: (id) => map.get(id) });
const adminToken = 'A'.repeat(43);
const tokens = { create() { throw new Error('no'); }, verify: () => null, list: () => [], revoke: () => false };
const server = await createApiServer({ tokens, adminToken, ws: { subscribe: stream.subscribe, input: stream.input, resize: stream.resize, lease: stream.lease }, log: () => {} });
const lags = [];
let measuring = false;
const sockets = [];
for (const id of map.keys()) {
  for (let c = 0; c < clients; c++) {
    const ws = new WebSocket(server.url.replace('http', 'ws') + '/api/v1/ws', [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${adminToken}` } });
    sockets.push(ws);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', topic: `terminal/${id}` })));
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const now = Date.now();
      const frame = decodeTerminalFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      const text = Buffer.from(frame.data).toString('latin1');
      if (measuring) for (const m of text.matchAll(/T(\d{13})/g)) lags.push(now - Number(m[1]));
      ws.send(JSON.stringify({ type: 'ack', topic: `terminal/${id}`, bytes: frame.seq + frame.data.length }));
    });
  }
}
await new Promise((r) => setTimeout(r, 2000));
measuring = true;
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
lags.sort((a, b) => a - b);
const q = (p) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))];
console.log(`terminal_stream_sessions=${sessions}`);
console.log(`terminal_stream_clients_per_session=${clients}`);
console.log(`terminal_byte_lag_samples=${lags.length}`);
console.log(`terminal_byte_lag_p50_ms=${q(0.5)}`);
console.log(`terminal_byte_lag_p99_ms=${q(0.99)}`);
for (const ws of sockets) ws.terminate();
stream.close();
await server.close();
for (const { driver } of map.values()) driver.shutdown();
await new Promise((r) => setTimeout(r, 500));
await client.shutdown().catch(() => {});
client.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
