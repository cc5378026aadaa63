/**
 * The handlers of the session routes (`/api/v1/sessions…`): validated input in (the server did
 * that), the session manager's answers out, its refusals as problem documents.
 *
 * @module
 */
import path from 'node:path';
import { builtinSpecsDir } from '../../catalog/index.js';
import { resolveRuntimeDir } from '../../fs/private-dirs.js';
import type { RequestContext, RouteHandlers } from '../contracts.js';
import type { Store } from '../../store/index.js';
import { serializeScreenAnsi } from '../../daemon/screen-ansi.js';
import { DaemonError } from '../../daemon/errors.js';
import { fieldError, SpectermError, type SessionDetail } from '../../protocol/index.js';
import type { EventLog } from '../../daemon/event-log.js';
import type { LastNotices } from '../../daemon/last-notices.js';
import type { ManagedSession } from '../../daemon/managed-session.js';
import { stateViewOf } from '../../daemon/managed-session.js';
import { deliverMessage } from '../../daemon/message-delivery.js';
import { answerTo, type SessionTranscripts } from '../../daemon/session-transcripts.js';
import { SessionKills } from '../../daemon/session-kills.js';
import { PARENT_LABEL } from '../../daemon/orchestration.js';
import type { SessionManager } from '../../daemon/session-manager.js';
import { checkSpecPath, resolveUserSpecsDir, type SpecPathPlaces } from '../../daemon/spec-path-rule.js';

export interface SessionRouteDeps {
  manager: SessionManager;
  store: Store;
  now: () => number;
  /** Where a waited-for turn's answer is read (none: outcomes carry no answer). */
  transcripts?: SessionTranscripts;
  /** This daemon's node name: a `node` in a create request must be it (a hub routes by it). */
  node?: string;
  /** The list's `event_seq` (where a client's `sessions` subscription goes on from). */
  events?: Pick<EventLog, 'lastSeq'>;
  /** Each session's `last_notice`. */
  notices?: LastNotices;
}

/** The running driver of a session, or a 409 that says the agent is not running. */
export function runningDriver(session: ManagedSession) {
  const driver = session.driver;
  if (!driver || !session.isRunning) throw new DaemonError('SESSION_NOT_RUNNING', `session ${session.id} is not running (it exited); restart it (POST …/restart) or read its history`);
  return driver;
}

/** A driver refusal as a 409 `COMMAND_REFUSED` carrying the driver's code and reason. */
export function refusedUnless(result: { ok: true } | { ok: false; code: string; reason: string }): void {
  if (!result.ok) throw new DaemonError('COMMAND_REFUSED', `${result.code}: ${result.reason}`);
}

/** The session named, unless it is the calling agent's own (an agent never types into or stops itself). */
function notCaller(manager: SessionManager, ref: string, ctx: RequestContext, what: string): ManagedSession {
  const session = manager.get(ref);
  if (ctx.callerSession === session.id) throw new DaemonError('SELF_TARGET', `session ${session.id} is the calling agent's own; an agent may not ${what} itself — name another session`, { path: '/id' });
  return session;
}

