/**
 * The OpenAPI 3.1 document, generated from the route table (zod 4's `toJSONSchema` emits the
 * JSON Schema 2020-12 that OpenAPI 3.1 uses). Pure: a value in, a value out.
 * @module
 */
import { z } from 'zod';
import { Problem } from './common.js';
import type { RouteDef } from './route-def.js';
import { ROUTE_LIST } from './routes.js';
import { PROTOCOL_VERSION, SESSION_COOKIE } from './version.js';

type JsonSchema = Record<string, unknown>;

function schemaOf(type: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(type, { io, unrepresentable: 'any' }) as JsonSchema;
  return schema;
}

/** `/api/v1/sessions/:id` → `/api/v1/sessions/{id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function parametersOf(route: RouteDef): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, type] of [['path', route.params], ['query', route.query]] as const) {
    if (!type) continue;
    const schema = schemaOf(type, 'input');
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
    }
  }
  return out;
}

const PROBLEM_RESPONSE = { description: 'An RFC 9457 problem', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

function operationOf(route: RouteDef): JsonSchema {
  const status = String(route.status ?? 200);
  const contentType = route.stream === 'sse' ? 'text/event-stream' : 'application/json';
  const op: JsonSchema = {
    operationId: route.id,
    summary: route.summary,
    'x-scope': route.scope,
    security: route.public ? [] : [{ bearer: [] }, { cookie: [] }],
    parameters: parametersOf(route),
    responses: {
      [status]: { description: route.summary, content: { [contentType]: { schema: schemaOf(route.response, 'output') } } },
      default: PROBLEM_RESPONSE,
    },
  };
  if (route.keystrokes) op['x-keystrokes'] = true;
  if (route.body) op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } };
  return op;
}

/** Builds the OpenAPI 3.1 document of `routes` (the whole table by default). */
export function buildOpenApiDocument(options: { version: string; routes?: readonly RouteDef[] }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of options.routes ?? ROUTE_LIST) {
    (paths[toOpenApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'specterm daemon API', version: options.version, 'x-protocol-version': PROTOCOL_VERSION },
    paths,
    components: {
      schemas: { Problem: schemaOf(Problem, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'a device or admin token; never in the URL' },
        cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'HttpOnly, SameSite=Strict dashboard session' },
      },
    },
  };
}
