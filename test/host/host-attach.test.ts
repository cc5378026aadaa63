/**
 * Sessions outlive their clients: a client in a separate process is SIGKILLed mid-output, a new
 * client resumes with `since` and gets exactly the bytes after it (no gap, no duplicate), and
 * the screen rebuilt from the ring equals the one the dead client had drawn.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostClient } from '../../src/host/host-client.js';
import { TerminalScreen } from '../../src/terminal/index.js';
import { processExists, startTestHost, stopAllHosts, trackPid, waitFor, WATCH_CLIENT } from './host-harness.js';

afterEach(stopAllHosts);

/** Every output frame of session `id` the client receives. */
function collect(client: HostClient, id: string): { bytes(): Buffer; frames: Array<{ seq: number; length: number }> } {
  const parts: Buffer[] = [];
  const frames: Array<{ seq: number; length: number }> = [];
  client.onOutput((e) => {
    if (e.id !== id) return;
    frames.push({ seq: e.seq, length: e.bytes.length });
    parts.push(e.bytes);
  });
  return { bytes: () => Buffer.concat(parts), frames };
}

function screenOf(bytes: Buffer): string {
  const screen = new TerminalScreen({ cols: 80, rows: 24, scrollback: 100 });
  screen.write(bytes.toString('utf8'));
  const text = screen.viewportText();
  screen.dispose();
  return text;
}

describe('PTY host: a client SIGKILLed mid-output, another resumes', () => {
  it('resumes with since: exactly the bytes after it, and the ring rebuilds the dead client\'s screen', async () => {
    const host = await startTestHost();
    const outFile = path.join(host.dir, 'seen.bin');
    const snapFile = path.join(host.dir, 'screen.json');
    // ~1500 lines at 4 ms: about 6 s of output, killed after the first ~20 KiB.
    const watcher = spawn(process.execPath, [WATCH_CLIENT, host.socketPath, 'emit', outFile, snapFile, '--lines', '1500', '--interval-ms', '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
    trackPid(watcher.pid);
    const exited = new Promise((resolve) => watcher.once('exit', resolve));
    await waitFor(() => fs.existsSync(outFile) && fs.statSync(outFile).size > 20_000, 20_000, 'the watching client to receive output');
    watcher.kill('SIGKILL');
    await exited;
    const seen = fs.readFileSync(outFile);
    const snapshot = JSON.parse(fs.readFileSync(snapFile, 'utf8')) as { seq: number; text: string };
    // The kill can land between the fixture's append and its snapshot: the snapshot then lags by one frame.
    expect(snapshot.seq).toBeLessThanOrEqual(seen.length);
    expect(seen.length - snapshot.seq).toBeLessThanOrEqual(64 * 1024);

    const client = await host.connect();
    const session = (await client.list()).find((s) => s.id === 'emit')!;
    trackPid(session.pid);
    expect(session.alive).toBe(true);
    // Still producing: the kill happened mid-output.
    expect(session.seq).toBeLessThan(1500 * 40);

    const resumed = collect(client, 'emit');
    const attach = await client.attach('emit', seen.length);
    expect(attach).toMatchObject({ replayFrom: seen.length, missedBytes: 0 });
    await waitFor(async () => !(await client.list())[0]!.alive || resumed.bytes().includes('done'), 60_000, 'the emitter to finish');

    // The whole ring, fetched by a third client, is the reference stream.
    const other = await host.connect();
    const whole = collect(other, 'emit');
    await other.attach('emit', 0);
    await waitFor(() => whole.bytes().includes('done'), 10_000, 'the full replay');
    await other.detach('emit');
    await client.detach('emit');
    const full = whole.bytes();
    const after = resumed.bytes();
    // No gap and no duplicate: what the dead client saw + what the resumed one got = everything.
    expect(Buffer.concat([seen, after]).equals(full.subarray(0, seen.length + after.length))).toBe(true);
    expect(seen.length + after.length).toBe(full.length);
    // Each frame starts where the previous ended.
    let expected = seen.length;
    resumed.frames.forEach((frame) => {
      expect(frame.seq).toBe(expected);
      expected += frame.length;
    });
    expect(screenOf(full.subarray(0, snapshot.seq))).toBe(snapshot.text);
    expect(snapshot.text).toMatch(/line \d{5} ✓ ünïcödé/);
    expect(processExists(session.pid!)).toBe(true);
  });
});
