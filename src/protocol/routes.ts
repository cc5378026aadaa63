/**
 * THE route table: the server validates by it, the OpenAPI document is generated from it,
 * and clients import it for paths and types. Add a route here and nowhere else.
 * @module
 */
import { z } from 'zod';
import { Ok } from './common.js';
import { AnswerApprovalRequest, AnswerApprovalResult, ApprovalList, ApprovalParams } from './approvals.js';
import { DaemonEvent, EventsQuery } from './events.js';
import { DebugMoments, LiveDebug, SpecGraph } from './debug.js';
import { RecordingCast, RecordingExplain, RecordingExplainQuery, RecordingInfo, RecordingList, RecordingParams, RecordingTimeline, StartRecordingRequest } from './recordings.js';
import { defineRoute, type RouteDef } from './route-def.js';
import { ConditionPreview, PreviewConditionRequest, SaveSpecRequest, SessionSpec, SpecJsonSchema, SpecList, SpecSaved, SpecValidation, ValidateSpecRequest } from './spec-edit.js';
import {
  ControlParams, ControlRequest, CreateSessionRequest, DebugView, Explain, ExplainQuery, HistoryPage, HistoryQuery,
  KeysRequest, KeysResult, MessageOutcome, RemoveSessionQuery, ResizeRequest, ResizeResult, Screen, ScreenQuery,
  SendMessageRequest, SessionDetail, SessionList, SessionParams, MuteSessionRequest,
} from './sessions.js';
import { CreatePairingRequest, Pairing, PairRequest, PairResult, SignOutResult } from './pairing.js';
import { AttachImageRequest, AttachImageResult } from './images.js';
import { CreateTokenRequest, CreateTokenResult, Health, RevokeTokenResult, TokenList, TokenParams, WsTicket } from './tokens.js';
import { PushKey, PushSubscribeRequest, PushSubscriptionList, PushSubscriptionView, PushUnsubscribeRequest, PushUnsubscribeResult } from './push.js';
import { API_PREFIX } from './version.js';
import { SearchQuery, SearchResult, SessionTranscript, TranscriptQuery } from './transcripts.js';
import { CreateTaskRequest, Task, TaskList, TaskParams } from './tasks.js';

const S = `${API_PREFIX}/sessions/:id`;
const OpenApiDocument = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

