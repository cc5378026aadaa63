/**
 * The wire protocol's version. Bump it on any incompatible change to a schema in this folder;
 * additive optional fields do not need a bump. The HTTP prefix carries the major version.
 * @module
 */

/** The protocol version the server speaks and `GET /api/v1/health` reports. */
export const PROTOCOL_VERSION = 1;

/** Every HTTP route lives under this prefix. */
export const API_PREFIX = '/api/v1';

/** The WebSocket endpoint. */
export const WS_PATH = `${API_PREFIX}/ws`;

/** The WebSocket subprotocol the server selects; a client must offer it. */
export const WS_SUBPROTOCOL = `specterm.v${PROTOCOL_VERSION}`;

/**
 * Prefix of the second subprotocol a browser offers to hand over a single-use ticket
 * (`specterm.ticket.<ticket>`): browsers cannot set an Authorization header on a WebSocket,
 * and the URL is not an option (it ends up in logs and history).
 */
export const WS_TICKET_PROTOCOL_PREFIX = 'specterm.ticket.';

/** The session cookie a dashboard authenticates with (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'specterm_session';

/**
 * The header naming the agent session a call is made for (`specterm mcp` inside an agent sets it
 * from SPECTERM_SESSION_ID): the daemon applies the rules for agents (never its own session,
 * the orchestration limits, prompts of other sessions left to a person) and audits it.
 */
export const CALLER_SESSION_HEADER = 'x-specterm-caller-session';
