/**
 * A real `nats-server` (Debian's) with JetStream, started by a test on a free loopback port with
 * its store in a temp dir; `stop` and `start` again keep the port and the store (an outage).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its store. */
  dispose(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function reachable(port: number, address: string): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = net.connect(port, address);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** `address`: where it listens (loopback; a test's own network link to reach it from a namespace). */
export async function startNatsServer(extraArgs: string[] = [], port?: number, address = '127.0.0.1'): Promise<NatsServer> {
  if (spawnSync('nats-server', ['--version']).error) throw new Error('the fleet tests need Debian\'s nats-server: apt-get install nats-server (.ci/run installs it)');
  port ??= await freePort();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-nats-'));
  let child: ChildProcess | null = null;
  let log = '';
  const server: NatsServer = {
    url: `nats://${address}:${port}`,
    port,
    async start() {
      child = spawn('nats-server', ['-a', address, '-p', String(port), '-js', '-sd', store, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stderr!.on('data', (c: Buffer) => { log += c.toString(); });
      const deadline = Date.now() + 30_000;
      while (!(log.includes('Server is ready') && await reachable(port!, address))) {
        if (child.exitCode !== null) throw new Error(`nats-server exited: ${log}`);
        if (Date.now() > deadline) throw new Error(`nats-server did not start: ${log}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const c = child;
      child = null;
      log = '';
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGTERM');
      await exited;
    },
    async dispose() {
      await server.stop();
      fs.rmSync(store, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

export interface NatsCluster {
  readonly servers: NatsServer[];
  /** Every server's URL, separated by commas (what `--nats` takes for a cluster). */
  readonly urls: string;
  dispose(): Promise<void>;
}

/** `size` servers routed to each other as one JetStream cluster, each with its own store. */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const clientPorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routePorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = routePorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const servers = await Promise.all(clientPorts.map((port, i) => startNatsServer(
    ['-n', `s${i + 1}`, '--cluster_name', 'specterm-test', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes], port)));
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    async dispose() { await Promise.all(servers.map((s) => s.dispose())); },
  };
}
