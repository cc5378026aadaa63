#!/usr/bin/env node
/**
 * Runs one large-write scenario against the built transport (dist/) in its own process and
 * prints one JSON line with what it measured. It runs out of process on purpose: a write that
 * blocks the event loop (issue 12, item 1) would freeze a vitest worker with it, timers
 * included, so only a parent process can notice the hang and kill it.
 *
 * Usage: node pty-write-probe.mjs '{"scenario":"echo","bytes":65536}'
 *   echo     — write `bytes` to the echoing child; wait until its log holds them all; compare.
 *   shutdown — write `bytes` to a child that never reads; kill() while the write is queued;
 *              the probe then has to end by itself (nothing left holding the event loop).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ECHO_AGENT = path.join(root, 'test/fixtures/agents/echo-agent.mjs');
const { createPtyTransport } = await import(path.join(root, 'dist/terminal/index.js'));
const { makePayload } = await import(path.join(here, 'payload.mjs'));

const options = JSON.parse(process.argv[2] ?? '{}');
const HEARTBEAT_MS = 5;
const POLL_MS = 10;

/** Largest gap between heartbeat ticks: how long the event loop was blocked at most. */
function startHeartbeat() {
  let last = performance.now();
  let maxGapMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks += 1;
  }, HEARTBEAT_MS);
  return { stop: () => { clearInterval(timer); return { maxGapMs: Math.round(maxGapMs), ticks }; } };
}

function until(check, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = () => {
      const v = check();
      if (v) { resolve(v); return; }
      if (Date.now() >= deadline) { reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)); return; }
      setTimeout(poll, POLL_MS);
    };
    poll();
  });
}

function spawnEcho(transport, dir, extraArgs) {
  const log = path.join(dir, 'received.bin');
  let outputChars = 0;
  let exit;
  transport.onData((chunk) => { outputChars += chunk.length; });
  transport.onExit((info) => { exit = info; });
  transport.spawn({
    file: process.execPath,
    args: [ECHO_AGENT, '--log', log, ...extraArgs],
    cwd: dir,
    env: { ...process.env, TERM: 'xterm-256color' },
    cols: 80,
    rows: 24,
  });
  return { log, outputChars: () => outputChars, exit: () => exit };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-write-probe-'));
const transport = createPtyTransport({ killGraceMs: 500 });
const result = { scenario: options.scenario, bytes: options.bytes };
try {
  if (options.scenario === 'echo') {
    const child = spawnEcho(transport, dir, []);
    await until(() => child.outputChars() > 0, 10_000, 'the echo agent to start');
    const payload = makePayload(options.bytes);
    const heartbeat = startHeartbeat();
    const startedAt = performance.now();
    transport.write(payload);
    result.writeReturnedMs = Math.round(performance.now() - startedAt);
    const expected = Buffer.from(payload, 'utf8');
    await until(() => fs.statSync(child.log).size >= expected.length, 60_000, `${expected.length} bytes in the child's log`);
    result.deliveredMs = Math.round(performance.now() - startedAt);
    Object.assign(result, heartbeat.stop());
    result.intact = fs.readFileSync(child.log).equals(expected);
    transport.kill();
    await until(() => child.exit(), 10_000, 'the child to exit');
  } else if (options.scenario === 'shutdown') {
    const child = spawnEcho(transport, dir, ['--no-read']);
    await until(() => child.outputChars() > 0, 10_000, 'the echo agent to start');
    const heartbeat = startHeartbeat();
    transport.write(makePayload(options.bytes));
    await new Promise((resolve) => setTimeout(resolve, 100));
    result.pendingBeforeKill = transport.pendingWriteBytes;
    const killedAt = performance.now();
    transport.kill();
    await until(() => child.exit(), 10_000, 'the child to exit after kill()');
    result.exitMs = Math.round(performance.now() - killedAt);
    result.pendingAfterExit = transport.pendingWriteBytes;
    Object.assign(result, heartbeat.stop());
  } else {
    throw new Error(`unknown scenario ${JSON.stringify(options.scenario)}`);
  }
} catch (err) {
  result.error = err instanceof Error ? err.message : String(err);
  transport.kill();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
// No process.exit(): the probe must end on its own, which proves nothing is left running.
