/**
 * Sessions: create, list, detail, and what a client can do to one (messages, keys, resize,
 * controls) or read from it (screen, history, debug, explain).
 * @module
 */
import { z } from 'zod';
import type { ModalKind as CoreModalKind, StateStatus as CoreStateStatus } from '../core/spec/types.js';
import { ByteSeq, Cols, EpochMs, Id, Rows } from './common.js';
import { NodeName, Unreachable } from './node.js';
import { Turn } from './transcripts.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LABEL_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
/** A git branch name: no spaces, no `..`, no leading `-` (it would read as an option). */
const BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}$/;

/** What the spec says the agent is doing (the FSM state's `status`). */
export const StateStatus = z.enum(['idle', 'generating', 'approval', 'waiting_external']);
/** The kind of a modal: only `approval` may ever be auto-answered. */
export const ModalKind = z.enum(['approval', 'picker', 'confirm']);
// The wire enums must stay equal to the core's; a drift fails the type-check here.
const _statusSame: [CoreStateStatus, z.infer<typeof StateStatus>] extends [z.infer<typeof StateStatus>, CoreStateStatus] ? true : never = true;
const _modalSame: [CoreModalKind, z.infer<typeof ModalKind>] extends [z.infer<typeof ModalKind>, CoreModalKind] ? true : never = true;
void _statusSame; void _modalSame;

/** The session's process lifecycle (independent of the spec's state). */
export const Lifecycle = z.enum(['starting', 'running', 'exited', 'failed']);

/** One auto-approve rule: a regular expression, or one with flags (only i, s and u). */
const PolicyRule = z.union([
  z.string().min(1).max(500),
  z.strictObject({ pattern: z.string().min(1).max(500), flags: z.string().regex(/^[isu]*$/, 'flags are any of "i", "s", "u"').optional() }),
]);

/**
 * A session's auto-approve policy. Only `kind: "approval"` modals are ever answered: a deny rule
 * (anywhere in the modal's text or subject) wins, an allow rule must match the whole subject (the
 * command, path, URL or tool the spec isolates; docs/daemon-approvals.md), no rule or no subject →
 * a person is asked. Patterns are checked when the session is created (syntax and catastrophic backtracking).
 */
export const ApprovalPolicy = z.strictObject({
  allow: z.array(PolicyRule).max(100).optional().meta({ description: 'the whole subject (the command, path, URL or tool the approval asks about, all of its lines) must match one, e.g. "npm (test|run lint)"' }),
  deny: z.array(PolicyRule).max(100).optional().meta({ description: 'a match anywhere keeps the policy from pressing, e.g. "rm -rf"' }),
  yes: z.union([z.strictObject({ index: z.number().int().nonnegative() }), z.strictObject({ label: z.string().min(1).max(500) })]).optional()
    .meta({ description: 'which button means "yes, once" (default: the first Yes/Allow/Approve/Proceed that does not widen the grant)' }),
}).meta({ examples: [{ allow: ['npm (test|run lint)'], deny: ['rm -rf'] }] });
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;

/** `POST /api/v1/sessions`. */
export const CreateSessionRequest = z.strictObject({
  spec: z.string().min(1).max(4096).meta({ description: 'a spec id (e.g. "claude-code") or a path to a spec.json' }),
  cwd: z.string().min(1).max(4096).startsWith('/', 'cwd must be an absolute path').meta({ description: 'absolute working directory; must exist' }),
  args: z.array(z.string().max(8192)).max(256).default([]),
  env: z.record(z.string().regex(ENV_NAME, 'an environment variable name is [A-Za-z_][A-Za-z0-9_]*'), z.string().max(32768))
    .optional().meta({ description: 'environment overrides; never logged, never on a command line' }),
  cols: Cols.default(120),
  rows: Rows.default(40),
  name: z.string().min(1).max(64).optional(),
  labels: z.record(z.string().regex(LABEL_KEY, 'a label key is 1–64 characters of A–Z, a–z, 0–9, _ . or -'), z.string().max(256)).optional(),
  worktree: z.strictObject({
    branch: z.string().regex(BRANCH, 'a branch is 1–200 characters of A–Z a–z 0–9 . _ / -, without ".." or a leading "-"'),
  }).optional().meta({ description: 'run in a fresh git worktree on this new branch' }),
  policy: ApprovalPolicy.optional().meta({ description: 'auto-approve policy for this session (overrides the settings file); only kind "approval" modals are ever answered' }),
  node: NodeName.optional().meta({ description: 'the node to start it on: a hub needs it; a node refuses any name but its own' }),
}).meta({ examples: [{ spec: 'demo-agent', cwd: '/home/me/project', args: [], cols: 120, rows: 40, name: 'refactor', labels: { team: 'core' }, policy: { allow: ['npm test'], deny: ['rm -rf'] } }] });
export type CreateSessionRequest = z.input<typeof CreateSessionRequest>;

