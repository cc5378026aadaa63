/**
 * The shape of one route of the table: what the server validates and the OpenAPI document says.
 * @module
 */
import type { z } from 'zod';
import type { Scope } from './scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One HTTP route. Paths use `:name` segments; each must appear in `params`. */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** Stable operation id (the OpenAPI `operationId` and the handler's key). */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The least scope a token needs. */
  readonly scope: Scope;
  readonly summary: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly response: R;
  /** The success status (200 unless said). */
  readonly status?: number;
  /** `sse`: the answer is a `text/event-stream` of `response` items. */
  readonly stream?: 'sse';
  /** No credential needed (pairing: the request body is the credential). Host/Origin still apply. */
  readonly public?: boolean;
  /** It types into an agent: rate-limited and audited. */
  readonly keystrokes?: boolean;
}

/** Keeps each route's schema types (for typed handlers) while checking the shape. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  route: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return route;
}