export const ROUTES = {
  health: defineRoute({ id: 'health', method: 'GET', path: `${API_PREFIX}/health`, scope: 'read', summary: 'Daemon version and protocol version', response: Health }),
  openapi: defineRoute({ id: 'openapi', method: 'GET', path: `${API_PREFIX}/openapi.json`, scope: 'read', summary: 'This API as an OpenAPI 3.1 document', response: OpenApiDocument }),
  listSessions: defineRoute({ id: 'listSessions', method: 'GET', path: `${API_PREFIX}/sessions`, scope: 'read', summary: 'Every session, running and exited', response: SessionList }),
  createSession: defineRoute({ id: 'createSession', method: 'POST', path: `${API_PREFIX}/sessions`, scope: 'input', summary: 'Start an agent session', body: CreateSessionRequest, response: SessionDetail, status: 201 }),
  getSession: defineRoute({ id: 'getSession', method: 'GET', path: S, scope: 'read', summary: 'One session: state, modal, controls, spec, pid, times', params: SessionParams, response: SessionDetail }),
  removeSession: defineRoute({ id: 'removeSession', method: 'DELETE', path: S, scope: 'input', summary: 'Kill (if running) and remove a session; a dirty worktree needs force=true', params: SessionParams, query: RemoveSessionQuery, response: Ok }),
  killSession: defineRoute({ id: 'killSession', method: 'POST', path: `${S}/kill`, scope: 'input', summary: 'Kill the agent; the session stays listed as exited', params: SessionParams, response: SessionDetail }),
  restartSession: defineRoute({ id: 'restartSession', method: 'POST', path: `${S}/restart`, scope: 'input', summary: 'Restart the agent with the same spec, cwd, args and env', params: SessionParams, response: SessionDetail, keystrokes: true }),
  sendMessage: defineRoute({ id: 'sendMessage', method: 'POST', path: `${S}/messages`, scope: 'input', summary: 'Type a message; answers the delivery outcome', params: SessionParams, body: SendMessageRequest, response: MessageOutcome, keystrokes: true }),
  getScreen: defineRoute({ id: 'getScreen', method: 'GET', path: `${S}/screen`, scope: 'read', summary: 'The screen as text (or ANSI), cursor and title', params: SessionParams, query: ScreenQuery, response: Screen }),
  sendKeys: defineRoute({ id: 'sendKeys', method: 'POST', path: `${S}/keys`, scope: 'input', summary: 'Write raw input to the PTY', params: SessionParams, body: KeysRequest, response: KeysResult, keystrokes: true }),
  resizeSession: defineRoute({ id: 'resizeSession', method: 'POST', path: `${S}/resize`, scope: 'input', summary: 'Resize the terminal', params: SessionParams, body: ResizeRequest, response: ResizeResult }),
  muteSession: defineRoute({ id: 'muteSession', method: 'PUT', path: `${S}/mute`, scope: 'approve', summary: 'Mute or unmute a session\'s notifications (toast, push, desktop, webhook); its approvals stay listed', params: SessionParams, body: MuteSessionRequest, response: SessionDetail }),
  pressControl: defineRoute({ id: 'pressControl', method: 'POST', path: `${S}/controls/:control_id`, scope: 'input', summary: 'Press a spec control', params: ControlParams, body: ControlRequest, response: Ok, keystrokes: true }),
  getHistory: defineRoute({ id: 'getHistory', method: 'GET', path: `${S}/history`, scope: 'read', summary: 'State changes, newest first, paged', params: SessionParams, query: HistoryQuery, response: HistoryPage }),
  getDebug: defineRoute({ id: 'getDebug', method: 'GET', path: `${S}/debug`, scope: 'read', summary: 'The live FSM debug view', params: SessionParams, response: DebugView }),
  explainState: defineRoute({ id: 'explainState', method: 'GET', path: `${S}/explain`, scope: 'read', summary: 'Why the state at a time is what it is', params: SessionParams, query: ExplainQuery, response: Explain }),
  listApprovals: defineRoute({ id: 'listApprovals', method: 'GET', path: `${API_PREFIX}/approvals`, scope: 'read', summary: 'Pending approvals across all sessions', response: ApprovalList }),
  answerApproval: defineRoute({ id: 'answerApproval', method: 'POST', path: `${API_PREFIX}/approvals/:id`, scope: 'approve', summary: 'Answer an approval; 409 with the current modal when stale', params: ApprovalParams, body: AnswerApprovalRequest, response: AnswerApprovalResult, keystrokes: true }),
  events: defineRoute({ id: 'events', method: 'GET', path: `${API_PREFIX}/events`, scope: 'read', summary: 'Server-sent events; resume with Last-Event-ID', query: EventsQuery, response: DaemonEvent, stream: 'sse' }),
  createWsTicket: defineRoute({ id: 'createWsTicket', method: 'POST', path: `${API_PREFIX}/ws-ticket`, scope: 'read', summary: 'A single-use, short-lived ticket for a WebSocket upgrade', response: WsTicket }),
  listTokens: defineRoute({ id: 'listTokens', method: 'GET', path: `${API_PREFIX}/tokens`, scope: 'admin', summary: 'Device tokens (never their secrets)', response: TokenList }),
  createToken: defineRoute({ id: 'createToken', method: 'POST', path: `${API_PREFIX}/tokens`, scope: 'admin', summary: 'Create a scoped device token; the secret is shown once', body: CreateTokenRequest, response: CreateTokenResult, status: 201 }),
  revokeToken: defineRoute({ id: 'revokeToken', method: 'DELETE', path: `${API_PREFIX}/tokens/:id`, scope: 'admin', summary: 'Revoke a device token', params: TokenParams, response: RevokeTokenResult }),
  createPairing: defineRoute({ id: 'createPairing', method: 'POST', path: `${API_PREFIX}/pairings`, scope: 'admin', summary: 'A one-time pairing code (10 minutes, single use) and its URL for a named device', body: CreatePairingRequest, response: Pairing, status: 201 }),
  pair: defineRoute({ id: 'pair', method: 'POST', path: `${API_PREFIX}/pair`, scope: 'read', public: true, summary: 'Redeem a pairing code: creates the device token and sets the HttpOnly session cookie', body: PairRequest, response: PairResult, status: 201 }),
  signOut: defineRoute({ id: 'signOut', method: 'POST', path: `${API_PREFIX}/sign-out`, scope: 'read', summary: 'Revoke the caller\'s device token and clear the session cookie', response: SignOutResult }),
  attachImage: defineRoute({ id: 'attachImage', method: 'POST', path: `${S}/images`, scope: 'input', summary: 'Attach an image (base64, at most 700 KiB) through the spec\'s attach_image control', params: SessionParams, body: AttachImageRequest, response: AttachImageResult, keystrokes: true }),
  getPushKey: defineRoute({ id: 'getPushKey', method: 'GET', path: `${API_PREFIX}/push/key`, scope: 'read', summary: 'The daemon\'s VAPID public key for a Web Push subscription', response: PushKey }),
  subscribePush: defineRoute({ id: 'subscribePush', method: 'POST', path: `${API_PREFIX}/push/subscriptions`, scope: 'read', summary: 'Store this browser\'s push subscription: approval needed, turn finished and exited are pushed to it', body: PushSubscribeRequest, response: PushSubscriptionView, status: 201 }),
  listPushSubscriptions: defineRoute({ id: 'listPushSubscriptions', method: 'GET', path: `${API_PREFIX}/push/subscriptions`, scope: 'admin', summary: 'Every stored push subscription (origins only)', response: PushSubscriptionList }),
  unsubscribePush: defineRoute({ id: 'unsubscribePush', method: 'POST', path: `${API_PREFIX}/push/unsubscribe`, scope: 'read', summary: 'Forget the push subscription of an endpoint', body: PushUnsubscribeRequest, response: PushUnsubscribeResult }),
  getLiveDebug: defineRoute({ id: 'getLiveDebug', method: 'GET', path: `${S}/debug/live`, scope: 'read', summary: 'The debugger\'s view: the explained transition table with due times, sections as rows, the last edge', params: SessionParams, response: LiveDebug }),
  getSpecGraph: defineRoute({ id: 'getSpecGraph', method: 'GET', path: `${S}/graph`, scope: 'read', summary: 'The session spec\'s state graph (the model `specterm graph` renders)', params: SessionParams, response: SpecGraph }),
  getDebugMoments: defineRoute({ id: 'getDebugMoments', method: 'GET', path: `${S}/debug/moments`, scope: 'read', summary: 'The driver\'s history and snapshot rings, with the screen each transition fired on', params: SessionParams, response: DebugMoments }),
  startRecording: defineRoute({ id: 'startRecording', method: 'POST', path: `${S}/recording`, scope: 'input', summary: 'Start recording the session as an asciicast v2 file (0600) under the state dir', params: SessionParams, body: StartRecordingRequest, response: RecordingInfo, status: 201 }),
  stopRecording: defineRoute({ id: 'stopRecording', method: 'DELETE', path: `${S}/recording`, scope: 'input', summary: 'Stop the session\'s recording and keep its file', params: SessionParams, response: RecordingInfo }),
  listRecordings: defineRoute({ id: 'listRecordings', method: 'GET', path: `${API_PREFIX}/recordings`, scope: 'read', summary: 'Recordings, the ones being written first', response: RecordingList }),
  getRecordingCast: defineRoute({ id: 'getRecordingCast', method: 'GET', path: `${API_PREFIX}/recordings/:name/cast`, scope: 'read', summary: 'A recording\'s asciicast v2 file (to save as <name>.cast)', params: RecordingParams, response: RecordingCast }),
  getRecordingTimeline: defineRoute({ id: 'getRecordingTimeline', method: 'GET', path: `${API_PREFIX}/recordings/:name/timeline`, scope: 'read', summary: 'Replay a recording on the daemon: the states over time', params: RecordingParams, response: RecordingTimeline }),
  explainRecording: defineRoute({ id: 'explainRecording', method: 'GET', path: `${API_PREFIX}/recordings/:name/explain`, scope: 'read', summary: 'A recording replayed to one instant, explained (what `specterm explain` prints)', params: RecordingParams, query: RecordingExplainQuery, response: RecordingExplain }),
  getSessionSpec: defineRoute({ id: 'getSessionSpec', method: 'GET', path: `${S}/spec`, scope: 'read', summary: 'The text of the spec the session runs, its file and whether it is built in', params: SessionParams, response: SessionSpec }),
  validateSessionSpec: defineRoute({ id: 'validateSessionSpec', method: 'POST', path: `${S}/spec/validate`, scope: 'read', summary: 'Validate spec text as `specterm validate` does (nothing is written)', params: SessionParams, body: ValidateSpecRequest, response: SpecValidation }),
  previewSpecCondition: defineRoute({ id: 'previewSpecCondition', method: 'POST', path: `${S}/spec/preview`, scope: 'read', summary: 'Evaluate one condition against the live screen with the running spec\'s sections', params: SessionParams, body: PreviewConditionRequest, response: ConditionPreview }),
  saveSessionSpec: defineRoute({ id: 'saveSessionSpec', method: 'PUT', path: `${S}/spec`, scope: 'input', summary: 'Save the session\'s spec (a built-in one to a session-local override) and hot-reload it; 422 with the errors unless force', params: SessionParams, body: SaveSpecRequest, response: SpecSaved }),
  getTranscript: defineRoute({ id: 'getTranscript', method: 'GET', path: `${S}/transcript`, scope: 'read', summary: 'The conversation as text, from the CLI\'s own history: turns, tool calls with input and output, edits as diffs, usage', params: SessionParams, query: TranscriptQuery, response: SessionTranscript }),
  searchTranscripts: defineRoute({ id: 'searchTranscripts', method: 'GET', path: `${API_PREFIX}/search`, scope: 'read', summary: 'Find words in every session\'s transcript, newest first', query: SearchQuery, response: SearchResult }),
  resumeSession: defineRoute({ id: 'resumeSession', method: 'POST', path: `${S}/resume`, scope: 'input', summary: 'Start an exited session\'s CLI again on the same conversation (the spec\'s resume arguments)', params: SessionParams, response: SessionDetail, keystrokes: true }),
  createTask: defineRoute({ id: 'createTask', method: 'POST', path: `${API_PREFIX}/tasks`, scope: 'input', summary: 'Hand a task to a session (existing, or new from a spec): answers at once; the result lands on the task (and, with parent_session_id, is typed into that session)', body: CreateTaskRequest, response: Task, status: 201, keystrokes: true }),
  listTasks: defineRoute({ id: 'listTasks', method: 'GET', path: `${API_PREFIX}/tasks`, scope: 'read', summary: 'Tasks, newest first: who asked whom for what, where each is, its result', response: TaskList }),
  getTask: defineRoute({ id: 'getTask', method: 'GET', path: `${API_PREFIX}/tasks/:id`, scope: 'read', summary: 'One task', params: TaskParams, response: Task }),
  cancelTask: defineRoute({ id: 'cancelTask', method: 'POST', path: `${API_PREFIX}/tasks/:id/cancel`, scope: 'input', summary: 'Stop following a task (the worker\'s turn itself goes on: interrupt it on its session)', params: TaskParams, response: Task }),
  listSpecs: defineRoute({ id: 'listSpecs', method: 'GET', path: `${API_PREFIX}/specs`, scope: 'read', summary: 'The built-in specs by id (what `specterm list` names), for picking one', response: SpecList }),
  getSpecSchema: defineRoute({ id: 'getSpecSchema', method: 'GET', path: `${API_PREFIX}/spec-schema`, scope: 'read', summary: 'The JSON Schema of the spec format (what `specterm schema` prints), for editor completion', response: SpecJsonSchema }),
} as const;

export type Routes = typeof ROUTES;
export type RouteId = keyof Routes;

/** The table as a list, in declaration order. */
export const ROUTE_LIST: readonly RouteDef[] = Object.values(ROUTES);

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
/** What a handler receives for route `K` (already validated, defaults applied). */
export interface RouteInput<K extends RouteId> {
  params: Out<NonNullable<Routes[K]['params']>>;
  query: Out<NonNullable<Routes[K]['query']>>;
  body: Out<NonNullable<Routes[K]['body']>>;
}
/** What a handler must answer for route `K`. */
export type RouteOutput<K extends RouteId> = z.input<Routes[K]['response']>;