/** The agent's own work still running (a background shell, a sub-agent), as the spec's `background_work` reads the screen. */
export const BackgroundWork = z.strictObject({
  count: z.number().int().positive(),
  what: z.string().meta({ description: 'in words, e.g. "1 background shell"' }),
  items: z.array(z.strictObject({ id: z.string(), count: z.number().int().positive() })).meta({ description: 'per kind of work (the spec rule\'s id, e.g. "shell")' }),
});

/** The FSM state a session is in. */
export const StateView = z.strictObject({
  id: z.string(), label: z.string(), title: z.string().nullable(), status: StateStatus,
  background: BackgroundWork.optional().meta({ description: 'the agent\'s own shells or sub-agents still running; absent when none (an idle agent with it is not done)' }),
});

/** What an approval asks consent for, as the spec reads it (`extract.subject`): the only text an auto-approve policy judges. */
export const ApprovalSubject = z.strictObject({
  kind: z.enum(['command', 'path', 'url', 'tool']).nullable().meta({ description: 'what is consented to; null when no subject was isolated' }),
  text: z.string().nullable().meta({ description: 'the command, path, URL or tool as the CLI shows it (all of its lines); null when none was isolated' }),
  problem: z.string().nullable().meta({ description: 'why a policy cannot judge it (none isolated, ambiguous, drawn invisibly) — a person decides; null when it can' }),
});

/**
 * Who brought a modal up: `person` when it opened within a few seconds of a person's own input to
 * the session (keys, a message such as `/model`, a control, an answer) with no agent turn in
 * between — nobody waits on it, so it raises no `approval.needed` and the inbox does not count it.
 * A consent prompt (`kind: "approval"`) is always the agent's.
 */
export const OpenedBy = z.enum(['person', 'agent']).meta({ description: 'person: opened by the person\'s own input (not waiting for anyone, never notified); agent: raised by the agent' });

/** A modal on screen, with the approval identity a client answers it by. */
export const ModalView = z.strictObject({
  approval_id: Id.meta({ description: 'stays the same while the same modal is up' }),
  fingerprint: z.string().min(1).max(128).meta({ description: 'hash of the modal content; an answer must quote it' }),
  title: z.string().nullable(),
  buttons: z.array(z.strictObject({
    index: z.number().int().nonnegative(),
    label: z.string(),
    current: z.boolean().meta({ description: 'the option the CLI\'s cursor marker is on (what Enter chooses); none is when the spec sees no marker' }),
  })),
  kind: ModalKind.nullable(),
  subject: ApprovalSubject.nullable().optional().meta({ description: 'what the modal asks consent for, as an auto-approve policy judges it' }),
  opened_by: OpenedBy.optional(),
});

/** A spec control (a button a UI shows). */
export const ControlView = z.strictObject({ id: z.string(), label: z.string(), action_type: z.enum(['send_keys', 'open_picker', 'attach_image']) });

/** Who killed a session: the token's name and id (as in the audit log) and when the kill was asked. */
export const KilledBy = z.strictObject({ name: z.string(), token_id: z.string(), at: EpochMs });

/**
 * A session's last notice (an approval asked or answered, a turn finished, an exit, an error):
 * what a list shows as "Last: …" without reading the event history (notice-text.ts words it).
 */
