/**
 * Test harness for the PTY host: starts a real detached host process (bin/specterm-host.js over
 * dist/, built by `npm test`) in a fresh short private runtime dir, hands out clients, and
 * `stopAllHosts()` (call it in afterEach) shuts every host down, SIGKILLs any that does not
 * go, and waits until host and children are gone, so no test leaves a process behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostClient } from '../../src/host/host-client.js';
import { startHostProcess, type StartedHost } from '../../src/host/launch.js';
import { processExists } from '../helpers/live-driver.js';

export { processExists };

const here = path.dirname(fileURLToPath(import.meta.url));
export const EMITTER = path.join(here, 'fixtures', 'emitter.mjs');
export const WATCH_CLIENT = path.join(here, 'fixtures', 'watch-client.mjs');

/** A running test host. */
export interface TestHost extends StartedHost {
  dir: string;
  connect(): Promise<HostClient>;
}

const hosts: TestHost[] = [];
const clients: HostClient[] = [];
const dirs: string[] = [];
const pids: number[] = [];

/** A fresh 0700 dir under /tmp with a short path (Unix socket paths are limited to ~107 bytes). */
export function shortPrivateDir(): string {
  const dir = fs.mkdtempSync('/tmp/sth-');
  fs.chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

/** Starts a host process in `dir` (default: a fresh private dir). */
export async function startTestHost(options: { dir?: string; ringBytes?: number; maxClientBacklogBytes?: number; maxDaemonBacklogBytes?: number } = {}): Promise<TestHost> {
  const dir = options.dir ?? shortPrivateDir();
  const started = await startHostProcess({ runtimeDir: dir, ringBytes: options.ringBytes, maxClientBacklogBytes: options.maxClientBacklogBytes, maxDaemonBacklogBytes: options.maxDaemonBacklogBytes });
  const host: TestHost = {
    ...started,
    dir,
    connect: async () => {
      const client = await HostClient.connect({ socketPath: started.socketPath, clientName: 'test' });
      clients.push(client);
      return client;
    },
  };
  hosts.push(host);
  return host;
}

/** Remembers a pid (a child session, a client process) that must be gone after the test. */
export function trackPid(pid: number | null | undefined): void {
  if (pid) pids.push(pid);
}

export async function waitFor<T>(get: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs: number, what: string | (() => string)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Shuts down every host of the test and waits (bounded) until it and every tracked pid are gone. */
export async function stopAllHosts(): Promise<void> {
  for (const client of clients.splice(0)) client.close();
  for (const host of hosts.splice(0)) {
    if (processExists(host.pid)) {
      try {
        const client = await HostClient.connect({ socketPath: host.socketPath, timeoutMs: 2000 });
        await client.list().then((sessions) => sessions.forEach((s) => trackPid(s.pid)));
        await client.shutdown().catch(() => {});
        client.close();
      } catch {
        // Not answering: killed below.
      }
      await waitFor(() => !processExists(host.pid), 8000, `host ${host.pid} to exit`).catch(() => process.kill(host.pid, 'SIGKILL'));
    }
  }
  for (const pid of pids.splice(0)) {
    await waitFor(() => !processExists(pid), 5000, `pid ${pid} to exit`).catch(() => {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    });
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
