/**
 * The typed wire protocol of the specterm daemon: the only thing that crosses the wire.
 * The server, the CLI client and the dashboard import it. Pure: no Node APIs, no I/O.
 * @module
 */
/** Version and endpoints. */
export * from './version.js';
/** Scopes and their order. */
export * from './scopes.js';
/** Shared schemas and the problem document. */
export * from './common.js';
/** Resources. */
export * from './sessions.js';
export * from './approvals.js';
export * from './events.js';
export * from './tokens.js';
export * from './pairing.js';
export * from './images.js';
export * from './push.js';
export * from './debug.js';
export * from './recordings.js';
export * from './spec-edit.js';
export * from './transcripts.js';
/** The WebSocket messages and binary terminal frames. */
export * from './ws.js';
export * from './terminal-frame.js';
/** The route table and the OpenAPI document generated from it. */
export * from './route-def.js';
export * from './routes.js';
export * from './openapi.js';

/** Refusal codes (the one code → HTTP status table) and the one error base. */
export * from './error-codes.js';
export * from './node.js';
export * from './tasks.js';
export * from './coded-error.js';
