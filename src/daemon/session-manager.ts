/**
 * The session manager: creates agent sessions in the PTY host with one `FsmDriver` each, lists,
 * kills, restarts and removes them, and on start re-attaches to every session the host still
 * runs (the driver resumes the stored state and re-checks it against the rebuilt screen).
 * Sessions and state changes go to the store; changes go to the event log.
 *
 * @module
 */
import fs from 'node:fs';
import { prescreenSpecRef } from '../catalog/prescreen.js';
import type { SessionTranscripts } from './session-transcripts.js';
import { FsmDriver, type SpecSource } from '../driver/fsm-driver.js';
import { RealScheduler } from '../driver/schedulers.js';
import { SPEC_READ_SCROLLBACK_ROWS, SpawnError } from '../terminal/index.js';
import { HostError, HostTransport, type HostClient, type SessionInfo } from '../host/index.js';
import type { SessionDetail } from '../protocol/index.js';
import type { z } from 'zod';
import type { CreateSessionRequest as CreateSchema } from '../protocol/sessions.js';
import type { SessionRecord, Store } from '../store/index.js';
import type { ApprovalTracker } from './approval.js';
import type { ApprovalPolicy } from './approval-policy.js';
import { SessionPolicies } from './session-policies.js';
import type { EnvSeal } from './env-seal.js';
import { DaemonError } from './errors.js';
import type { EventLog } from './event-log.js';
import { admitChild, DEFAULT_LIMITS, lineageOf, PARENT_LABEL, type ChildLimits, type LineageSession } from './orchestration.js';
import { ManagedSession, stateViewOf, type ManagedSessionDeps } from './managed-session.js';
import { ResumedTransport } from './resumed-transport.js';
import { findOrphans, sessionMetaOf } from './session-adoption.js';
import { createWorktree, removeWorktree } from './worktree.js';
import { loadSpec, newSessionId, placeholderSpec } from './session-specs.js';

/** The node name of a daemon nobody named (tests, embedding); `specterm serve` names it after the host. */
export const DEFAULT_NODE = 'local';

/** Default bound on running + exited sessions kept. */
export const DEFAULT_SESSION_LIMIT = 32;
/** How long kill/restart wait for the child to end (the host sends SIGKILL after 2 s). */
const EXIT_WAIT_MS = 8000;

export type CreateInput = z.output<typeof CreateSchema>;

export interface SessionManagerOptions {
  store: Store;
  /** This daemon's node name, stamped on its sessions and approvals (`local` when not said). */
  node?: string;
  /** Transcripts from each CLI's own history (none when not given). */
  transcripts?: SessionTranscripts;
  host: HostClient;
  /** A live host connection (the supervisor's: a dead host is replaced); default: `host` as is. */
  ensureHost?: () => Promise<HostClient>;
  events: EventLog;
  tracker: ApprovalTracker;
  now?: () => number;
  /** Sessions kept (running or exited) before creation is refused. */
  sessionLimit?: number;
  /** Seals env overrides for the store, so a restart after a daemon restart has them (./env-seal.ts). */
  envSeal?: EnvSeal;
  /** Auto-approve policies by spec id or session name (from the settings file). */
  defaultPolicies?: Record<string, unknown>;
  onApprovalOpened?: ManagedSessionDeps['onApprovalOpened'];
  onDelegate?: ManagedSessionDeps['onDelegate'];
  /** How deep chains of child sessions go and how many children one runs (settings.json `orchestration`). */
  limits?: ChildLimits;
  /** Where a session's driver reloads its spec from (the spec editor's saves; ./spec-files.ts). */
  specSource?: (session: ManagedSession) => SpecSource;
  log?: (level: 'info' | 'warn', message: string) => void;
}

export class SessionManager {
  readonly #sessions = new Map<string, ManagedSession>();
  readonly #o: SessionManagerOptions;
  readonly #policies: SessionPolicies;
  readonly #now: () => number;
  readonly #deps: ManagedSessionDeps;
  /** The host connection new runs go to (replaced with the host, see {@link #useLiveHost}). */
  #host: HostClient;

  constructor(options: SessionManagerOptions) {
    this.#o = options;
    this.#policies = new SessionPolicies(options.defaultPolicies);
    this.#host = options.host;
    this.#now = options.now ?? Date.now;
    this.#deps = { store: options.store, events: options.events, tracker: options.tracker, now: this.#now, node: options.node ?? DEFAULT_NODE, onApprovalOpened: options.onApprovalOpened, onDelegate: options.onDelegate };
  }

