/**
 * Runs the real hub (`node bin/specterm.js hub --nats … --port 0`, over dist/) with its own
 * private dirs, and stops every hub it started (`stopHubs()` in afterAll). Its runtime dir is
 * `<runtime>/hub`, its state dir the one given (kept across a restart).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '../../src/client/index.js';
import { waitFor, type DaemonDirs } from '../daemon/daemon-harness.js';

const BIN = fileURLToPath(new URL('../../bin/specterm.js', import.meta.url));
const hubs: ChildProcess[] = [];

export interface RunningHub { child: ChildProcess; client: DaemonClient; url: string; admin: string; stderr: () => string; stop(): Promise<void> }

export async function startHub(d: DaemonDirs, natsUrl: string, extraArgs: string[] = []): Promise<RunningHub> {
  const runtimeDir = path.join(d.runtimeDir, 'hub');
  const stateDir = path.join(d.stateDir, 'hub');
  fs.rmSync(path.join(runtimeDir, 'daemon.json'), { force: true });
  const child = spawn(process.execPath, [BIN, 'hub', '--nats', natsUrl, '--port', '0', '--no-pair', '--state-dir', stateDir, ...extraArgs], { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
  hubs.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
  child.stdout!.resume();
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 15_000, 'hub exit').catch(() => child.kill('SIGKILL'));
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the hub exited with ${child.exitCode}: ${err}`);
    try {
      const state = JSON.parse(fs.readFileSync(path.join(runtimeDir, 'daemon.json'), 'utf8')) as { url: string; pid: number };
      if (state.pid === child.pid) {
        const client = DaemonClient.discover({ runtimeDir, stateDir, env: {} });
        await client.call('health');
        // Linked: the hub knows the fleet's nodes once NATS answers.
        await waitFor(() => err.includes('linked to'), 30_000, 'the hub linked to NATS');
        const admin = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
        return { child, client, url: state.url, admin, stderr: () => err, stop };
      }
    } catch (error) {
      if ((error as Error).message.includes('linked to NATS')) throw error;
    }
    if (Date.now() > deadline) throw new Error(`the hub did not start in time: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function stopHubs(): Promise<void> {
  for (const child of hubs.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 15_000, 'hub exit').catch(() => child.kill('SIGKILL'));
  }
}

/** Events of the hub's SSE stream from `since` (Last-Event-ID; of one session when `sessionId`), read until `enough` says so. */
export async function readEvents(hub: { url: string; admin: string }, since: number, enough: (events: HubEvent[]) => boolean, timeoutMs: number, sessionId?: string): Promise<HubEvent[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const events: HubEvent[] = [];
  try {
    const response = await fetch(`${hub.url}/api/v1/events${sessionId ? `?session_id=${sessionId}` : ''}`, { headers: { authorization: `Bearer ${hub.admin}`, 'last-event-id': String(since) }, signal: abort.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!enough(events)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
      const cut = text.lastIndexOf('\n\n');
      if (cut < 0) continue;
      for (const m of text.slice(0, cut).matchAll(/^data: (.*)$/gm)) events.push(JSON.parse(m[1]!) as HubEvent);
      text = text.slice(cut + 2);
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    throw new Error(`the hub's events did not arrive within ${timeoutMs} ms; got ${events.length}: ${JSON.stringify(events.slice(-5))}`);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

export interface HubEvent { seq: number; node?: string; node_seq?: number; type: string; session_id: string; approval?: { id: string } }
