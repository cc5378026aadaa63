/**
 * The driver over the host, unchanged: an `FsmDriver` on a `HostTransport` runs the demo agent
 * (specs/demo-agent) to `idle`; after a "daemon restart" (its connection and driver gone, a new
 * client and a new driver in attach mode) the new driver rebuilds the screen from the ring and
 * re-derives the state, with the same child still running.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecRef } from '../../src/catalog/builtin.js';
import type { CliSpecV4 } from '../../src/core/spec/types.js';
import { FsmDriver } from '../../src/driver/fsm-driver.js';
import { RealScheduler } from '../../src/driver/schedulers.js';
import type { HostClient } from '../../src/host/host-client.js';
import { HostTransport, type HostSessionTarget } from '../../src/host/host-transport.js';
import { processExists, shortPrivateDir, startTestHost, stopAllHosts, trackPid, waitFor } from './host-harness.js';

const DRIVER_DAEMON = fileURLToPath(new URL('./fixtures/driver-daemon.mjs', import.meta.url));

/** Generous: Node + Ink start in ~1 s idle, far slower on a loaded 2-core box. */
const WAIT_MS = 45_000;
const TEST_MS = 150_000;

const drivers: FsmDriver[] = [];
afterEach(async () => {
  for (const d of drivers.splice(0)) d.shutdown();
  await stopAllHosts();
});

function demoSpec(): CliSpecV4 {
  const r = loadSpecRef('demo-agent');
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}

interface Agent {
  driver: FsmDriver;
  transport: HostTransport;
  states: string[];
  errors: Error[];
}

function startDriver(client: HostClient, target: HostSessionTarget, home: string, cwd: string): Agent {
  const transport = new HostTransport({ client, target });
  const errors: Error[] = [];
  transport.onError((e) => errors.push(e));
  const driver = new FsmDriver({
    spec: demoSpec(),
    workingDir: cwd,
    transport,
    scheduler: new RealScheduler(),
    cols: 100,
    rows: 30,
    extraArgs: ['--speed', '0.5'],
    // Trust goes to the temp HOME, never the user's.
    homeDir: home,
    extraEnv: { HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent'), TERM: 'xterm-256color' },
  });
  drivers.push(driver);
  const states: string[] = [];
  driver.subscribe((ev) => {
    if (process.env.DEBUG_HOST_TEST && ev.kind !== 'pty_data') console.log(JSON.stringify(ev).slice(0, 200));
    if (ev.kind === 'state_changed') states.push(ev.state.id);
  });
  driver.start();
  return { driver, transport, states, errors };
}

function stateOf(agent: Agent): string | undefined {
  return agent.driver.getCurrentView()?.state.id;
}

describe('FsmDriver over HostTransport (demo agent)', () => {
  it('reaches idle, and after a daemon restart a new driver attached to the session re-derives idle from the ring', async () => {
    const host = await startTestHost();
    const home = shortPrivateDir();
    const cwd = fs.realpathSync(shortPrivateDir());
    const daemonConnection = await host.connect();
    const first = startDriver(daemonConnection, { mode: 'spawn', id: 'demo' }, home, cwd);
    await waitFor(() => stateOf(first) === 'idle', WAIT_MS, 'idle');
    const pid = first.transport.pid;
    expect(pid).toBeGreaterThan(0);
    trackPid(pid);
    const screenBefore = first.driver.snapshot();

    // The "daemon" dies: its connection drops, so its driver's shutdown cannot reach the host.
    daemonConnection.close();
    first.driver.shutdown();
    const restartClient = await host.connect();
    const listed = (await restartClient.list()).find((s) => s.id === 'demo')!;
    expect(listed).toMatchObject({ alive: true, pid });

    const second = startDriver(restartClient, { mode: 'attach', id: 'demo' }, home, cwd);
    await waitFor(() => stateOf(second) === 'idle', WAIT_MS, `re-derived idle (states: ${second.states.join(' → ')}; screen:\n${second.driver.snapshot()})`);
    expect(second.transport.pid).toBe(pid);
    expect(second.transport.seq).toBeGreaterThanOrEqual(listed.seq);
    expect(second.driver.snapshot()).toBe(screenBefore);

    // And it carries on: a message runs a turn on the same child.
    expect(second.driver.dispatch({ kind: 'send_message', text: 'hello again' })).toEqual({ ok: true });
    await waitFor(() => second.states.includes('busy'), WAIT_MS, 'busy after the message');
    await waitFor(() => second.states.lastIndexOf('idle') > second.states.lastIndexOf('busy'), WAIT_MS, 'idle after the turn');
    expect(processExists(pid!)).toBe(true);
    expect(second.errors).toEqual([]);
  }, TEST_MS);

  it('re-derives idle after the daemon process is SIGKILLed right after a turn, and the next turn runs on the same child', async () => {
    const host = await startTestHost();
    const home = shortPrivateDir();
    const cwd = fs.realpathSync(shortPrivateDir());
    const daemon = spawn(process.execPath, [DRIVER_DAEMON, host.socketPath, 'demo', home, cwd], { stdio: ['pipe', 'pipe', 'inherit'] });
    trackPid(daemon.pid);
    const seen: string[] = [];
    readline.createInterface({ input: daemon.stdout! }).on('line', (line) => seen.push((JSON.parse(line) as { state: string }).state));
    const exited = new Promise((resolve) => daemon.once('exit', resolve));
    await waitFor(() => seen.includes('idle'), WAIT_MS, 'the daemon\'s driver to reach idle');
    daemon.stdin!.write('send hello there\n');
    await waitFor(() => seen.includes('busy') && seen.lastIndexOf('idle') > seen.indexOf('busy'), WAIT_MS, () => `the first turn to end (states: ${seen.join(' → ')})`);
    daemon.kill('SIGKILL');
    await exited;

    const client = await host.connect();
    const session = (await client.list()).find((s) => s.id === 'demo')!;
    expect(session.alive).toBe(true);
    trackPid(session.pid);
    const restarted = startDriver(client, { mode: 'attach', id: 'demo' }, home, cwd);
    await waitFor(() => stateOf(restarted) === 'idle', WAIT_MS, () => `re-derived idle (states: ${restarted.states.join(' → ')}; screen:\n${restarted.driver.snapshot()})`);
    // The first turn's transcript came back from the ring.
    expect(restarted.driver.getScreenWithScrollback()).toContain('hello there');
    const mark = restarted.states.length;
    expect(restarted.driver.dispatch({ kind: 'send_message', text: 'and again' })).toEqual({ ok: true });
    await waitFor(() => restarted.states.indexOf('busy', mark) >= 0 && restarted.states.lastIndexOf('idle') > restarted.states.indexOf('busy', mark), WAIT_MS, () => `the second turn (states: ${restarted.states.join(' → ')})`);
    expect(restarted.transport.pid).toBe(session.pid);
    expect(restarted.errors).toEqual([]);
  }, TEST_MS);
});
