/**
 * The routes the server answers itself: health, the OpenAPI document, device tokens (against
 * the `TokenStore`) and WebSocket tickets.
 * @module
 */
import { buildOpenApiDocument, PROTOCOL_VERSION, SpectermError, WS_SUBPROTOCOL, WS_TICKET_PROTOCOL_PREFIX, type RouteInput, type TokenView } from '../protocol/index.js';
import type { TokenRecord, TokenStore } from './auth.js';
import type { BuiltInRouteId, RequestContext } from '../ops/contracts.js';
import type { WsTickets } from './ws-tickets.js';

/** A store record in wire form. */
export function toTokenView(record: TokenRecord): TokenView {
  return {
    id: record.id, name: record.name, scope: record.scope,
    created_at: record.createdAt, last_used_at: record.lastUsedAt, revoked_at: record.revokedAt,
  };
}

type BuiltIn = { [K in Exclude<BuiltInRouteId, 'createPairing' | 'pair' | 'signOut'>]: (input: RouteInput<K>, ctx: RequestContext) => unknown };

/** `revoke` revokes a token and ends what it still holds (tickets, open sockets); false when unknown. */
export function builtInHandlers(deps: { tokens: TokenStore; tickets: WsTickets; version: string; node?: string; revoke: (id: string) => boolean }): BuiltIn {
  let openapi: unknown;
  return {
    health: () => ({ status: 'ok', version: deps.version, protocol_version: PROTOCOL_VERSION, ...(deps.node ? { node: deps.node } : {}) }),
    openapi: () => (openapi ??= buildOpenApiDocument({ version: deps.version })),
    createWsTicket: (_input, ctx) => {
      const { ticket, expiresAt } = deps.tickets.issue(ctx.principal);
      return { ticket, protocols: [WS_SUBPROTOCOL, WS_TICKET_PROTOCOL_PREFIX + ticket], expires_at: expiresAt };
    },
    listTokens: () => ({ tokens: deps.tokens.list().map(toTokenView) }),
    createToken: ({ body }) => {
      const { token, record } = deps.tokens.create(body);
      return { token, record: toTokenView(record) };
    },
    revokeToken: ({ params }) => {
      if (!deps.revoke(params.id)) throw new SpectermError({ code: 'TOKEN_NOT_FOUND', detail: `no token has id '${params.id}'; \`specterm token list\` lists them`, errors: [{ path: '/id', code: 'not_found', message: `no token '${params.id}'` }] });
      return { id: params.id, revoked: true };
    },
  };
}
