/**
 * Reading a request body: JSON only (a `text/plain` or form POST is how cross-site pages slip
 * past CORS preflight, so it is refused: 415), bounded in size (413, checked on the declared
 * length and again while reading), and malformed JSON answered with its position (400).
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { SpectermError } from '../protocol/index.js';
import { jsonErrorOffset } from './json-position.js';

/** Whether a Content-Type header declares JSON (`application/json`, any `+json`, optional charset utf-8). */
function isJson(contentType: string): boolean {
  const [type, ...params] = contentType.toLowerCase().split(';').map((s) => s.trim());
  if (!/^application\/([a-z0-9.-]+\+)?json$/.test(type!)) return false;
  return params.every((p) => !p.startsWith('charset=') || p === 'charset=utf-8');
}

function tooLarge(limitBytes: number): SpectermError {
  return new SpectermError({
    code: 'BODY_TOO_LARGE', title: 'Request body too large',
    detail: `the body exceeds the limit of ${limitBytes} bytes; send less (long text can be sent in several messages)`,
  });
}

/** Reads and parses the body; `undefined` when there is none. */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = req.headers['content-length'];
  const contentType = req.headers['content-type'];
  const hasBody = (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (contentType !== undefined && !isJson(contentType)) {
    req.resume();
    throw new SpectermError({
      code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Only JSON bodies are accepted',
      detail: `Content-Type '${contentType}' is refused (cross-site form and text/plain posts are a CSRF vector); send 'Content-Type: application/json'`,
    });
  }
  if (!hasBody) return undefined;
  if (contentType === undefined) {
    req.resume();
    throw new SpectermError({
      code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Only JSON bodies are accepted',
      detail: "a body without a Content-Type is refused; send 'Content-Type: application/json'",
    });
  }
  if (declared !== undefined && Number(declared) > limitBytes) {
    req.resume();
    throw tooLarge(limitBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limitBytes) {
      req.resume();
      throw tooLarge(limitBytes);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  return parseJson(text);
}

/** Parses JSON or throws a 400 naming where it broke (offset, line and column). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const position = jsonErrorOffset(text);
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    // Our own words, not V8's message: that quotes a slice of the body, which may hold a secret.
    const found = position < text.length ? `unexpected ${JSON.stringify(text[position])}` : 'the text ends too early';
    throw new SpectermError({
      code: 'BODY_MALFORMED_JSON', title: 'The body is not valid JSON',
      detail: `the body is not valid JSON at position ${position} (line ${line}, column ${column}): ${found}`,
      errors: [{ path: '', code: 'malformed_json', message: `invalid JSON at position ${position} (line ${line}, column ${column})` }],
      extensions: { position, line, column },
    });
  }
}
