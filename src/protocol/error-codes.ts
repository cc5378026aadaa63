/**
 * THE table of refusal codes: every error any transport answers carries one of these codes,
 * and this table gives its HTTP status and default title — the one place a code meets HTTP.
 * WebSocket, SSE, NATS and MCP answer the code and detail (the status only sorts a refusal
 * from a failure). docs/protocol.md has a line per code.
 * @module
 */

interface CodeInfo { readonly status: number; readonly title: string }

const code = (status: number, title: string): CodeInfo => ({ status, title });

export const ERROR_CODES = {
  // The request itself (any transport)
  URL_INVALID: code(400, 'Invalid request target'),
  REQUEST_MALFORMED: code(400, 'Malformed request'),
  REQUEST_TIMEOUT: code(408, 'Request too slow'),
  HEADERS_TOO_LARGE: code(431, 'Request headers too large'),
  BODY_MALFORMED_JSON: code(400, 'The body is not valid JSON'),
  BODY_TOO_LARGE: code(413, 'Request body too large'),
  BODY_NOT_EXPECTED: code(422, 'This route takes no body'),
  UNSUPPORTED_MEDIA_TYPE: code(415, 'Only JSON bodies are accepted'),
  VALIDATION_FAILED: code(422, 'The request does not match the schema'),
  LAST_EVENT_ID_INVALID: code(400, 'Invalid Last-Event-ID'),
  ROUTE_NOT_FOUND: code(404, 'No such route'),
  OPERATION_UNKNOWN: code(404, 'No such operation'),
  METHOD_NOT_ALLOWED: code(405, 'Method not allowed'),
  FILE_NOT_FOUND: code(404, 'No such file'),
  NOT_IMPLEMENTED: code(501, 'Not served by this daemon'),
  INTERNAL: code(500, 'Internal error'),
  STORAGE_FULL: code(507, 'No space left to store it'),
  TOO_MANY_CONNECTIONS: code(503, 'Too many connections'),
  // A hub's fleet (docs/fleet.md)
  NODE_UNKNOWN: code(422, 'Unknown node'),
  NODE_UNREACHABLE: code(503, 'The node does not answer'),
  // Who is asking
  HOST_NOT_ALLOWED: code(421, 'Misdirected request: unknown Host'),
  ORIGIN_NOT_ALLOWED: code(403, 'Origin not allowed'),
  TOKEN_IN_URL: code(400, 'Credentials are not accepted in the URL'),
  AUTH_REQUIRED: code(401, 'Authentication required'),
  AUTH_INVALID: code(401, 'Invalid token'),
  AUTH_MALFORMED: code(401, 'Malformed Authorization header'),
  AUTH_LOCKED_OUT: code(429, 'Too many failed authentications'),
  AUTH_THROTTLED: code(429, 'Too many failed authentications'),
  SCOPE_INSUFFICIENT: code(403, 'The token lacks the scope'),
  RATE_LIMITED: code(429, 'Too many commands'),
  TOKEN_NOT_FOUND: code(404, 'Unknown token'),
  PAIRING_CODE_UNKNOWN: code(401, 'Unknown pairing code'),
  PAIRING_CODE_EXPIRED: code(410, 'Pairing code expired'),
  PAIRING_CODE_USED: code(410, 'Pairing code already used'),
  // Live channels (WebSocket topics)
  WS_BINARY_REFUSED: code(400, 'Binary frames are refused'),
  ALREADY_SUBSCRIBED: code(409, 'Already subscribed'),
  NOT_SUBSCRIBED: code(404, 'Not subscribed'),
  TOO_MANY_SUBSCRIPTIONS: code(429, 'Too many subscriptions'),
  TOPIC_UNAVAILABLE: code(404, 'Unknown topic'),
  ACK_BEYOND_SENT: code(400, 'Ack beyond what was sent'),
  TERMINAL_SESSION_NOT_FOUND: code(404, 'Unknown session'),
  TERMINAL_BAD_TOPIC: code(400, 'Not a terminal topic'),
  LEASE_NOT_HELD: code(409, 'Resize needs the controller lease'),
  LEASE_NEEDS_SUBSCRIPTION: code(409, 'Lease needs a terminal subscription'),
  TERMINAL_RESIZE_REFUSED: code(409, 'Resize refused'),
  TERMINAL_INPUT_REFUSED: code(409, 'Input refused'),
  // Sessions
  SESSION_NOT_FOUND: code(404, 'Unknown session'),
  SESSION_AMBIGUOUS: code(409, 'More than one session has that name'),
  SESSION_LIMIT_REACHED: code(429, 'Session limit reached'),
  SESSION_NOT_RUNNING: code(409, 'The agent is not running'),
  SESSION_RUNNING: code(409, 'The agent is running'),
  SESSION_NOT_RESUMABLE: code(409, 'The session cannot be resumed'),
  SPEC_NOT_FOUND: code(422, 'Unknown spec'),
  SPEC_PATH_NOT_ALLOWED: code(422, 'The spec path is not allowed'),
  SPEC_INVALID: code(422, 'The spec has errors'),
  CWD_NOT_FOUND: code(422, 'The working directory does not exist'),
  NAME_TAKEN: code(409, 'The name is taken'),
  COMMAND_REFUSED: code(409, 'The request cannot be carried out'),
  HOST_FAILED: code(502, 'The PTY host failed'),
  WORKTREE_FAILED: code(422, 'The worktree could not be made'),
  WORKTREE_DIRTY: code(409, 'The worktree has uncommitted changes'),
  EXPLAIN_OUT_OF_RANGE: code(422, 'No state at that time'),
  SETTINGS_INVALID: code(422, 'The settings file is invalid'),
  ENV_UNSEALABLE: code(500, 'The environment cannot be sealed'),
  // Approvals
  APPROVAL_NOT_FOUND: code(404, 'Unknown approval'),
  APPROVAL_STALE: code(409, 'The approval is stale'),
  APPROVAL_BUTTON_UNKNOWN: code(422, 'No such button'),
  APPROVAL_CLAIMED: code(409, 'The approval is being answered'),
  APPROVAL_POLICY_INVALID: code(422, 'Invalid approval policy'),
  // Agents handing work to agents (docs/mcp.md, "Safety")
  TASK_NOT_FOUND: code(404, 'Unknown task'),
  SELF_TARGET: code(409, 'An agent cannot do that to its own session'),
  HANDOFF_TOO_DEEP: code(409, 'The chain of handoffs is too deep'),
  HANDOFF_FAN_OUT: code(429, 'Too many child sessions'),
  HANDOFF_CYCLE: code(409, 'The worker waits on the caller'),
  AGENT_ANSWER_REFUSED: code(403, 'Prompts of that session go to a person'),
  CALLER_INVALID: code(400, 'Invalid calling session'),
  // Recordings
  RECORDING_NOT_FOUND: code(404, 'Unknown recording'),
  RECORDING_ACTIVE: code(409, 'Already recording'),
  NOT_RECORDING: code(409, 'Not recording'),
  RECORDING_NAME_TAKEN: code(409, 'Recording name taken'),
  RECORDING_UNREADABLE: code(422, 'Unreadable recording'),
  RECORDING_NAME_INVALID: code(422, 'Invalid recording name'),
  RECORDING_AT_OUT_OF_RANGE: code(422, 'Instant out of range'),
  // Notifications
  PUSH_ENDPOINT_REFUSED: code(422, 'Push endpoint refused'),
  // Terminals over NATS (docs/fleet.md)
  SUBSCRIBER_TOO_SLOW: code(429, 'Subscriber too slow'),
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The HTTP status a code is answered with. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** Whether a code is the caller's to fix (a refusal) rather than the daemon's failure. */
export function isRefusal(code: ErrorCode): boolean {
  return ERROR_CODES[code].status < 500;
}
