/**
 * Device tokens: scoped, revocable, stored hashed. The secret is shown once, on create.
 * @module
 */
import { z } from 'zod';
import { EpochMs, Id } from './common.js';
import { SCOPES } from './scopes.js';
import { NodeName } from './node.js';

export const ScopeSchema = z.enum(SCOPES);

export const TokenView = z.strictObject({
  id: Id,
  name: z.string(),
  scope: ScopeSchema,
  created_at: EpochMs,
  last_used_at: EpochMs.nullable(),
  revoked_at: EpochMs.nullable(),
});
export type TokenView = z.infer<typeof TokenView>;

export const CreateTokenRequest = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9 _.@-]{1,64}$/, 'a token name is 1–64 characters of letters, digits, space, _ . @ or -'),
  scope: ScopeSchema,
}).meta({ examples: [{ name: 'phone', scope: 'approve' }] });

export const CreateTokenResult = z.strictObject({
  token: z.string().meta({ description: 'the secret; shown only in this answer' }),
  record: TokenView,
});
export const TokenList = z.strictObject({ tokens: z.array(TokenView) });
export const TokenParams = z.strictObject({ id: Id });
export const RevokeTokenResult = z.strictObject({ id: Id, revoked: z.literal(true) });

/** `POST /api/v1/ws-ticket`: a single-use ticket for a browser's WebSocket upgrade. */
export const WsTicket = z.strictObject({
  ticket: z.string(),
  protocols: z.array(z.string()).meta({ description: 'pass these as the WebSocket subprotocols' }),
  expires_at: EpochMs,
});

/** `GET /api/v1/health`. */
export const Health = z.strictObject({ status: z.literal('ok'), version: z.string(), protocol_version: z.number().int().positive(), node: NodeName.optional() });
