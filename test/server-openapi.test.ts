/**
 * The served OpenAPI document matches what the server accepts: it lists exactly the route
 * table, and for every route the server accepts a request built from the document's own
 * examples and refuses one that violates the document's schema.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LIST, toOpenApiPath, type RouteDef } from '../src/protocol/index.js';
import { KNOWN_APPROVAL, KNOWN_SESSION, startTestServer, type TestServer } from './helpers/api-server.js';

let t: TestServer;
let doc: any;
beforeAll(async () => {
  t = await startTestServer({
    handlers: {
      ...(await import('./helpers/api-server.js')).fixtureHandlers(),
      events: (_input, _ctx, sink) => {
        sink.send({ type: 'session.removed', seq: 1, at: 1, session_id: KNOWN_SESSION });
        return () => {};
      },
    },
    rateLimit: { burst: 1000, perSecond: 1000 },
  });
  doc = await (await t.api('/api/v1/openapi.json')).json();
});
afterAll(async () => { await t.server.close(); });

/** A concrete path for `route`: known ids, so the handler answers success. */
function concretePath(route: RouteDef): string {
  const ids: Record<string, string> = {
    id: route.path.includes('/approvals/') ? KNOWN_APPROVAL : route.path.includes('/tokens/') ? t.tokens.create({ name: 'x', scope: 'read' }).record.id : KNOWN_SESSION,
    control_id: 'approve',
    name: 'greeting',
  };
  return route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => ids[name]!);
}

function operation(route: RouteDef): any {
  return doc.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
}

function exampleBody(route: RouteDef): any {
  return operation(route).requestBody?.content['application/json'].schema.examples?.[0];
}

function call(route: RouteDef, body?: unknown, query = ''): Promise<Response> {
  return t.api(concretePath(route) + query, { method: route.method, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** fetch cannot send a GET with a body; node:http can (with an explicit length: it does not chunk a GET). */
function rawCall(route: RouteDef, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.url}${concretePath(route)}`, {
      method: route.method,
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the OpenAPI document', () => {
  it('is served and lists exactly the routes of the table, with their scopes', () => {
    expect(doc.openapi).toBe('3.1.0');
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops as object).map(([m, op]) => `${m.toUpperCase()} ${path} ${op['x-scope']}`));
    expect(listed.sort()).toEqual(ROUTE_LIST.map((r) => `${r.method} ${toOpenApiPath(r.path)} ${r.scope}`).sort());
  });

  it('gives every body an example', () => {
    for (const route of ROUTE_LIST.filter((r) => operation(r).requestBody)) expect(exampleBody(route), route.id).toBeDefined();
  });
});

describe.each(ROUTE_LIST.map((r) => [r.id, r] as const))('%s', (_id, route) => {
  it('accepts a request built from the document', async () => {
    const controller = new AbortController();
    // The pairing example's code is a shape, not a live code: redeem a fresh one instead.
    const body = route.id === 'pair' ? { code: t.server.createPairing({ deviceName: 'doc', scope: 'read' }).code } : exampleBody(route);
    const res = await t.api(concretePath(route), { method: route.method, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal });
    expect(res.status, await (route.stream ? Promise.resolve('') : res.clone().text())).toBe(route.status ?? 200);
    const contentType = Object.keys(operation(route).responses[String(route.status ?? 200)].content)[0];
    expect(res.headers.get('content-type')).toBe(contentType);
    controller.abort();
  });

  it('refuses a body that violates the document', async () => {
    const schema = operation(route).requestBody?.content['application/json'].schema;
    if (!schema) {
      const res = await rawCall(route, JSON.stringify({ unexpected: true }));
      expect(res.status).toBe(422);
      expect(JSON.parse(res.body).code).toBe('BODY_NOT_EXPECTED');
      return;
    }
    const extra = await call(route, { ...exampleBody(route), unexpected_field: 1 });
    expect(extra.status).toBe(422);
    expect((await extra.json()).errors).toContainEqual(expect.objectContaining({ path: '', code: 'unrecognized_keys' }));
    const [required] = (schema.required ?? []) as string[];
    if (required) {
      // null: no required request field is nullable, whatever its type or union.
      const res = await call(route, { ...exampleBody(route), [required]: null });
      expect(res.status).toBe(422);
      expect((await res.json()).errors).toContainEqual(expect.objectContaining({ path: `/${required}` }));
    }
  });

  it('refuses a query parameter the document does not list', async () => {
    const listed = (operation(route).parameters as any[]).filter((p) => p.in === 'query').map((p) => p.name);
    expect(listed).not.toContain('undocumented');
    const res = await call(route, exampleBody(route), '?undocumented=1');
    expect(res.status).toBe(422);
  });
});

describe('docs/protocol.md', () => {
  it('lists every route of the table with its scope, and no other', async () => {
    const fs = await import('node:fs');
    const text = fs.readFileSync(new URL('../docs/protocol.md', import.meta.url), 'utf8');
    const documented = [...text.matchAll(/^\| `(GET|POST|PUT|DELETE)` \| `([^`]+)` \| (\w+) \|/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(documented.sort()).toEqual(ROUTE_LIST.map((r) => `${r.method} ${r.path} ${r.scope}`).sort());
  });
});
