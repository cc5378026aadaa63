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
