/**
 * The benchmark's WebSocket clients (forked by bench/daemon-model.mjs, IPC only): `clients`
 * connections to `/api/v1/ws` with the admin token, each subscribed to the `sessions` topic
 * (every event) and to `terminal/<id>` of every session, as a dashboard showing them all.
 *
 * Lags, from the fake agent's OSC 777 stamps (its CLOCK_MONOTONIC write time, ns):
 *  - terminal: receipt of a binary frame − the stamp of each frame start it carries;
 *  - state event: receipt of a `session.state` event − the stamp of the last frame of that
 *    session marked `k=busy|idle` whose kind the event's status matches (bytes travel before the
 *    event on the same socket, so the stamp is known when the event arrives).
 *
 * `overview: true` (the one-overview-client case): one connection subscribed to `sessions` only,
 * as the dashboard's overview page (src/dashboard/app.tsx) — no terminal bytes, so no stamps
 * here: the report carries every `session.state` event with its receipt time and the generator
 * (which knows when it wrote each `k=` frame) works out the lags. With `api` (the real daemon)
 * it also keeps the session list as that page does (src/client/session-list.ts): state changes
 * patched in, `GET /api/v1/sessions` 100 ms after any other list-changing event, and at most one
 * reconciling reload per 10 s.
 *
 * IPC in:  {type:'start', port, token, sessions, clients, overview?, api?}; {type:'reset'}; {type:'report'}; {type:'stop'}
 * IPC out: {type:'subscribed'}; {type:'report', terminal:{…}, state:{…}, bytes, events, received?:[{id, kind, at}], reloads?}
 */
import { WebSocket } from 'ws';
import { SessionListFeed } from '../../dist/client/index.js';
import { decodeTerminalFrame } from '../../dist/protocol/index.js';
import { summarize } from './lag-stats.mjs';

const STAMP_START = Buffer.from('\x1b]777;t=', 'latin1');
const now = () => process.hrtime.bigint();
let terminalLag = [];
let stateLag = { busy: [], idle: [] };
let bytes = 0;
let events = 0;
let unmatched = 0;
const sockets = [];
/** Overview mode: every `session.state` event, its kind and receipt time (ns, as a string for IPC). */
let received = [];
let reloads = 0;

/** The overview page's list (src/dashboard/app.tsx): patched by events, reloaded only when they cannot patch it. */
function reloader(api, token) {
  const feed = new SessionListFeed({
    read: async () => {
      const res = await fetch(`${api}/api/v1/sessions`, { headers: { authorization: `Bearer ${token}` } });
      const { sessions } = await res.json();
      reloads += 1;
      return sessions;
    },
    onLoadError: (error) => process.send({ type: 'error', message: `GET /sessions: ${error.message}` }),
  });
  feed.reloadSoon();
  return (event) => feed.event(event);
}

function connect(port, token, sessions, { overview = false, api } = {}) {
  const noteEvent = overview && api ? reloader(api, token) : null;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`, ['specterm.v1'], { headers: { authorization: `Bearer ${token}` } });
    /** Per session: the start of a stamp cut by a frame's end, and the last `k=` stamp. */
    const tails = new Map();
    const flips = new Map();
    /** Finds the stamps with native byte search: this process must keep up with 10 × N streams. */
    const scanStamps = (id, data, at) => {
      const carried = tails.get(id);
      const buf = carried ? Buffer.concat([carried, data]) : data;
      tails.delete(id);
      let from = 0;
      for (;;) {
        const start = buf.indexOf(STAMP_START, from);
        if (start < 0) break;
        const end = buf.indexOf(0x07, start);
        if (end < 0) {
          tails.set(id, Buffer.from(buf.subarray(start)));
          break;
        }
        const body = buf.toString('latin1', start + STAMP_START.length, end);
        const semi = body.indexOf(';');
        const t = BigInt(semi < 0 ? body : body.slice(0, semi));
        terminalLag.push(Number(at - t) / 1e6);
        if (semi >= 0) flips.set(id, { kind: body.slice(semi + 3), t });
        from = end + 1;
      }
      // A stamp's first bytes at the very end of the frame.
      if (!tails.has(id)) {
        const esc = buf.lastIndexOf(0x1b);
        if (esc >= 0 && buf.length - esc < STAMP_START.length && STAMP_START.subarray(0, buf.length - esc).equals(buf.subarray(esc))) tails.set(id, Buffer.from(buf.subarray(esc)));
      }
    };
    let pending = overview ? 1 : sessions.length + 1;
    ws.on('message', (data, isBinary) => {
      const at = now();
      if (isBinary) {
        const frame = decodeTerminalFrame(data);
        if (!frame) return;
        bytes += frame.data.length;
        scanStamps(frame.sessionId, Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.length), at);
        return;
      }
      const msg = JSON.parse(String(data));
      if (msg.type === 'event') noteEvent?.(msg.event);
      if (msg.type === 'subscribed' && --pending === 0) resolve(ws);
      else if (msg.type === 'error') reject(new Error(`${msg.code}: ${msg.message}`));
      else if (msg.type === 'event' && msg.event.type === 'session.state') {
        events += 1;
        const kind = msg.event.state.status === 'generating' ? 'busy' : msg.event.state.id === 'idle' ? 'idle' : null;
        if (overview) {
          if (kind) received.push({ id: msg.event.session_id, node: msg.event.node, kind, at: String(at), sentMs: msg.event.at, wallMs: performance.timeOrigin + performance.now() });
          return;
        }
        const flip = flips.get(msg.event.session_id);
        if (kind && flip?.kind === kind) {
          stateLag[kind].push(Number(at - flip.t) / 1e6);
          flips.delete(msg.event.session_id);
        } else if (kind) unmatched += 1;
      }
    });
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'subscribe', topic: 'sessions' }));
      if (!overview) for (const id of sessions) ws.send(JSON.stringify({ type: 'subscribe', topic: `terminal/${id}` }));
    });
    ws.on('error', reject);
  });
}


process.on('message', async (msg) => {
  try {
    if (msg.type === 'start') {
      for (let i = 0; i < msg.clients; i++) sockets.push(await connect(msg.port, msg.token, msg.sessions, { overview: msg.overview, api: msg.api }));
      process.send({ type: 'subscribed' });
    } else if (msg.type === 'reset') {
      terminalLag = [];
      stateLag = { busy: [], idle: [] };
      bytes = 0;
      events = 0;
      unmatched = 0;
      received = [];
      reloads = 0;
    } else if (msg.type === 'report') {
      process.send({ type: 'report', terminal: summarize(terminalLag), busy: summarize(stateLag.busy), idle: summarize(stateLag.idle),
        state: summarize([...stateLag.busy, ...stateLag.idle]), bytes, events, unmatched, received, reloads });
    } else if (msg.type === 'stop') {
      for (const ws of sockets) ws.close();
      setTimeout(() => process.exit(0), 100);
    }
  } catch (error) {
    process.send({ type: 'error', message: error?.stack ?? String(error) });
  }
});
process.send({ type: 'hello' });