export function sessionRoutes(d: SessionRouteDeps): RouteHandlers {
  const { manager, store } = d;
  const kills = new SessionKills(d);
  // Every answer that is a session describes it as the list does: who killed it, its last notice.
  const describe = (session: ManagedSession): SessionDetail => {
    const detail = kills.describe(session);
    const notice = d.notices?.of(session.id);
    return notice ? { ...detail, last_notice: notice } : detail;
  };
  // The state dir is the database's; the runtime dir is the one `specterm serve` resolves too.
  const places: SpecPathPlaces = { builtinDir: builtinSpecsDir(), userSpecsDir: resolveUserSpecsDir(), privateDirs: [path.dirname(store.path), resolveRuntimeDir()] };
  const handlers: RouteHandlers = {
    // The seq first, in the same turn as the list: every event after it is a change after the list.
    listSessions: () => ({ ...(d.events ? { event_seq: d.events.lastSeq } : {}), sessions: manager.list().map(describe) }),
    createSession: (input, ctx) => {
      const { node, ...body } = input.body;
      if (node !== undefined && node !== d.node) throw new SpectermError(fieldError('NODE_UNKNOWN', `this is node '${d.node ?? 'local'}', not '${node}'; send the request to that node (or to the hub), or leave "node" out`, '/node'));
      const spec = checkSpecPath(body.spec, body.cwd, places, ctx.principal.scope === 'admin');
      // An agent's new session is its child: counted against its limits (./orchestration.ts).
      const labels = ctx.callerSession ? { ...body.labels, [PARENT_LABEL]: ctx.callerSession } : body.labels;
      return manager.create({ ...body, spec, ...(labels ? { labels } : {}) });
    },
    getSession: (input) => describe(manager.get(input.params.id)),
    removeSession: async (input) => { await manager.remove(input.params.id, input.query.force === 'true'); return { ok: true }; },
    killSession: async (input, ctx) => describe(await kills.kill(notCaller(manager, input.params.id, ctx, 'stop').id, ctx.principal)),
    restartSession: async (input) => { await manager.restart(input.params.id); return describe(manager.get(input.params.id)); },
    // Its twin: the CLI started again on its conversation (docs/transcripts.md).
    resumeSession: async (input) => { await manager.resume(input.params.id); return describe(manager.get(input.params.id)); },
    sendMessage: async (input, ctx) => {
      const session = notCaller(manager, input.params.id, ctx, 'type into');
      d.transcripts?.noteMessage(session.id, input.body.text);
      const outcome = await deliverMessage(session, store, input.body, d.now);
      // A turn waited to its end answers with what the agent said (from the CLI's own history).
      if (outcome.delivery !== 'idle' || !d.transcripts || outcome.duplicate) return outcome;
      const answer = await answerTo(d.transcripts, session.id, input.body.text);
      return answer ? { ...outcome, answer } : outcome;
    },
    getScreen: (input) => {
      const session = manager.get(input.params.id);
      const driver = runningDriver(session);
      const ansi = input.query.format === 'ansi';
      const cursor = driver.getCursorPosition();
      return {
        format: ansi ? 'ansi' as const : 'text' as const, content: ansi ? serializeScreenAnsi(driver.screen) : driver.getScreen(),
        cols: driver.screen.cols, rows: driver.screen.rows,
        cursor: { x: cursor.col, y: cursor.row }, title: driver.screen.windowTitle || null, seq: session.transport?.seq ?? 0,
      };
    },
    sendKeys: (input) => {
      const session = manager.get(input.params.id);
      refusedUnless(runningDriver(session).dispatch({ kind: 'pty_write', data: input.body.data }));
      session.notePersonInput();
      d.transcripts?.noteKeys(session.id, input.body.data);
      return { written_bytes: Buffer.byteLength(input.body.data) };
    },
    resizeSession: (input) => {
      const session = manager.get(input.params.id);
      runningDriver(session);
      refusedUnless(session.resize(input.body.cols, input.body.rows));
      return { cols: input.body.cols, rows: input.body.rows };
    },
    pressControl: (input) => {
      const session = manager.get(input.params.id);
      refusedUnless(runningDriver(session).dispatch({ kind: 'click_control', control_id: input.params.control_id, payload: input.body.payload }));
      session.notePersonInput(); // the picker a control opens (open_picker) is the person's
      return { ok: true };
    },
    muteSession: (input) => {
      const session = manager.get(input.params.id);
      session.setMuted(input.body.muted);
      return describe(session);
    },
    getHistory: (input) => {
      const session = manager.get(input.params.id);
      const before = input.query.before;
      // Newest first; `before` is the seq (state change id) the previous page ended at.
      const page = store.stateChanges.page({ sessionId: session.id, order: 'desc', by: 'id', limit: input.query.limit + 1, ...(before ? { after: { t: 0, id: before } } : {}) });
      const items = page.items.slice(0, input.query.limit);
      const entries = items.map((c, i) => {
        const newer = i > 0 ? items[i - 1] : undefined;
        return { seq: c.id, at: c.t, state: stateViewOf(session.spec, c.state), reason: c.modal ? `modal ${c.modal.title ?? ''}`.trim() : 'state change', duration_ms: newer ? newer.t - c.t : null };
      });
      return { entries, next_before: page.items.length > input.query.limit ? items.at(-1)!.id : null };
    },
    getDebug: (input) => {
      const debug = runningDriver(manager.get(input.params.id)).getFsmDebug();
      return { ...JSON.parse(JSON.stringify(debug)) as Record<string, unknown>, state: debug.currentState };
    },
    explainState: (input) => {
      const session = manager.get(input.params.id);
      const driver = runningDriver(session);
      const at = input.query.at ?? d.now();
      const snapshots = driver.getFsmSnapshotHistory().filter((s) => s.at <= at);
      const last = snapshots.at(-1);
      if (!last) {
        const view = driver.getCurrentView();
        return { at, state: view ? view.state : null, matched_rules: [], transitions: [] };
      }
      return { at, state: stateViewOf(session.spec, last.stateTo), matched_rules: last.reason, transitions: JSON.parse(JSON.stringify(last.transitions)) as unknown[] };
    },
  };
  return handlers;
}