  /**
   * Loads the stored sessions and re-attaches a driver to each one the host still runs. A
   * session whose child ended while no daemon ran is marked exited with the host's code; one the
   * host no longer knows (the host was restarted) is marked exited with no code.
   */
  async recover(): Promise<void> {
    const list = await this.#host.list();
    const hosted = new Map<string, SessionInfo>(list.map((s) => [s.id, s]));
    const records = this.#o.store.sessions.list();
    for (const record of records) {
      await prescreenSpecRef(record.specPath ?? record.specId ?? '');
      const spec = this.#loadStoredSpec(record.id, record.specPath ?? record.specId)?.spec ?? placeholderSpec(record.specId);
      let policy: ApprovalPolicy | null = null;
      const owner = { specId: record.specId, name: record.name, own: record.policy };
      await this.#policies.prepare(owner);
      try {
        policy = this.#policies.resolve(owner);
      } catch (error) {
        // Never silently widened: without its policy the session asks a person for everything.
        this.#o.log?.('warn', `session ${record.id}: ${(error as Error).message}; it runs without auto-approve`);
      }
      const session = new ManagedSession(record, spec, this.#deps, { policy, env: this.#openEnv(record) });
      this.#sessions.set(record.id, session);
      this.#useEditedSpec(session);
      if (record.exitedAt !== null) continue;
      const info = hosted.get(record.id);
      if (!info) { session.markExited(null, null); continue; }
      if (!info.alive) { session.markExited(info.exitCode, info.signal); continue; }
      await this.#tryResume(session, info);
    }
    await this.#adoptOrphans(list, new Set(records.map((r) => r.id)));
  }

  /**
   * Takes back the sessions the host runs that the store does not know (its database was
   * deleted or replaced): stored again from what the host kept (see session-adoption.ts), marked
   * recovered, announced as created, and driven again from their rebuilt screens.
   */
  async #adoptOrphans(hosted: readonly SessionInfo[], known: ReadonlySet<string>): Promise<void> {
    const orphans = findOrphans(hosted, known);
    for (const { info, specRef, input } of orphans) {
      const loaded = specRef ? this.#loadStoredSpec(info.id, specRef) : null;
      if (!specRef) this.#o.log?.('warn', `session ${info.id}: the PTY host does not know its spec (it was started by an older specterm or another client); listed without a driver`);
      if (input.name && [...this.#sessions.values()].some((s) => s.record.name === input.name)) input.name = null;
      const inserted = this.#o.store.sessions.insert({ ...input, specId: loaded?.builtinId ?? loaded?.spec.id ?? input.specId, specPath: loaded?.path ?? input.specPath });
      this.#o.store.sessions.markRecovered(inserted.id, this.#now());
      const record = this.#o.store.sessions.get(inserted.id)!;
      const session = new ManagedSession(record, loaded?.spec ?? placeholderSpec(record.specId), this.#deps);
      this.#sessions.set(record.id, session);
      this.#o.events.append({ type: 'session.created', session_id: record.id, at: this.#now(), session: session.detail() });
      if (loaded) await this.#tryResume(session, info);
    }
    if (orphans.length > 0) this.#o.log?.('warn', `re-adopted ${orphans.length} sessions the PTY host runs that the database did not know (it was deleted or replaced); they are marked recovered and run without their env overrides and auto-approve policy`);
  }

  /** The spec a stored (or re-adopted) session runs, or null (logged) when it cannot be loaded. */
  #loadStoredSpec(id: string, ref: string | null): ReturnType<typeof loadSpec> | null {
    try {
      return loadSpec(ref ?? '');
    } catch (error) {
      this.#o.log?.('warn', `session ${id}: ${(error as Error).message}; listed without a driver`);
      return null;
    }
  }

  /** Resumes a running session; one that cannot be re-attached is failed with the reason, not left `starting` in silence. */
  async #tryResume(session: ManagedSession, info: SessionInfo): Promise<void> {
    try {
      await this.#resume(session, info);
    } catch (error) {
      this.#o.log?.('warn', `session ${session.id}: could not re-attach: ${(error as Error).message}`);
      session.fail('REATTACH_FAILED', `the daemon could not re-attach to the running agent (${(error as Error).message}); stop it (\`specterm kill ${session.id}\`) and restart it`);
    }
  }

  /** A session whose spec was edited (a built-in's override) resumes on the edit, when it loads. */
  #useEditedSpec(session: ManagedSession): void {
    const source = this.#o.specSource?.(session);
    if (!source || source.path === session.record.specPath) return;
    const r = source.load();
    if (r.ok) session.spec = r.spec;
    else this.#o.log?.('warn', `session ${session.id}: its edited spec ${source.path} cannot be loaded (${r.errors.join('; ')}); it runs its original spec`);
  }

