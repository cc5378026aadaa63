/**
 * The hub's link to the fleet's NATS: the presence watch (which nodes there are), request/reply
 * to the nodes, the durable event feed, and the fleet tokens' bucket. It starts in the
 * background and retries every 2 s until NATS answers — the hub serves its API and dashboard at
 * once, and answers NODE_UNREACHABLE for what needs the fleet until then — and reconnects for
 * as long as the hub runs.
 * @module
 */
import { connect, type Authenticator, type NatsConnection } from '@nats-io/transport-node';
import type { EventLog } from '../daemon/event-log.js';
import { openFleetTokensBucket } from '../nats/fleet-tokens.js';
import type { FleetTokenLedger } from '../nats/fleet-tokens-ledger.js';
import { redactUrl } from '../nats/node-link.js';
import { SpectermError, type DaemonEvent } from '../protocol/index.js';
import { EventFeed } from './event-feed.js';
import { FleetPresence } from './fleet-presence.js';
import type { FleetIndex } from './fleet-index.js';
import { NodeOps } from './node-ops.js';

export interface HubLinkOptions {
  url: string;
  authenticator?: Authenticator;
  /** The hub's name: its durable consumer is named for it. */
  hub: string;
  events: EventLog;
  index: FleetIndex;
  ledger: FleetTokenLedger;
  /** How long a node has to answer a request. */
  nodeTimeoutMs: number;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

interface Linked { nc: NatsConnection; presence: FleetPresence; nodes: NodeOps; feed: EventFeed }

export class HubLink {
  readonly #o: HubLinkOptions;
  #linked: Linked | null = null;
  #closed = false;
  readonly #linking: Promise<void>;

  constructor(options: HubLinkOptions) {
    this.#o = options;
    this.#linking = this.#link();
  }

  /** The nodes' presence; throws NODE_UNREACHABLE while the hub has no NATS yet. */
  get presence(): FleetPresence {
    return this.#need().presence;
  }

  /** The hub's NATS connection (terminals of nodes open on it); throws NODE_UNREACHABLE while the hub has no NATS yet. */
  get connection(): NatsConnection {
    return this.#need().nc;
  }

  get nodes(): NodeOps {
    return this.#need().nodes;
  }

  /** Resolves once linked (or closed before). */
  async ready(): Promise<void> {
    await this.#linking;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#linking;
    await this.#teardown();
  }

  async #teardown(): Promise<void> {
    const linked = this.#linked;
    this.#linked = null;
    if (!linked) return;
    this.#o.ledger.detach();
    linked.presence.close();
    await linked.feed.stop();
    await linked.nc.drain().catch(() => {});
  }

  #need(): Linked {
    if (this.#linked) return this.#linked;
    throw new SpectermError({ code: 'NODE_UNREACHABLE', detail: `the hub is not linked to NATS at ${redactUrl(this.#o.url)} yet (it retries every 2 s); check that the NATS server runs and the hub's credentials` });
  }

  async #link(): Promise<void> {
    const o = this.#o;
    for (let attempt = 0; !this.#closed; attempt++) {
      let nc: NatsConnection | undefined;
      try {
        nc = await connect({ servers: o.url, name: `specterm-hub-${o.hub}`, authenticator: o.authenticator, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
        const presence = await FleetPresence.watch(nc, (node, record) => o.index.notePresence(node, record));
        const onEvent = (node: string, event: DaemonEvent) => o.index.noteEvent(node, event);
        const feed = await EventFeed.start(nc, { hub: o.hub, events: o.events, onEvent, log: (m) => o.log('warn', `nats: ${m}`) });
        o.ledger.attach(await openFleetTokensBucket(nc));
        this.#linked = { nc, presence, nodes: new NodeOps(nc, o.nodeTimeoutMs), feed };
        this.#watchStatus(nc);
        o.log('info', `nats: hub ${o.hub} linked to ${redactUrl(o.url)}`);
        if (this.#closed) await this.#teardown();
        return;
      } catch (error) {
        await nc?.close().catch(() => {});
        if (attempt === 0) o.log('warn', `nats: cannot reach ${redactUrl(o.url)} (${(error as Error).message}); serving and retrying every 2 s`);
        await new Promise((resolve) => setTimeout(resolve, 2_000).unref());
      }
    }
  }

  #watchStatus(nc: NatsConnection): void {
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect') this.#o.log('warn', 'nats: disconnected; nodes are listed with their last known state until NATS returns');
        if (status.type === 'reconnect') {
          this.#o.log('info', 'nats: reconnected');
          void openFleetTokensBucket(nc).then((kv) => this.#o.ledger.attach(kv), () => {});
        }
      }
    })().catch(() => {});
  }
}
