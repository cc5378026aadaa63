/**
 * Who killed a session: a kill asked for over the API (the dashboard's Kill, `specterm kill`) is
 * audited with the caller's token, and the session's exit then names that token
 * (`exit.killed_by`), so a person reads "killed by phone at 10:32" rather than "exited on
 * SIGHUP". The audit row is the record: it outlives a daemon restart, so the answer does too.
 *
 * @module
 */
import type { SessionDetail } from '../protocol/index.js';
import type { Store } from '../store/index.js';
import type { ManagedSession } from './managed-session.js';
import type { SessionManager } from './session-manager.js';

type KilledBy = NonNullable<NonNullable<SessionDetail['exit']>['killed_by']>;
/** Who asks for a kill: the caller's token (the server's principal). */
export interface Killer { name: string; tokenId: string }

/** The audit action of a kill (the route's id, as the pipeline audits keystroke routes). */
export const KILL_ACTION = 'killSession';
/** A kill's exit follows within the manager's wait (8 s): an exit later than this is not the kill's. */
const KILL_TO_EXIT_MS = 10_000;

export interface SessionKillsDeps {
  manager: SessionManager;
  store: Store;
  now: () => number;
}

export class SessionKills {
  readonly #d: SessionKillsDeps;
  /** By session id: the kill (or none) behind the exit at `exitedAt`; `null` while a kill is under way. */
  readonly #known = new Map<string, { exitedAt: number | null; by: KilledBy | null }>();

  constructor(deps: SessionKillsDeps) {
    this.#d = deps;
  }

  /** Kills the session for `principal` and audits it; {@link describe} then names who killed it. */
  async kill(idOrName: string, principal: Killer): Promise<ManagedSession> {
    const session = this.#d.manager.get(idOrName);
    if (session.record.exitedAt !== null) return session;
    const by: KilledBy = { name: principal.name, token_id: principal.tokenId, at: this.#d.now() };
    // Known before the exit is: a listing read while the agent ends already names the killer.
    this.#known.set(session.id, { exitedAt: null, by });
    session.expectKillBy(by);
    await this.#d.manager.kill(session.id);
    session.expectKillBy(null);
    const exit = session.record.exitedAt === null ? null : { code: session.record.exitCode, signal: session.record.signal };
    this.#d.store.audit.insert({
      t: by.at, who: by.name, tokenId: by.token_id, action: KILL_ACTION, sessionId: session.id,
      detail: { exit }, outcome: exit ? 'ok' : 'failed', reason: exit ? null : 'the agent was still running after the wait',
    });
    if (!exit) this.#known.delete(session.id);
    return session;
  }

  /** The session's detail, its exit naming who killed it when a person did. */
  describe(session: ManagedSession): SessionDetail {
    const detail = session.detail();
    if (detail.exit === null || detail.exited_at === null) return detail;
    const by = this.#killerOf(session.id, detail.exited_at);
    return by ? { ...detail, exit: { ...detail.exit, killed_by: by } } : detail;
  }

  #killerOf(sessionId: string, exitedAt: number): KilledBy | null {
    const known = this.#known.get(sessionId);
    if (known && (known.exitedAt === null || known.exitedAt === exitedAt)) {
      const fits = known.by !== null && known.by.at <= exitedAt && exitedAt - known.by.at <= KILL_TO_EXIT_MS;
      if (known.exitedAt === null) this.#known.set(sessionId, { exitedAt, by: fits ? known.by : null });
      return fits ? known.by : null;
    }
    // Not killed through this daemon run (or an exit since): the audit trail says.
    const row = this.#d.store.audit.page({ sessionId, sinceMs: exitedAt - KILL_TO_EXIT_MS, untilMs: exitedAt + 1, order: 'desc', limit: 100 }).items
      .find((a) => a.action === KILL_ACTION && a.outcome === 'ok');
    const by = row ? { name: row.who, token_id: row.tokenId ?? row.who, at: row.t } : null;
    this.#known.set(sessionId, { exitedAt, by });
    return by;
  }
}