  /** The env overrides of a stored session (undefined when it had none or they cannot be opened). */
  #openEnv(record: SessionRecord): Record<string, string> | undefined {
    if (!record.envSealed || !this.#o.envSeal) {
      if (record.envKeys.length > 0) this.#o.log?.('warn', `session ${record.id}: its env overrides (${record.envKeys.join(', ')}) were not kept; a restart runs without them`);
      return undefined;
    }
    try {
      return this.#o.envSeal.open(record.id, record.envSealed);
    } catch (error) {
      this.#o.log?.('warn', `${(error as Error).message}; a restart runs without them`);
      return undefined;
    }
  }

  async #resume(session: ManagedSession, info: SessionInfo): Promise<void> {
    const record = session.record;
    // The host's PTY has the size of the last resize, whoever made it (the API, a WS lease holder).
    if (info.cols !== record.cols || info.rows !== record.rows) session.rememberSize(info.cols, info.rows);
    const transport = await ResumedTransport.attach(this.#host, record.id, info.cols, info.rows);
    const last = this.#o.store.stateChanges.page({ sessionId: record.id, order: 'desc', by: 'id', limit: 1 }).items[0];
    const driver = this.#driver(session, transport, { resumeFrom: last ? { state: last.state, enteredAt: last.t } : undefined });
    session.startedAt = info.startedAt;
    session.stateSince = last?.t ?? null;
    this.#watchHost(session, transport.inner);
    session.bind({ driver, transport: transport.inner }, last ? stateViewOf(session.spec, last.state) : null);
    driver.start();
    this.#o.transcripts?.follow(session);
  }

  /**
   * Logs the transport's failures. A host gone for good, or a child the host could not start
   * (refused, or its exec failed after the fork), fails the session with the reason as a
   * `session.error` event (its exit follows): never a bare exit code 1.
   */
  #watchHost(session: ManagedSession, transport: HostTransport): void {
    transport.onError((error) => {
      this.#o.log?.('warn', `session ${session.id}: ${error.message}`);
      if (error instanceof HostError && error.code === 'HOST_GONE') session.fail('HOST_GONE', error.message);
      else if (error instanceof SpawnError) session.fail('SPAWN_FAILED', error.message);
    });
  }

  /** Points new runs at a live host: the supervisor replaces a host that died. */
  async #useLiveHost(): Promise<void> {
    if (!this.#o.ensureHost) return;
    try {
      this.#host = await this.#o.ensureHost();
    } catch (error) {
      throw new DaemonError('HOST_FAILED', `the PTY host is gone and a new one could not be started (${(error as Error).message}); see host.log in the runtime dir, then try again`);
    }
  }

  #driver(session: ManagedSession, transport: HostTransport | ResumedTransport, extra: { resumeFrom?: { state: string; enteredAt: number }; launchArgs?: string[] }): FsmDriver {
    const r = session.record;
    return new FsmDriver({
      spec: session.spec,
      workingDir: r.cwd,
      transport: session.input.wrap(transport),
      scheduler: new RealScheduler(),
      cols: r.cols ?? 120,
      rows: r.rows ?? 40,
      // The host's ring keeps the long history: the screen keeps what the driver reads (the
      // driver's stand-alone 2,000 rows cost 2.9 MB of cells per session at 120 columns).
      scrollback: SPEC_READ_SCROLLBACK_ROWS,
      extraArgs: [...r.args, ...(extra.launchArgs ?? [])],
      // The agent (and an MCP server it starts: `specterm mcp`) knows which session it runs in.
      extraEnv: { ...session.env, SPECTERM_SESSION_ID: r.id, SPECTERM_NODE: this.#deps.node },
      specSource: this.#o.specSource?.(session),
      resumeFrom: extra.resumeFrom,
    });
  }

  /** Starts the agent; `resume`: with the spec's resume arguments, to continue its conversation. */
  #startFresh(session: ManagedSession, resume = false): void {
    const transport = new HostTransport({ client: this.#host, target: { mode: 'spawn', id: session.id, meta: sessionMetaOf(session.record) } });
    this.#watchHost(session, transport);
    const launchArgs = this.#o.transcripts?.launchArgs(session, resume) ?? [];
    const driver = this.#driver(session, transport, { launchArgs });
    session.bind({ driver, transport }, null);
    driver.start();
    this.#o.transcripts?.follow(session);
  }

  /** Starts a new session. */
  async create(input: CreateInput): Promise<SessionDetail> {
    if (this.#sessions.size >= (this.#o.sessionLimit ?? DEFAULT_SESSION_LIMIT)) {
      throw new DaemonError('SESSION_LIMIT_REACHED', `the daemon keeps at most ${this.#o.sessionLimit ?? DEFAULT_SESSION_LIMIT} sessions (running and exited); remove exited ones (\`specterm rm <id>\`) or start the daemon with a larger --session-limit`);
    }
    if (input.name !== undefined && [...this.#sessions.values()].some((s) => s.record.name === input.name)) {
      throw new DaemonError('NAME_TAKEN', `a session named ${JSON.stringify(input.name)} exists; pick another name or remove that session`, { path: '/name' });
    }
    let isDir = false;
    try { isDir = fs.statSync(input.cwd).isDirectory(); } catch {}
    if (!isDir) throw new DaemonError('CWD_NOT_FOUND', `cwd ${JSON.stringify(input.cwd)} is not an existing directory; create it or pass another`, { path: '/cwd' });
    const labels = this.#childLabels(input.labels ?? {});
    await prescreenSpecRef(input.spec);
    const spec = loadSpec(input.spec);
    const owner = { specId: spec.spec.id, name: input.name ?? null, own: input.policy };
    await this.#policies.prepare(owner);
    const policy = this.#policies.resolve(owner);
    await this.#useLiveHost();
    const id = newSessionId();
    let cwd = input.cwd;
    let branch: string | null = null;
    let worktree: string | null = null;
    if (input.worktree) {
      const made = createWorktree(input.cwd, input.worktree.branch, id);
      cwd = made.path; branch = made.branch; worktree = made.path;
    }
    const record = this.#o.store.sessions.insert({
      id, name: input.name ?? null, specId: spec.builtinId ?? spec.spec.id, specPath: spec.path, cwd, branch, worktree,
      args: input.args, labels, envKeys: Object.keys(input.env ?? {}), cols: input.cols, rows: input.rows, policy: input.policy ?? null,
      envSealed: input.env && Object.keys(input.env).length > 0 && this.#o.envSeal ? this.#o.envSeal.seal(id, input.env) : null, createdAt: this.#now(),
    });
    const session = new ManagedSession(record, spec.spec, this.#deps, { env: input.env, policy });
    this.#sessions.set(id, session);
    // Announced before the driver starts, so subscribers see the session before its first state.
    this.#o.events.append({ type: 'session.created', session_id: id, at: this.#now(), session: session.detail() });
    this.#startFresh(session);
    return session.detail();
  }

  list(): ManagedSession[] {
    return [...this.#sessions.values()];
  }

  /** The sessions as the orchestration rules read them (./orchestration.ts). */
  lineage(): LineageSession[] {
    return this.list().map(lineageOf);
  }

  /** A child's labels (`specterm.parent` given): its depth counted here, once the limits allow it. */
  #childLabels(labels: Record<string, string>): Record<string, string> {
    const parentId = labels[PARENT_LABEL];
    if (parentId === undefined) return labels;
    const parent = this.#sessions.get(parentId);
    if (!parent) throw new DaemonError('CALLER_INVALID', `the parent session ${JSON.stringify(parentId)} (label ${PARENT_LABEL}) is not one of this daemon's sessions; leave the label out, or call from a session this daemon runs`, { path: `/labels/${PARENT_LABEL}` });
    return { ...labels, ...admitChild(lineageOf(parent), this.lineage(), this.#o.limits ?? DEFAULT_LIMITS) };
  }

  /** A session by id, or by a unique name. */
  get(idOrName: string): ManagedSession {
    const byId = this.#sessions.get(idOrName);
    if (byId) return byId;
    const named = this.list().filter((s) => s.record.name === idOrName);
    if (named.length === 1) return named[0]!;
    throw new DaemonError('SESSION_NOT_FOUND', `no session has id or name ${JSON.stringify(idOrName)}; \`specterm ls\` (or the dashboard's overview) lists them`, { path: '/id' });
  }

  /** Ends the agent; the session stays listed as exited. */
  async kill(idOrName: string): Promise<SessionDetail> {
    const session = this.get(idOrName);
    // Not `isRunning`: a re-adopted session without a driver runs too.
    if (session.record.exitedAt === null) {
      await this.#host.kill(session.id).catch(() => {});
      await this.#waitExited(session);
    }
    return session.detail();
  }

  async #waitExited(session: ManagedSession): Promise<void> {
    const deadline = Date.now() + EXIT_WAIT_MS;
    while (session.record.exitedAt === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, session.runtime ? 20 : 100));
      // No driver follows a session listed without one: ask the host.
      if (!session.runtime) await this.#syncExitFromHost(session);
    }
    if (session.record.exitedAt === null) await this.#syncExitFromHost(session);
  }

  async #syncExitFromHost(session: ManagedSession): Promise<void> {
    const info = (await this.#host.list()).find((s) => s.id === session.id);
    if (!info || !info.alive) session.markExited(info?.exitCode ?? null, info?.signal ?? null);
  }

  /** Ends the agent (if running) and starts it again with the same spec, cwd, args and env. */
  /**
   * Starts an exited session's CLI again on the same conversation (the spec's resume arguments
   * and the CLI's own id): after the host or the machine went away, the work goes on.
   */
  async resume(idOrName: string): Promise<SessionDetail> {
    const session = this.get(idOrName);
    if (session.record.exitedAt === null) throw new DaemonError('SESSION_RUNNING', `session ${session.id} is running; only an exited session is resumed`);
    if (!session.resumable || !this.#o.transcripts) {
      throw new DaemonError('SESSION_NOT_RESUMABLE', `session ${session.id} cannot be resumed: its spec (${session.spec.id}) says no resume arguments, or the CLI's conversation id was never known; restart it afresh instead (the dashboard's Restart, or POST …/restart)`);
    }
    return this.#restartWith(idOrName, true);
  }

  async restart(idOrName: string): Promise<SessionDetail> {
    return this.#restartWith(idOrName, false);
  }

  async #restartWith(idOrName: string, resume: boolean): Promise<SessionDetail> {
    const running = this.get(idOrName).driver;
    // The size it runs at now (a WS lease holder may have resized it): the new run keeps it.
    if (running) this.get(idOrName).rememberSize(running.screen.cols, running.screen.rows);
    const session = await this.#stopAndForgetInHost(idOrName);
    await this.#useLiveHost();
    session.resetForRestart();
    this.#o.store.sessions.markRestarted(session.id);
    this.#startFresh(session, resume);
    return session.detail();
  }

  async #stopAndForgetInHost(idOrName: string): Promise<ManagedSession> {
    const session = this.get(idOrName);
    if (session.record.exitedAt === null) {
      await this.#host.kill(session.id).catch(() => {});
      await this.#waitExited(session);
    }
    session.detach();
    await this.#host.remove(session.id, true).catch(() => {});
    return session;
  }

  /** Kills (if running) and forgets a session; a dirty worktree needs `force`. */
  async remove(idOrName: string, force: boolean): Promise<void> {
    const session = this.get(idOrName);
    if (session.record.worktree) removeWorktree(session.record.worktree, { force, dryRun: true });
    await this.#stopAndForgetInHost(idOrName);
    if (session.record.worktree) removeWorktree(session.record.worktree, { force, dryRun: false });
    this.#o.tracker.forget(session.id);
    this.#o.store.sessions.remove(session.id);
    this.#sessions.delete(session.id);
    this.#o.events.append({ type: 'session.removed', session_id: session.id, at: this.#now() });
  }

  /** Lets every agent go without killing it (the daemon stops; the host keeps them). */
  detachAll(): void {
    for (const session of this.#sessions.values()) session.detach();
  }
}

