/**
 * One operation on one node, by request/reply on `specterm.<node>.ops` (src/nats/ops-service.ts
 * answers it): the node's answer, or its refusal as the same `SpectermError` (same code, so the
 * same HTTP status at the hub's edge, and the same extensions), or NODE_UNREACHABLE when the
 * node does not answer within the timeout.
 * @module
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { ERROR_CODES, SpectermError, type ErrorCode } from '../protocol/index.js';
import { opsSubject } from '../nats/subjects.js';
import type { OpsRequest } from '../nats/ops-service.js';

type Reply = { ok: true; answer: unknown } | { ok: false; error: { code: string; title?: string; detail?: string; errors?: unknown[] } & Record<string, unknown> };

export class NodeOps {
  readonly #nc: NatsConnection;
  readonly #timeoutMs: number;

  constructor(nc: NatsConnection, timeoutMs: number) {
    this.#nc = nc;
    this.#timeoutMs = timeoutMs;
  }

  /** `waitMs`: how long the operation itself may wait on the node (a message's `timeout_ms`), on top of the timeout. */
  async call(node: string, request: OpsRequest, waitMs = 0): Promise<unknown> {
    let reply: Reply;
    try {
      const msg = await this.#nc.request(opsSubject(node), JSON.stringify(request), { timeout: this.#timeoutMs + waitMs });
      reply = msg.json<Reply>();
    } catch (error) {
      throw unreachable(node, (error as Error).message);
    }
    if (reply.ok) return reply.answer;
    throw refusalOf(node, reply.error);
  }
}

export function unreachable(node: string, why: string): SpectermError {
  return new SpectermError({
    code: 'NODE_UNREACHABLE',
    detail: `node '${node}' does not answer over NATS (${why}); it may be stopped or cut off. Its sessions are listed with their last known state; try again once it is back`,
    extensions: { node },
  });
}

/** A node's refusal as the hub's: same code and detail; a code this hub does not know (a newer node) keeps its words as INTERNAL. */
function refusalOf(node: string, error: Extract<Reply, { ok: false }>['error']): SpectermError {
  const { code, title, detail, errors, ...extensions } = error;
  const known = Object.hasOwn(ERROR_CODES, code);
  return new SpectermError({
    code: known ? code as ErrorCode : 'INTERNAL',
    title: known ? title : undefined,
    detail: known ? detail ?? code : `node '${node}' refused with ${code}: ${detail ?? ''}`,
    errors: Array.isArray(errors) ? errors as SpectermError['errors'] : undefined,
    extensions: { ...extensions, node },
  });
}
