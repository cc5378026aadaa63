/**
 * What the server does with a connection before any request on it is answered: a cap on
 * concurrent connections (each holds a file descriptor; beyond the cap a new one is answered
 * `503 TOO_MANY_CONNECTIONS` and closed), the answer to a request the HTTP parser gave up on
 * (headers too slow: `408 REQUEST_TIMEOUT`; too large: `431`; malformed: `400`), and the raw
 * problem answer both use (also a refused WebSocket upgrade's).
 * @module
 */
import http from 'node:http';
import type net from 'node:net';
import { SpectermError } from '../protocol/index.js';
import { toProblem, type ProblemResponse } from './problem.js';

/**
 * Connections served at once (256): a dashboard tab holds a WebSocket and a few keep-alive
 * requests, a CLI call one; this leaves most of the usual 1024 open-file limit to the PTY
 * host's sockets, the database and the files the daemon reads.
 */
export const DEFAULT_MAX_CONNECTIONS = 256;

/** How long a refused connection may stay open for its answer to be read (1 s). */
const REFUSED_LINGER_MS = 1_000;

/** Answers `problem` on a raw socket (a refused upgrade or connection) and closes it. */
export function answerRaw(socket: net.Socket, problem: ProblemResponse): void {
  const body = JSON.stringify(problem.body);
  const headers = Object.entries({ ...problem.headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`).join('\r\n');
  socket.end(`HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status] ?? ''}\r\n${headers}\r\n\r\n${body}`);
}

/**
 * Caps `server`'s open connections at `max`. Returns whether a socket was refused (its
 * requests and upgrades must then be left unanswered: the refusal is its answer). Over TLS the
 * refusal cannot be said before the handshake: such a connection is closed without a word.
 */
export function capConnections(server: net.Server, options: { max: number; secure: boolean }): (socket: net.Socket) => boolean {
  const refused = new WeakSet<net.Socket>();
  let open = 0;
  // Before the HTTP server's own listener: a refused socket never gets a request read as its own.
  server.prependListener('connection', (socket: net.Socket) => {
    open += 1;
    socket.once('close', () => { open -= 1; });
    if (open <= options.max) return;
    refused.add(socket);
    if (options.secure) return void socket.destroy();
    socket.on('error', () => {});
    answerRaw(socket, toProblem(new SpectermError({
      code: 'TOO_MANY_CONNECTIONS', title: 'Too many connections',
      detail: `the daemon serves at most ${options.max} connections at once; close idle clients (dashboard tabs, scripts) or retry in a moment`,
      retryAfterSeconds: 1,
    }), '/'));
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  });
  return (socket) => refused.has(socket);
}

/** The answer to a request the HTTP parser refused (the server's 'clientError'), then the socket closes. */
export function answerClientError(error: Error & { code?: string }, socket: net.Socket, headersTimeoutMs: number): void {
  if (!socket.writable || (socket as net.Socket & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const refusal = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? new SpectermError({ code: 'REQUEST_TIMEOUT', title: 'Request too slow', detail: `the request's headers must arrive within ${headersTimeoutMs / 1000} s (the whole request within its timeout); send it at once` })
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? new SpectermError({ code: 'HEADERS_TOO_LARGE', title: 'Request headers too large', detail: 'the request headers are over the server\'s limit; send fewer or smaller headers' })
      : new SpectermError({ code: 'REQUEST_MALFORMED', title: 'Malformed request', detail: 'the request is not valid HTTP/1.1; check the client' });
  answerRaw(socket, toProblem(refusal, '/'));
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}
