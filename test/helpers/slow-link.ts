/**
 * A TCP link with latency: a relay on loopback that holds every chunk `delayMs` before passing it
 * on, each way, in order — what a hub in another building sees of NATS, where the kernel's netem
 * is not there to ask. It can drop its connections with what they carry, as a router that
 * reboots does; closing it ends every connection.
 */
import net from 'node:net';

export interface SlowLink {
  /** `nats://127.0.0.1:<port>`: what a client connects to instead of the target. */
  readonly url: string;
  /**
   * Drops every connection at a moment a chunk from the target holding `marker` is on its way,
   * so that chunk is lost (what a lost delivery needs to be certain, not a race).
   */
  cutWhileCarrying(marker: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSlowLink(target: { port: number; host?: string }, delayMs: number): Promise<SlowLink> {
  const sockets = new Set<net.Socket>();
  /** Chunks from the target on their way to a client. */
  const held = new Set<Buffer>();
  // Equal delays fire in the order they were set: each direction stays in order.
  const relay = (from: net.Socket, to: net.Socket, fromTarget: boolean) => {
    from.on('data', (chunk: Buffer) => {
      if (fromTarget) held.add(chunk);
      setTimeout(() => { held.delete(chunk); if (!to.destroyed) to.write(chunk); }, delayMs);
    });
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
    from.on('error', () => from.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host ?? '127.0.0.1');
    for (const s of [client, upstream]) { sockets.add(s); s.on('close', () => sockets.delete(s)); }
    relay(client, upstream, false);
    relay(upstream, client, true);
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `nats://127.0.0.1:${port}`,
    async cutWhileCarrying(marker, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (![...held].some((chunk) => chunk.includes(marker))) {
        if (Date.now() > deadline) throw new Error(`nothing holding ${JSON.stringify(marker)} crossed the link within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 1));
      }
      for (const s of sockets) s.destroy();
      held.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