export const LastNotice = z.strictObject({
  seq: z.number().int().positive().meta({ description: 'the event\'s seq' }),
  type: z.string().meta({ description: 'the event\'s type, e.g. turn.finished' }),
  at: EpochMs,
  text: z.string().meta({ description: 'the notice in words, e.g. "turn finished in 12 s"' }),
});
export type LastNotice = z.infer<typeof LastNotice>;

/** A session as `GET /api/v1/sessions/:id` returns it. */
export const SessionDetail = z.strictObject({
  id: Id,
  node: NodeName.optional(),
  name: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  lifecycle: Lifecycle,
  state: StateView.nullable(),
  modal: ModalView.nullable(),
  controls: z.array(ControlView),
  cwd: z.string(),
  branch: z.string().nullable(),
  spec: z.strictObject({ id: z.string(), version: z.string().nullable(), proven_versions: z.array(z.string()) }),
  pid: z.number().int().positive().nullable(),
  cols: Cols,
  rows: Rows,
  exit: z.strictObject({
    code: z.number().int().nullable(), signal: z.string().nullable(),
    /** Who killed the agent (a kill over the API: the dashboard's Kill, `specterm kill`), absent when it ended by itself. */
    killed_by: KilledBy.optional(),
  }).nullable(),
  created_at: EpochMs,
  started_at: EpochMs.nullable(),
  exited_at: EpochMs.nullable(),
  state_since: EpochMs.nullable(),
  /** True when the daemon re-adopted the session from the PTY host after its database lost it (docs/daemon.md). */
  recovered: z.boolean().optional(),
  muted: z.boolean().optional().meta({ description: 'true: the session raises no notifications (toast, push, desktop, webhook); its approvals are still listed' }),
  native_session_id: z.string().nullable().optional().meta({ description: 'the CLI\'s own conversation id (its history file), when its spec says how to know it' }),
  resumable: z.boolean().optional().meta({ description: 'true: exited, and POST …/resume starts its CLI again on the same conversation' }),
  last_notice: LastNotice.optional().meta({ description: 'the session\'s newest notice among the events the daemon keeps; absent when it has none' }),
  unreachable: Unreachable.optional(),
}).meta({ examples: [{
  id: 's_7f3a9c', name: 'refactor', labels: {}, lifecycle: 'running',
  state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, modal: null, controls: [],
  cwd: '/home/me/project', branch: 'main', spec: { id: 'demo-agent', version: '1.0.0', proven_versions: ['1.0.0'] },
  pid: 4242, cols: 120, rows: 40, exit: null, created_at: 1764600000000, started_at: 1764600000100, exited_at: null, state_since: 1764600001000, recovered: false,
}] });
export type SessionDetail = z.infer<typeof SessionDetail>;

/** `GET /api/v1/sessions`. */
export const SessionList = z.strictObject({
  sessions: z.array(SessionDetail),
  event_seq: z.number().int().nonnegative().optional().meta({ description: 'the newest event seq when the list was read: subscribe to `sessions` with it as `since` to get every change after the list and none before' }),
});

/** Path parameters of every per-session route. */
export const SessionParams = z.strictObject({ id: Id });

/** `DELETE /api/v1/sessions/:id` query: `force=true` removes a worktree with uncommitted changes. */
export const RemoveSessionQuery = z.strictObject({ force: z.enum(['true', 'false']).optional() });

/** `POST …/messages`: type a message into the agent. */
export const SendMessageRequest = z.strictObject({
  text: z.string().min(1).max(100_000),
  idempotency_key: z.string().min(1).max(128).optional().meta({ description: 'the same key twice never types twice' }),
  wait: z.enum(['accepted', 'started', 'idle']).default('accepted').meta({ description: 'answer once the message is accepted, the turn has started, or the agent is idle again' }),
  timeout_ms: z.number().int().min(0).max(600_000).optional(),
}).meta({ examples: [{ text: 'run the tests', idempotency_key: 'k-1', wait: 'started', timeout_ms: 30000 }] });

