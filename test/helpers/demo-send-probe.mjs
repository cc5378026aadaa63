#!/usr/bin/env node
/**
 * Sends one large message to the real demo agent (dist/demo) under the real driver and live
 * session (dist/), in its own process, and prints one JSON line with what it measured. Out of
 * process for the reason given in pty-write-probe.mjs: a blocked event loop cannot time itself
 * out.
 *
 * The agent runs a scenario written for this payload: its first rule matches only the exact
 * text (every line, in order, nothing missing) and answers PASTE-INTACT; any other message gets
 * PASTE-BROKEN.
 *
 * Usage: node demo-send-probe.mjs '{"scenario":"send","bytes":65536}'
 *   send     — send the message, wait for the agent's answer, stop the session.
 *   shutdown — send the message, let it be written for `writeForMs` (default 3000), then stop
 *              the session while most of it is still queued.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { startLiveSession } = await import(path.join(root, 'dist/harness/live-session.js'));
const { makePayload, payloadPattern } = await import(path.join(here, 'payload.mjs'));

const options = JSON.parse(process.argv[2] ?? '{}');
const HEARTBEAT_MS = 5;

function startHeartbeat() {
  let last = performance.now();
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, HEARTBEAT_MS);
  return () => { clearInterval(timer); return Math.round(maxGapMs); };
}

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-demo-send-')));
const home = path.join(dir, 'home');
fs.mkdirSync(home);
const scenarioFile = path.join(dir, 'scenario.json');
fs.writeFileSync(scenarioFile, JSON.stringify({
  model: 'demo-sonnet',
  rules: [
    { match: payloadPattern(options.bytes), flags: '', steps: [{ say: 'PASTE-INTACT' }] },
    { steps: [{ say: 'PASTE-BROKEN' }] },
  ],
}));
const result = { scenario: options.scenario, bytes: options.bytes };
let session;
try {
  session = startLiveSession({
    specRef: 'demo-agent',
    cwd: dir,
    extraArgs: ['--speed', '0.2', '--no-trust-prompt', '--scenario', scenarioFile],
    extraEnv: { HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent') },
    applyTrust: false,
  });
  await session.waitForState('idle', 30_000);
  const text = makePayload(options.bytes);
  const stopHeartbeat = startHeartbeat();
  const sentAt = performance.now();
  result.dispatch = session.driver.dispatch({ kind: 'send_message', text });
  result.dispatchMs = Math.round(performance.now() - sentAt);
  if (options.scenario === 'send' && result.dispatch.ok) {
    const screen = await session.waitForScreen(/PASTE-(INTACT|BROKEN)/, 120_000);
    result.answer = /PASTE-INTACT/.test(screen) ? 'PASTE-INTACT' : 'PASTE-BROKEN';
    result.answeredMs = Math.round(performance.now() - sentAt);
  } else if (options.scenario === 'shutdown') {
    // Let the paste run for a while (the heartbeat measures the loop meanwhile), then stop.
    await new Promise((resolve) => setTimeout(resolve, options.writeForMs ?? 3_000));
  }
  result.sendStatuses = session.events.filter((e) => e.event.kind === 'send_status').map((e) => e.event.status);
  if (options.debug) result.timeline = session.events.map((e) => `${e.atMs} ${JSON.stringify(e.event).slice(0, 200)}`);
  result.refusals = session.events.filter((e) => e.event.kind === 'command_refused').map((e) => e.event.reason);
  result.maxGapMs = stopHeartbeat();
  const stoppingAt = performance.now();
  result.exit = await session.stop();
  result.stopMs = Math.round(performance.now() - stoppingAt);
} catch (err) {
  result.error = err instanceof Error ? err.message.slice(0, 2000) : String(err);
  await session?.stop();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
// No process.exit(): the probe must end on its own, which proves nothing is left running.
