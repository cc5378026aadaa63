/**
 * The hub's operations on one object (a session, an approval, a task): placed by the fleet index
 * (./fleet-index.ts: a node's id or a fleet id `<node>_<id>`) and forwarded to the node that owns
 * it, whose answer or refusal is the hub's. Creating a session takes the node from the body;
 * a task goes to its worker's node. What is the same on every node (the spec list, the schema)
 * is asked of the first node that answers.
 * @module
 */
import { OPERATIONS } from '../ops/operations.js';
import type { RequestContext } from '../ops/contracts.js';
import { API_PREFIX, fieldError, SpectermError } from '../protocol/index.js';
import { ownIdOn, type FleetIndex, type ObjectKind, type Placed } from './fleet-index.js';
import type { FleetPresence } from './fleet-presence.js';
import type { HubCall } from './hub-call.js';

type Input = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: any };
type Handler = (input: Input, ctx: RequestContext) => Promise<unknown>;

export interface ForwardingDeps {
  index: FleetIndex;
  presence: () => FleetPresence;
  call: HubCall;
  /** Re-reads the fleet's lists (an id the index has not seen yet may be new). */
  refresh: (ctx: RequestContext) => Promise<void>;
}

/** The kind of object an operation's `:id` names, by the operation's path. */
function kindOf(op: string): ObjectKind | null {
  const path = (OPERATIONS[op] as { path?: string }).path ?? '';
  if (path.startsWith(`${API_PREFIX}/sessions/:id`)) return 'session';
  if (path.startsWith(`${API_PREFIX}/approvals/:id`)) return 'approval';
  if (path.startsWith(`${API_PREFIX}/tasks/:id`)) return 'task';
  if (path.startsWith(`${API_PREFIX}/recordings/:name`)) return 'recording';
  return null;
}

export function forwardingRoutes(d: ForwardingDeps): Record<string, Handler> {
  /** The place of `ref`; an id not seen yet is looked for once more after a fresh list. */
  async function place(kind: ObjectKind, ref: string, ctx: RequestContext): Promise<Placed> {
    try {
      return d.index.place(kind, ref);
    } catch (error) {
      if (!(error instanceof SpectermError) || error.code === 'SESSION_AMBIGUOUS') throw error;
      await d.refresh(ctx);
      return d.index.place(kind, ref);
    }
  }

  const handlers: Record<string, Handler> = {};
  for (const op of Object.keys(OPERATIONS)) {
    const kind = kindOf(op);
    if (!kind) continue;
    // A recording is named by its name, every other object by its id.
    const key = kind === 'recording' ? 'name' : 'id';
    handlers[op] = async (input, ctx) => {
      const placed = await place(kind, String(input.params![key]), ctx);
      const answer = await d.call.forward(placed.node, op, { ctx, params: { ...input.params, [key]: placed.id }, query: input.query, body: input.body, waitMs: waitOf(op, input.body) });
      if (kind === 'session' && op !== 'removeSession') d.index.add(placed.node, 'session', placed.id);
      return answer;
    };
  }

  handlers.createSession = async (input, ctx) => {
    const node = knownNode(d.presence(), input.body?.node, 'start the session on');
    const answer = await d.call.forward(node, 'createSession', { ctx, body: input.body, waitMs: ACT_MS }) as { id: string };
    d.index.add(node, 'session', answer.id);
    return answer;
  };

  handlers.createTask = async (input, ctx) => {
    const body = { ...input.body };
    const worker = body.worker?.session as string | undefined;
    if (worker === undefined) {
      throw new SpectermError(fieldError('NODE_UNKNOWN', 'a hub hands a task only to an existing session: start the worker on a node first (POST /api/v1/sessions with "node"), then name it in worker.session', '/worker'));
    }
    const placed = await place('session', worker, ctx);
    body.worker = { session: placed.id };
    if (typeof body.parent_session_id === 'string') body.parent_session_id = ownIdOn(placed.node, body.parent_session_id);
    const answer = await d.call.forward(placed.node, 'createTask', { ctx, body, waitMs: ACT_MS }) as { id: string };
    d.index.add(placed.node, 'task', answer.id);
    return answer;
  };

  // The same on every node: the first that answers.
  for (const op of ['listSpecs', 'getSpecSchema']) {
    handlers[op] = async (_input, ctx) => {
      let last: unknown = new SpectermError({ code: 'NODE_UNREACHABLE', detail: 'no node of this fleet is linked yet; start `specterm serve --nats …` on a machine' });
      for (const node of d.presence().nodes()) {
        try {
          return await d.call.forward(node, op, { ctx });
        } catch (error) {
          last = error;
        }
      }
      throw last;
    };
  }
  return handlers;
}

/** What an operation that acts (types, starts, presses) may take on its node beyond a read's timeout. */
const ACT_MS = 15_000;
/** The node's own default wait for a message (src/daemon/message-delivery.ts). */
const MESSAGE_WAIT_MS = 120_000;

/** How long an operation may wait on its node: its `timeout_ms`, a message's default wait, an act's, or none (a read). */
function waitOf(op: string, body: unknown): number {
  const b = body as { timeout_ms?: unknown; wait?: unknown } | undefined;
  if (typeof b?.timeout_ms === 'number') return b.timeout_ms + ACT_MS;
  if (b?.wait === 'started' || b?.wait === 'idle') return MESSAGE_WAIT_MS + ACT_MS;
  return OPERATIONS[op]!.scope === 'read' ? 0 : ACT_MS;
}

/** `node` when the fleet has it; otherwise a refusal naming the nodes there are. */
function knownNode(presence: FleetPresence, node: unknown, what: string): string {
  const nodes = presence.nodes();
  const list = nodes.length ? nodes.map((n) => `'${n}'`).join(', ') : 'none is linked yet';
  if (typeof node !== 'string') {
    throw new SpectermError(fieldError('NODE_UNKNOWN', `say which node to ${what}: "node" is one of ${list}`, '/node', { extensions: { nodes } }));
  }
  if (!presence.has(node)) {
    throw new SpectermError(fieldError('NODE_UNKNOWN', `the fleet has no node '${node}'; the nodes are ${list}`, '/node', { extensions: { nodes } }));
  }
  return node;
}
