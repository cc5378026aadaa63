/**
 * The daemon's HTTP + WebSocket edge: the transports of the operations layer (src/ops).
 * Entry point of src/server for the rest of specterm.
 * @module
 */
export { createApiServer, isLoopback, ServerConfigError, type ApiServer, type ApiServerOptions } from './api-server.js';
export { ADMIN_PRINCIPAL, clearSessionCookie, sessionCookie, type Principal, type TokenRecord, type TokenStore } from './auth.js';
export { ensureAdminToken, generateSecret } from './admin-token.js';
export type { AuditEntry, RequestContext, RouteHandler, RouteHandlers, SseHandler, SseSink, TopicSubscription, WsHandlers, WsSink } from '../ops/contracts.js';
export { PairingCodes, type IssuedPairing, type PairingGrant } from './pairing.js';
export { pairingUrl } from './pairing-routes.js';
export { renderQrForTerminal } from './pairing-qr.js';
export { ensurePrivateDir, PrivatePathError, resolveRuntimeDir, resolveStateDir } from './paths.js';
export { toProblem } from './problem.js';
