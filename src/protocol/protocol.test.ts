import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, toOpenApiPath } from './openapi.js';
import { ROUTE_LIST } from './routes.js';
import { decodeTerminalFrame, encodeTerminalFrame } from './terminal-frame.js';
import { ClientMessage } from './ws.js';
import { Id } from './common.js';
import { NODE_NAME_PATTERN } from './node.js';
import { RecordingParams } from './recordings.js';

describe('route table', () => {
  it('gives every route a unique id and a unique method + path', () => {
    expect(new Set(ROUTE_LIST.map((r) => r.id)).size).toBe(ROUTE_LIST.length);
    expect(new Set(ROUTE_LIST.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTE_LIST.length);
  });

  it('declares a params schema naming exactly the path segments of each route', () => {
    for (const route of ROUTE_LIST) {
      const segments = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]).sort();
      const declared = route.params ? Object.keys((route.params as z.ZodObject).shape).sort() : [];
      expect(declared, route.id).toEqual(segments);
    }
  });

  it('gives every body schema an example that the schema itself accepts', () => {
    for (const route of ROUTE_LIST.filter((r) => r.body)) {
      const examples = z.toJSONSchema(route.body!, { io: 'input' }).examples as unknown[] | undefined;
      expect(examples?.length, route.id).toBeGreaterThan(0);
      for (const example of examples!) expect(route.body!.safeParse(example).success, route.id).toBe(true);
    }
  });
});

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument({ version: '9.9.9' }) as any;

  it('is an OpenAPI 3.1 document listing exactly the routes of the table', () => {
    expect(doc.openapi).toBe('3.1.0');
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual(ROUTE_LIST.map((r) => `${r.method} ${toOpenApiPath(r.path)}`).sort());
  });

  it('carries each route scope and marks keystroke routes', () => {
    for (const route of ROUTE_LIST) {
      const op = doc.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
      expect(op['x-scope']).toBe(route.scope);
      expect(op['x-keystrokes'] === true).toBe(route.keystrokes === true);
    }
  });

  it('declares path parameters as required', () => {
    const op = doc.paths['/api/v1/sessions/{id}/controls/{control_id}'].post;
    expect(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => [p.name, p.required])).toEqual([['id', true], ['control_id', true]]);
  });
});

describe('ids across a fleet', () => {
  it('take a fleet id whose node name is as long as a node name may be', () => {
    const node = `n${'0'.repeat(62)}`;
    expect(NODE_NAME_PATTERN.test(node)).toBe(true);
    expect(Id.safeParse(`${node}_s_7f3a9c2b`).success).toBe(true);
    expect(RecordingParams.safeParse({ name: `${node}_${'r'.repeat(64)}` }).success).toBe(true);
    expect(Id.safeParse('x'.repeat(129)).success).toBe(false);
    expect(Id.safeParse('s_7f/3a').success).toBe(false);
  });
});

describe('terminal frames', () => {
  it('decode to what was encoded', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.nat(), fc.uint8Array({ maxLength: 200 }), (sessionId, seq, data) => {
      const decoded = decodeTerminalFrame(encodeTerminalFrame({ sessionId, seq, data }));
      expect(decoded).toEqual({ sessionId, seq, data });
    }));
  });

  it('refuse a frame too short to hold its header', () => {
    expect(decodeTerminalFrame(new Uint8Array([0, 0, 0]))).toBeNull();
    expect(decodeTerminalFrame(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 5, 65]))).toBeNull();
  });
});

describe('ClientMessage', () => {
  it('refuses an unknown topic and names the field', () => {
    const result = ClientMessage.safeParse({ type: 'subscribe', topic: 'secrets' });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['topic']);
  });
});
