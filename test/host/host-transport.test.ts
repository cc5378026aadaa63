/**
 * HostTransport wired exactly as the driver wires a transport (output into a TerminalScreen, the
 * screen's answers to terminal queries written back), across a "daemon restart".
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostClient } from '../../src/host/host-client.js';
import { HostTransport, type HostSessionTarget } from '../../src/host/host-transport.js';
import { TerminalScreen } from '../../src/terminal/index.js';
import { EMITTER, startTestHost, stopAllHosts, trackPid, waitFor } from './host-harness.js';

afterEach(stopAllHosts);

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

/** The driver's wiring: output → screen, screen responses → the child. */
function wire(client: HostClient, target: HostSessionTarget): { transport: HostTransport; screen: TerminalScreen; text(): string } {
  const transport = new HostTransport({ client, target });
  const screen = new TerminalScreen({ cols: 80, rows: 24 });
  let text = '';
  screen.onResponse((data) => transport.write(data));
  transport.onData((chunk) => {
    text += chunk;
    screen.write(chunk);
  });
  transport.spawn({ file: process.execPath, args: [EMITTER, '--query', '--lines', '1'], cwd: '/', env: ENV, cols: 80, rows: 24 });
  return { transport, screen, text: () => text };
}

const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

describe('HostTransport across a daemon restart', () => {
  it('does not answer a terminal query again when it is replayed from the ring', async () => {
    const host = await startTestHost();
    const daemon = await host.connect();
    const first = wire(daemon, { mode: 'spawn', id: 'q' });
    await waitFor(() => first.text().includes('got: '), 20_000, 'the child to receive the cursor report');
    trackPid(first.transport.pid);
    expect(count(first.text(), 'got: ')).toBe(1);
    daemon.close();

    const second = wire(await host.connect(), { mode: 'attach', id: 'q' });
    await second.transport.attached;
    await waitFor(() => second.text().includes('got: '), 10_000, 'the replay');
    // Time for a (wrong) second answer to reach the child and its echo to come back.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    second.transport.write('ping');
    await waitFor(() => second.text().includes('got: "ping"'), 10_000, 'the echo of a real write');
    expect(count(second.text(), 'got: ')).toBe(2);
    expect(second.text().match(/got: "([^"]*)"/g)).toEqual(['got: "\\u001b[1;1R"', 'got: "ping"']);
  });
});

describe('HostTransport errors', () => {
  it('reports a spawn the host refused as a SpawnError with the terminal code, then an exit with code 1', async () => {
    const host = await startTestHost();
    const transport = new HostTransport({ client: await host.connect(), target: { mode: 'spawn' } });
    const errors: Error[] = [];
    const exits: unknown[] = [];
    transport.onError((e) => errors.push(e));
    transport.onExit((e) => exits.push(e));
    transport.spawn({ file: '/nonexistent/agent', args: [], cwd: '/', env: ENV, cols: 80, rows: 24 });
    await waitFor(() => exits.length === 1, 10_000, 'the exit');
    expect(exits).toEqual([{ exitCode: 1, signal: null }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'SpawnError', code: 'PTY_BINARY_NOT_FOUND', file: '/nonexistent/agent' });
    expect(errors[0]!.message).toMatch(/executable "\/nonexistent\/agent" not found/);
  });

  it('throws synchronously on a malformed request and on use before spawn', async () => {
    const host = await startTestHost();
    const transport = new HostTransport({ client: await host.connect(), target: { mode: 'spawn' } });
    expect(() => transport.write('x')).toThrow(/called before spawn\(\)/);
    expect(() => transport.spawn({ file: 'node', args: [], cwd: '/', env: ENV, cols: 0, rows: 24 })).toThrow(/invalid spawn request: message field cols must be an integer between 1 and 1000, got 0/);
  });

  it('tells attach mode when the session id is unknown', async () => {
    const host = await startTestHost();
    const transport = new HostTransport({ client: await host.connect(), target: { mode: 'attach', id: 'gone' } });
    const errors: Error[] = [];
    transport.onError((e) => errors.push(e));
    transport.spawn({ file: 'node', args: [], cwd: '/', env: ENV, cols: 80, rows: 24 });
    await expect(transport.attached).rejects.toMatchObject({ code: 'HOST_UNKNOWN_SESSION' });
    expect(errors[0]).toMatchObject({ code: 'HOST_UNKNOWN_SESSION' });
  });
});

describe('HostClient output demultiplexed by session id', () => {
  it('a session listener gets its own session\'s frames and exit only; onOutput still sees every session', async () => {
    const host = await startTestHost();
    const client = await host.connect();
    const seen = { a: [] as string[], b: [] as string[], all: new Set<string>(), exits: [] as string[] };
    client.onSessionOutput('a', (e) => seen.a.push(e.id));
    const b = client.onSessionOutput('b', (e) => seen.b.push(e.id));
    client.onSessionExit('a', (e) => seen.exits.push(e.id));
    client.onOutput((e) => seen.all.add(e.id));
    for (const id of ['a', 'b']) {
      const info = await client.spawn({ id, file: process.execPath, args: [EMITTER, '--lines', '20', '--interval-ms', '1', '--exit-code', '0'], cwd: '/', env: ENV, cols: 80, rows: 24 });
      trackPid(info.pid);
      await client.attach(id, 0);
    }
    await waitFor(() => seen.exits.length === 1 && seen.all.size === 2, 20_000, 'both sessions\' output and the exit of a');
    b.dispose();
    expect(seen.a.length).toBeGreaterThan(0);
    expect(new Set(seen.a)).toEqual(new Set(['a']));
    expect(new Set(seen.b)).toEqual(new Set(['b']));
    expect(seen.exits).toEqual(['a']);
  });
});
