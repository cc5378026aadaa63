/**
 * `specterm attach` end to end: bin/specterm.js attach runs in a real PTY (node-pty) against a
 * real server whose terminal topic is the stream, fed by a real driver + HostTransport + host
 * running the demo agent. It finds the daemon by the state file and the admin token by the
 * state dir, shows the agent's screen, types to it, resizes it (holding the lease), detaches
 * on Ctrl-\ (never forwarded) and restores the terminal; --read-only neither types nor resizes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../src/protocol/index.js';
import { stopAllHosts, shortPrivateDir, startTestHost, waitFor } from '../host/host-harness.js';
import { cwdDir, startSession, startStreamServer, type StreamServer } from './terminal-harness.js';

const BIN = fileURLToPath(new URL('../../bin/specterm.js', import.meta.url));
const DEMO = fileURLToPath(new URL('../../dist/demo/main.js', import.meta.url));
const TEST_MS = 150_000;
const WAIT_MS = 60_000;

let server: StreamServer | undefined;
const children: pty.IPty[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) { try { c.kill(); } catch { /* gone */ } }
  await server?.close();
  server = undefined;
  await stopAllHosts();
});

async function demoSession(s: StreamServer, id: string) {
  const host = await startTestHost();
  const home = cwdDir();
  const session = startSession(await host.connect(), {
    id, file: process.execPath, args: [DEMO, '--speed', '0.5'], cwd: cwdDir(), cols: 100, rows: 30,
    env: { HOME: home, DEMO_AGENT_HOME: path.join(home, '.demo-agent') }, trustHome: home,
  });
  s.sessions.set(id, session);
  await waitFor(() => session.driver.getCurrentView()?.state.id === 'idle', WAIT_MS, () => `demo idle; screen:\n${session.driver.getScreen()}`);
  return session;
}

function runAttach(s: StreamServer, args: string[], size = { cols: 90, rows: 24 }) {
  const runtimeDir = shortPrivateDir();
  fs.writeFileSync(path.join(runtimeDir, 'daemon.json'), JSON.stringify({ url: s.server.url, pid: process.pid, protocol_version: PROTOCOL_VERSION }), { mode: 0o600 });
  const child = pty.spawn(process.execPath, [BIN, 'attach', ...args], {
    ...size, cwd: process.cwd(),
    env: { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: s.stateDir, TERM: 'xterm-256color' } as Record<string, string>,
  });
  children.push(child);
  let out = '';
  child.onData((d) => { out += d; });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  return { child, output: () => out, exited };
}

describe('specterm attach', () => {
  it('shows the live terminal, types, follows the size, detaches on Ctrl-\\ and restores the terminal', async () => {
    server = await startStreamServer();
    const session = await demoSession(server, 's_attach');
    const a = runAttach(server, [session.id]);
    // The snapshot of the idle demo agent arrives (its prompt box is on the daemon's screen).
    const promptLine = session.driver.getScreen().split('\n').find((l) => l.trim().length > 3)!.trim().slice(0, 12);
    await waitFor(() => a.output().includes(promptLine), WAIT_MS, () => `the agent's screen in attach; got ${JSON.stringify(a.output().slice(-400))}`);
    // The lease is taken and the session follows our 90x24.
    await waitFor(() => session.driver.screen.cols === 90 && session.driver.screen.rows === 24, WAIT_MS, 'the session resized to the attach terminal');
    // Typing reaches the agent (it echoes into its input box).
    a.child.write('hello from attach');
    await waitFor(() => session.driver.getScreen().includes('hello from attach'), WAIT_MS, () => `typed text on the agent's screen:\n${session.driver.getScreen()}`);
    await waitFor(() => a.output().includes('attach'), WAIT_MS, 'the echo streamed back');
    // A resize of our terminal follows.
    a.child.resize(80, 20);
    await waitFor(() => session.driver.screen.cols === 80 && session.driver.screen.rows === 20, WAIT_MS, 'the session followed the resize');
    // Ctrl-\ detaches; it never reaches the agent.
    const seqBefore = session.transport.seq;
    a.child.write('\x1c');
    expect(await a.exited).toBe(0);
    expect(a.output()).toMatch(/detached from s_attach/);
    expect(session.driver.getScreen()).not.toContain('\x1c');
    expect(session.driver.isStopped()).toBe(false);
    expect(server.stream.leases.viewOf(session.id, {})).toBe('none');
    expect(session.transport.seq - seqBefore).toBeLessThan(4096);
  }, TEST_MS);

  it('--read-only watches without typing or resizing; an unknown session and a missing daemon are clear errors', async () => {
    server = await startStreamServer();
    const session = await demoSession(server, 's_watch');
    const w = runAttach(server, [session.id, '--read-only'], { cols: 70, rows: 20 });
    const promptLine = session.driver.getScreen().split('\n').find((l) => l.trim().length > 3)!.trim().slice(0, 12);
    await waitFor(() => w.output().includes(promptLine), WAIT_MS, 'the screen in read-only attach');
    w.child.write('not typed');
    await new Promise((r) => setTimeout(r, 1000));
    expect(session.driver.getScreen()).not.toContain('not typed');
    expect([session.driver.screen.cols, session.driver.screen.rows]).toEqual([100, 30]);
    w.child.write('\x1c');
    expect(await w.exited).toBe(0);

    const unknown = runAttach(server, ['s_nope']);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toMatch(/no session has id 's_nope'.*TERMINAL_SESSION_NOT_FOUND/s);

    const runtimeDir = shortPrivateDir();
    const none = pty.spawn(process.execPath, [BIN, 'attach', 's_x'], { cols: 80, rows: 24, env: { ...process.env, SPECTERM_RUNTIME_DIR: runtimeDir, SPECTERM_STATE_DIR: server.stateDir } as Record<string, string> });
    children.push(none);
    let out = '';
    none.onData((d) => { out += d; });
    expect(await new Promise((resolve) => none.onExit(({ exitCode }) => resolve(exitCode)))).toBe(3);
    expect(out).toMatch(/no daemon is running/);
  }, TEST_MS);
});
