/**
 * Terminals of the fleet's sessions on the hub's WebSocket: `terminal/<id>` (a node's id or a
 * fleet id) is opened on the session's node over NATS (src/nats/remote-topic.ts) with the
 * caller's own token, so the node applies the person's scope; what comes back is renamed to the
 * id the client subscribed with (the node speaks of its own id, the dashboard routes frames by
 * the one it was given). Input, resize and lease go to the node's ops; lease and resize name the
 * connection's subscription, because on the node a lease belongs to a viewer.
 * @module
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { RequestContext, TopicSubscription, WsHandlers, WsSink } from '../ops/contracts.js';
import { remoteTerminalTopics, type RemoteTopicSubscription } from '../nats/remote-topic.js';
import type { ServerMessage } from '../protocol/index.js';
import type { FleetIndex, Placed } from './fleet-index.js';
import type { HubCall } from './hub-call.js';
import type { HubTokens } from './hub-tokens.js';

export interface HubTerminalsDeps {
  index: FleetIndex;
  call: HubCall;
  tokens: HubTokens;
  /** The hub's NATS connection; throws NODE_UNREACHABLE while the hub is not linked. */
  nc: () => NatsConnection;
  keepaliveMs?: number;
}

type Live = Required<Pick<WsHandlers, 'subscribe' | 'input' | 'resize' | 'lease'>>;

/** The hub's live handlers for terminals: `subscribe` serves only `terminal/<id>` topics. */
export function hubTerminals(d: HubTerminalsDeps): Live {
  // A connection's context is the same object for each of its messages: its subscriptions, by the session's place.
  const viewers = new WeakMap<RequestContext, Map<string, RemoteTopicSubscription>>();
  const key = (placed: Placed) => `${placed.node}_${placed.id}`;
  const subscriptionOf = (ctx: RequestContext, placed: Placed) => viewers.get(ctx)?.get(key(placed))?.subscription;

  /** Runs a terminal operation on the session's node, as the node's own id. */
  async function forward(op: string, message: { session_id: string }, ctx: RequestContext, asViewer: boolean): Promise<unknown> {
    const placed = d.index.place('session', message.session_id);
    const sub = asViewer ? subscriptionOf(ctx, placed) : undefined;
    return await d.call.forward(placed.node, op, { ctx, body: { ...message, session_id: placed.id }, ...(sub === undefined ? {} : { subscription: sub }) });
  }

  return {
    subscribe: async (message, ctx, sink): Promise<TopicSubscription> => {
      const ref = message.topic.slice('terminal/'.length);
      const placed = d.index.place('session', ref);
      const token = await d.tokens.secretOf(ctx.principal);
      const open = remoteTerminalTopics({ nc: d.nc(), nodeOf: () => placed.node, tokenOf: () => token, keepaliveMs: d.keepaliveMs });
      const remote = await open({ ...message, topic: `terminal/${placed.id}` }, ctx, renamingSink(sink, ref, message.topic));
      let mine = viewers.get(ctx);
      if (!mine) viewers.set(ctx, mine = new Map());
      mine.set(key(placed), remote);
      const held = mine;
      return {
        ack: (bytes) => remote.ack(bytes),
        dispose: () => {
          if (held.get(key(placed)) === remote) held.delete(key(placed));
          remote.dispose();
        },
      };
    },
    input: async (message, ctx) => { await forward('terminalInput', message, ctx, false); },
    resize: async (message, ctx) => { await forward('terminalResize', message, ctx, true); },
    lease: async (message, ctx) => await forward('terminalLease', message, ctx, true) as 'you' | 'other' | 'none',
  };
}

/** The client's sink, told of the session by the id it subscribed with. */
function renamingSink(sink: WsSink, ref: string, topic: string): WsSink {
  return {
    send: (message: ServerMessage) => {
      if (message.type === 'snapshot') sink.send({ ...message, topic });
      else if (message.type === 'lease') sink.send({ ...message, session_id: ref });
      else sink.send(message);
    },
    sendTerminal: (frame) => sink.sendTerminal({ ...frame, sessionId: ref }),
    get bufferedBytes() { return sink.bufferedBytes; },
  };
}