/** How far a message got. `refused` carries the reason; a repeated key answers the first outcome with `duplicate: true`. */
export const MessageOutcome = z.strictObject({
  message_id: Id,
  delivery: z.enum(['queued', 'typed', 'echoed', 'turn_started', 'idle', 'blocked', 'refused', 'timed_out']),
  reason: z.string().nullable(),
  duplicate: z.boolean(),
  blocked_by: z.strictObject({
    approval_id: Id, title: z.string().nullable(), kind: ModalKind.nullable(),
    buttons: z.array(z.strictObject({ index: z.number().int().nonnegative(), label: z.string() })),
  }).optional().meta({ description: 'delivery `blocked`: the prompt that waits for a person before the turn can go on (answer it with POST /api/v1/approvals/:id)' }),
  answer: z.strictObject({
    text: z.string().meta({ description: 'what the agent answered: its text of the turn, in order' }),
    turn: Turn,
  }).optional().meta({ description: 'delivery `idle`, when the session keeps a transcript: the turn the message started' }),
}).meta({ examples: [{ message_id: 'm_1', delivery: 'turn_started', reason: null, duplicate: false }] });

/** `GET …/screen` query. */
export const ScreenQuery = z.strictObject({ format: z.enum(['text', 'ansi']).default('text') });
/** The session's screen as the daemon's headless terminal holds it. */
export const Screen = z.strictObject({
  format: z.enum(['text', 'ansi']),
  content: z.string(),
  cols: Cols,
  rows: Rows,
  cursor: z.strictObject({ x: z.number().int().nonnegative(), y: z.number().int().nonnegative() }),
  title: z.string().nullable(),
  seq: ByteSeq,
}).meta({ examples: [{ format: 'text', content: '> ', cols: 120, rows: 40, cursor: { x: 2, y: 0 }, title: null, seq: 1024 }] });

/** `POST …/keys`: raw input (needs the input scope). */
export const KeysRequest = z.strictObject({ data: z.string().min(1).max(4096).meta({ description: 'bytes to write to the PTY as typed (e.g. "\\u001b" for Esc)' }) })
  .meta({ examples: [{ data: '\r' }] });
export const KeysResult = z.strictObject({ written_bytes: z.number().int().nonnegative() });

/** `POST …/resize`. */
export const ResizeRequest = z.strictObject({ cols: Cols, rows: Rows }).meta({ examples: [{ cols: 100, rows: 30 }] });
export const ResizeResult = z.strictObject({ cols: Cols, rows: Rows });

/** `POST …/controls/:control_id`. */
export const ControlParams = z.strictObject({ id: Id, control_id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) });
export const ControlRequest = z.strictObject({ payload: z.unknown().optional() }).meta({ examples: [{}] });

/** `GET …/history` query: newest first, paged by `before` (a seq). */
export const HistoryQuery = z.strictObject({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const HistoryEntry = z.strictObject({
  seq: z.number().int().positive(),
  at: EpochMs,
  state: StateView,
  reason: z.string(),
  duration_ms: z.number().int().nonnegative().nullable(),
});
export const HistoryPage = z.strictObject({ entries: z.array(HistoryEntry), next_before: z.number().int().positive().nullable() });

/** `GET …/debug`: the live FSM debug view (shape owned by the driver; opaque here). */
export const DebugView = z.looseObject({ state: z.string().nullable() });

/** `GET …/explain?at=`: why the state at a time (default now) is what it is. */
export const ExplainQuery = z.strictObject({ at: z.coerce.number().int().nonnegative().optional() });
export const Explain = z.strictObject({
  at: EpochMs,
  state: StateView.nullable(),
  matched_rules: z.array(z.string()),
  transitions: z.array(z.unknown()),
});

/** `PUT …/mute`: stop (or resume) the session's notifications; its approvals stay listed. */
export const MuteSessionRequest = z.strictObject({
  muted: z.boolean().meta({ description: 'true: no toast, push, desktop notification or webhook for this session; false: notify again' }),
}).meta({ examples: [{ muted: true }] });
