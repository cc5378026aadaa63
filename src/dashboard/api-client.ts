/**
 * The dashboard's typed API client: one `call(routeId, input)` over the protocol's route table
 * (paths, methods and schemas come from `ROUTES`, nowhere else), with the session cookie
 * (same origin), answers checked against the route's response schema, and every refusal as an
 * `ApiProblem` carrying the server's stable code and its advice in a person's words (no routes,
 * no JSON pointers: problem-text.ts).
 * @module
 */
import type { z } from 'zod';
import { ROUTES, type Routes, type RouteId } from '../protocol/routes.js';
import { toPersonText } from './problem-text.js';

/** A refusal: the server's problem document, or a network/format failure with its own code. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole problem document (its extension members, e.g. a stale approval's `current` modal). */
  readonly body: Readonly<Record<string, unknown>>;

  constructor(status: number, code: string, detail: string, body: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

type Schema<K extends RouteId, F extends 'params' | 'query' | 'body'> = z.input<NonNullable<Routes[K][F]>>;

export interface CallInput<K extends RouteId> {
  params?: Schema<K, 'params'>;
  query?: Schema<K, 'query'>;
  body?: Schema<K, 'body'>;
  signal?: AbortSignal;
}

export type CallOutput<K extends RouteId> = z.output<Routes[K]['response']>;

/** The request path of route `id` with its `:name` segments filled from `params`. */
export function routePath(id: RouteId, params: Record<string, unknown> = {}, query: Record<string, unknown> = {}): string {
  const path = ROUTES[id].path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();
  return search ? `${path}?${search}` : path;
}

/** Calls route `id`; resolves with its validated answer, rejects with an `ApiProblem`. */
export async function call<K extends RouteId>(id: K, input: CallInput<K> = {}): Promise<CallOutput<K>> {
  const route = ROUTES[id];
  let res: Response;
  try {
    res = await fetch(routePath(id, input.params as Record<string, unknown>, input.query as Record<string, unknown>), {
      method: route.method,
      credentials: 'same-origin',
      headers: input.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal: input.signal,
    });
  } catch (error) {
    throw new ApiProblem(0, 'NETWORK', `the daemon did not answer (${(error as Error).message}); is \`specterm serve\` still running?`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiProblem(res.status, 'RESPONSE_NOT_JSON', `the daemon answered ${res.status} with something that is not JSON; is a proxy in between?`);
  }
  if (!res.ok) {
    const problem = (typeof json === 'object' && json !== null ? json : {}) as { code?: string; detail?: string };
    throw new ApiProblem(res.status, problem.code ?? `HTTP_${res.status}`, problem.detail ? toPersonText(problem.detail) : `the daemon refused with HTTP ${res.status}`, problem);
  }
  const checked = route.response.safeParse(json);
  if (!checked.success) throw new ApiProblem(res.status, 'RESPONSE_INVALID', 'the daemon answered in a form this page does not know: the daemon and the dashboard are different versions; reload the page');
  return checked.data as CallOutput<K>;
}
