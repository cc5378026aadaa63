/**
 * A call the hub makes on a node for its caller: the caller's own token (so the node applies
 * its scope, rate limits and audit to the person, not to the hub) and its `caller_session` (a
 * fleet id on that node is given as the node's own id). The node's answer or refusal is the
 * hub's.
 * @module
 */
import type { RequestContext } from '../ops/contracts.js';
import type { OpsRequest } from '../nats/ops-service.js';
import type { HubTokens } from './hub-tokens.js';
import type { NodeOps } from './node-ops.js';
import { ownIdOn } from './fleet-index.js';

export interface ForwardInput {
  ctx: RequestContext;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** How long the node may take beyond the usual: an operation that waits (`timeout_ms`) gets that much more. */
  waitMs?: number;
  /** A terminal's lease and resize: the caller's topic subscription on that node, which the node runs them as. */
  subscription?: string;
}

export class HubCall {
  readonly #nodes: () => NodeOps;
  readonly #tokens: HubTokens;

  /** `nodes`: the link's request/reply client (it throws NODE_UNREACHABLE while the hub has no NATS). */
  constructor(nodes: () => NodeOps, tokens: HubTokens) {
    this.#nodes = nodes;
    this.#tokens = tokens;
  }

  async forward(node: string, op: string, input: ForwardInput): Promise<unknown> {
    const request: OpsRequest = { op, token: await this.#tokens.secretOf(input.ctx.principal) };
    const caller = input.ctx.callerSession;
    if (caller !== undefined) request.caller_session = ownIdOn(node, caller);
    if (input.params !== undefined) request.params = input.params;
    // The query as the node's transport finds it: names to strings (the hub parsed it already).
    if (input.query !== undefined) {
      const query = Object.entries(input.query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]);
      if (query.length > 0) request.query = Object.fromEntries(query) as Record<string, string>;
    }
    if (input.body !== undefined) request.body = input.body;
    if (input.subscription !== undefined) request.subscription = input.subscription;
    return await this.#nodes().call(node, request, input.waitMs);
  }
}
