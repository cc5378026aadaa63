/**
 * The benchmark's stand-in for `specterm serve` (forked by bench/daemon-model.mjs, IPC only):
 * the daemon's steady-state work composed from the real parts — one `HostClient` to the PTY
 * host, one `FsmDriver` per session over a `HostTransport`, and `createApiServer` with
 * `WsHandlers` fanning out every session's state events (`sessions` topic) and raw PTY bytes
 * (`terminal/<id>` topics, binary frames) to the WebSocket clients. What it leaves out is what
 * costs nothing in the steady state: SQLite, the HTTP routes, serialized snapshots (a terminal
 * subscription starts with an empty snapshot here), acks and slow-client handling.
 *
 * IPC in:  {type:'start', socketPath, token, sessions:[{id, fifo}], spec, cols, rows, scrollback}
 *          {type:'measure'} → answers {type:'measured', rss, heapUsed, external, arrayBuffers}
 *          {type:'stop'}
 * IPC out: {type:'ready', port} once every session's driver left `starting`; {type:'error', message}
 */
import { HostClient, HostTransport } from '../../dist/host/index.js';
import { FsmDriver } from '../../dist/driver/fsm-driver.js';
import { createApiServer } from '../../dist/server/index.js';

/** No device tokens in the benchmark: the admin token (passed over IPC, never argv) is the only one. */
const noTokens = { create() { throw new Error('no token store in the benchmark'); }, verify: () => null, list: () => [], revoke: () => false };

/** Sessions started together (see `start`). */
const BATCH = 10;
const gc = () => { if (global.gc) { global.gc(); global.gc(); } };

async function start(msg) {
  const client = await HostClient.connect({ socketPath: msg.socketPath });
  const drivers = pendingDrivers;
  client.onClose((error) => process.send({ type: 'error', message: `host connection closed: ${error.code}: ${error.message}` }));
  /** Event subscribers (`sessions`) and terminal subscribers per session id. */
  const eventSinks = new Set();
  const terminalSinks = new Map(msg.sessions.map((s) => [s.id, new Set()]));
  let seq = 0;
  const publish = (sessionId, event) => {
    const full = { seq: ++seq, at: Date.now(), session_id: sessionId, ...event };
    for (const sink of eventSinks) sink.send({ type: 'event', topic: 'sessions', event: full });
  };
  // Raw bytes, as the host sent them: one listener for every session, frames keep the host's
  // byte seq (what the WS terminal stream sends after its snapshot).
  client.onOutput((out) => {
    const sinks = terminalSinks.get(out.id);
    if (!sinks || sinks.size === 0) return;
    const frame = { sessionId: out.id, seq: out.seq, data: out.bytes };
    for (const sink of sinks) sink.sendTerminal(frame);
  });

  /** Sessions not yet out of `starting`, and who waits for that. */
  const left = new Set();
  let batchDone = () => {};
  const startOne = (s) => {
    const spec = { ...msg.spec, binary: 'cat', spawn_args: [s.fifo] };
    const driver = new FsmDriver({
      spec, workingDir: msg.cwd, transport: new HostTransport({ client, target: { mode: 'spawn', id: s.id } }),
      cols: msg.cols, rows: msg.rows, applyTrust: false, scrollback: msg.scrollback,
    });
    driver.subscribe((ev) => {
      if (ev.kind === 'state_changed') {
        publish(s.id, { type: 'session.state', state: ev.state, modal: null });
        if (ev.state.id !== 'starting' && left.delete(s.id) && left.size === 0) batchDone();
      } else if (ev.kind === 'exit') {
        publish(s.id, { type: 'session.exited', code: ev.exit_code, signal: ev.signal });
      } else if (ev.kind === 'spawn_error' || ev.kind === 'spec_error' || (ev.kind === 'log' && ev.level === 'error')) {
        process.send({ type: 'error', message: `${s.id}: ${ev.kind}: ${JSON.stringify(ev)}` });
      }
    });
    left.add(s.id);
    driver.start();
    drivers.set(s.id, driver);
  };
  // Sessions start in batches, as people start agents: 100 sessions replaying their opening
  // transcripts at once would put more than the host's client backlog (8 MiB) in flight to
  // this one connection, and the host drops a client that far behind.
  for (let i = 0; i < msg.sessions.length; i += BATCH) {
    const batch = new Promise((resolve) => { batchDone = resolve; });
    for (const s of msg.sessions.slice(i, i + BATCH)) startOne(s);
    await batch;
  }

  const server = await createApiServer({
    tokens: noTokens, adminToken: msg.token,
    ws: {
      subscribe(message, _ctx, sink) {
        const [kind, id] = message.topic.split('/');
        if (kind === 'sessions') {
          eventSinks.add(sink);
          return { dispose: () => eventSinks.delete(sink) };
        }
        const sinks = terminalSinks.get(id);
        if (!sinks || kind !== 'terminal') throw Object.assign(new Error('unknown topic'), { status: 404 });
        sink.send({ type: 'snapshot', topic: message.topic, seq: 0, data: '', cols: msg.cols, rows: msg.rows });
        sinks.add(sink);
        return { dispose: () => sinks.delete(sink), ack() {} };
      },
    },
    log: (level, message) => process.send({ type: 'log', level, message }),
  });
  process.send({ type: 'ready', port: server.port });
  return { client, drivers, server };
}

let running;
/** The drivers while `start` is still waiting for them all to leave `starting`. */
const pendingDrivers = new Map();
process.on('message', async (msg) => {
  try {
    if (msg.type === 'start') running = await start(msg);
    else if (msg.type === 'measure') {
      gc();
      const m = process.memoryUsage();
      process.send({ type: 'measured', rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers });
    } else if (msg.type === 'status') {
      // What is still starting, for a benchmark that waits too long for 'ready'.
      const stuck = [...(running?.drivers ?? pendingDrivers)].filter(([, d]) => d.getCurrentView()?.state.id === 'starting');
      process.send({ type: 'status', starting: stuck.length, sample: stuck.slice(0, 2).map(([id, d]) => ({ id, screen: d.getScreen().slice(-400) })) });
    } else if (msg.type === 'stop') {
      for (const d of running?.drivers.values() ?? []) d.shutdown();
      await running?.server.close();
      running?.client.close();
      process.exit(0);
    }
  } catch (error) {
    process.send({ type: 'error', message: error?.stack ?? String(error) });
  }
});
process.send({ type: 'hello' });
