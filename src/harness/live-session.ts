/**
 * A live session: a spec's agent in a real PTY under the real FsmDriver (wall-clock
 * scheduler), optionally recorded as asciicast v2, with the waiting helpers tests and scripts
 * need (`waitForState`, `waitForScreen`). `specterm run`/`record`, the e2e tests and
 * `scripts/record-demo.mjs` all start agents through here.
 *
 * @module
 */
import * as path from 'node:path';
import type { CliSpecV4 } from '../core/spec/types.js';
import { loadSpecRef } from '../catalog/builtin.js';
import { FsmDriver } from '../driver/fsm-driver.js';
import { applyPreLaunchTrust, type TrustResult } from '../driver/pre-launch-trust.js';
import type { DashboardEvent, ModalView, StateView } from '../driver/events.js';
import { RealScheduler } from '../driver/schedulers.js';
import { AsciicastRecorder } from '../recording/index.js';
import { createPtyTransport, type Disposable, type ExitInfo, type PtyTransport, type SpawnRequest } from '../terminal/index.js';
import { sameChange, type StateChangeRecord } from './replay-session.js';
import { catalogSpecSource } from './spec-source.js';

/** Options of {@link startLiveSession}. Give `specRef`, or `spec` (+ `specPath` for hot reload). */
export interface LiveSessionOptions {
  /** Built-in id or path of a spec file; loaded with `{{specDir}}`/`{{packageRoot}}` substituted. */
  specRef?: string;
  spec?: CliSpecV4;
  /** The spec's file: enables hot reload (with `hotReload`) and labels messages. */
  specPath?: string;
  /** Working directory of the agent. Default `process.cwd()`. */
  cwd?: string;
  /** Appended to the spec's `spawn_args`. */
  extraArgs?: string[];
  /** Merged over the environment of the agent (e.g. a temporary `HOME`). */
  extraEnv?: Record<string, string>;
  /** Record the session to this asciicast file (mode 0600): output, input and resizes. */
  record?: string;
  cols?: number;
  rows?: number;
  /** Reload the spec when its file changes. Default false. */
  hotReload?: boolean;
  /** Apply `pre_launch_trust` before spawning. Default true. */
  applyTrust?: boolean;
  /** Home directory for `pre_launch_trust` paths. Default: `extraEnv.HOME`, else the user's home. */
  homeDir?: string;
  /**
   * Receives every driver event, `pty_data` included. Subscribed before the agent starts, so the
   * events emitted while starting (the first state, `spawn_error`) reach it too.
   */
  onEvent?: (ev: DashboardEvent) => void;
}

/** A driver event with its wall-clock offset from the start of the session. */
export interface LiveEvent {
  atMs: number;
  event: DashboardEvent;
}

/** The current state as the waiting helpers see it. */
export interface LiveView {
  state: StateView;
  modal: ModalView | null;
}

/** A running live session. */
export interface LiveSession {
  driver: FsmDriver;
  /** Every driver event except `pty_data` (kept out to bound memory), in order. */
  events: LiveEvent[];
  /** State changes, deduplicated exactly as `replaySession` does, `t` in seconds since start. */
  changes: StateChangeRecord[];
  /** The spec in force at start (hot reload may replace it; see `driver.getSpec()`). */
  spec: CliSpecV4;
  /** What pre-launch trust did to the agent's settings; null when it did not run (no spec entry, disabled, or no spawn). */
  trust: TrustResult | null;
  /** Resolves when the agent exits (or the session is stopped). */
  exited: Promise<ExitInfo>;
  /** Milliseconds since the session started. */
  elapsedMs(): number;
  /**
   * Resolves with the view once the state id equals `target` (or the predicate holds).
   * Rejects after `timeoutMs`, or when the agent exits first, with the current state and screen.
   */
  waitForState(target: string | ((view: LiveView) => boolean), timeoutMs: number): Promise<LiveView>;
  /** Resolves with the viewport text once it matches `re`; rejects like `waitForState`. */
  waitForScreen(re: RegExp, timeoutMs: number): Promise<string>;
  /** Resolves with the first event (already seen or future) matching `pred`; rejects like `waitForState`. */
  waitForEvent(pred: (ev: DashboardEvent) => boolean, timeoutMs: number): Promise<DashboardEvent>;
  /** Shuts the driver down, ends the agent, closes the recording. Resolves once the agent exited. Idempotent. */
  stop(): Promise<ExitInfo>;
}

/** Thrown by {@link startLiveSession} for a spec that cannot be loaded. */
export class LiveSessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiveSessionError';
  }
}

const POLL_MS = 25;
/** `stop()` waits this long for the agent to exit after SIGHUP/SIGKILL before giving up. */
const STOP_WAIT_MS = 5000;

/**
 * Wraps a transport so every write (`i`), output (`o`) and resize (`r`) lands in the recorder
 * (when there is one) and `beforeSpawn` runs with the exact spawn request, after planning
 * succeeded and just before the child starts.
 */
function sessionTransport(inner: PtyTransport, recorder: AsciicastRecorder | null, beforeSpawn: (req: SpawnRequest) => void): PtyTransport {
  return {
    get pid() { return inner.pid; },
    spawn: (req) => { beforeSpawn(req); return inner.spawn(req); },
    write: (data) => { recorder?.input(data); inner.write(data); },
    resize: (cols, rows) => { recorder?.resize(cols, rows); inner.resize(cols, rows); },
    kill: () => inner.kill(),
    onData: (listener) => inner.onData(listener),
    onExit: (listener) => inner.onExit(listener),
  };
}

function resolveSpec(opts: LiveSessionOptions): { spec: CliSpecV4; specPath: string | undefined } {
  if (opts.spec) return { spec: opts.spec, specPath: opts.specPath };
  if (!opts.specRef) throw new LiveSessionError('startLiveSession needs specRef or spec; pass a built-in id, a path, or a loaded spec');
  const r = loadSpecRef(opts.specRef);
  if (!r.ok) throw new LiveSessionError(r.errors.join('\n'));
  return { spec: r.spec, specPath: path.resolve(r.sourcePath) };
}

/**
 * Starts the spec's agent in a real PTY under the driver.
 *
 * @throws LiveSessionError when the spec cannot be loaded; RecordingError when the recording
 *   file cannot be created. A binary that cannot be started is reported as a `spawn_error`
 *   event (to `onEvent` and in `events`), `exited` resolves, and no recording is written.
 * @example
 * const s = startLiveSession({ specRef: 'demo-agent', extraArgs: ['--speed', '0.2'] });
 * await s.waitForState('idle', 20_000);
 * s.driver.dispatch({ kind: 'send_message', text: 'hello' });
 * await s.stop();
 */
export function startLiveSession(opts: LiveSessionOptions): LiveSession {
  const { spec, specPath } = resolveSpec(opts);
  const cols = opts.cols ?? 80;
  const rows = opts.rows ?? 24;
  const pty = createPtyTransport();
  const recorder = opts.record ? AsciicastRecorder.open(opts.record, { cols, rows, clock: () => Date.now(), timestamp: Math.floor(Date.now() / 1000), env: { TERM: 'xterm-256color' } }) : null;
  // Record output before the driver sees it: this listener must be the PTY's first. The driver
  // parses a chunk into its screen in its own listener, and under load that takes tens of ms; a
  // recorder stamped after it gave the replay later times than the live driver saw, so a replay
  // could miss a stable window the live session met (starting → idle, then no busy at all).
  const recording = recorder ? [pty.onData((chunk) => recorder.output(chunk))] : [];
  let trust: TrustResult | null = null;
  const trustCfg = opts.applyTrust === false ? undefined : spec.pre_launch_trust;
  const homeDir = opts.homeDir ?? opts.extraEnv?.HOME;
  // Trust is applied here rather than by the driver so the session can hand the structured
  // result to its caller: same moment (planning succeeded, nothing spawned yet), same child env.
  const transport = sessionTransport(pty, recorder, (req) => {
    if (trustCfg) trust = applyPreLaunchTrust(trustCfg, opts.cwd ?? process.cwd(), { homeDir, env: req.env });
  });
  const scheduler = new RealScheduler();
  const specSource = specPath ? catalogSpecSource(specPath) : undefined;
  const driver = new FsmDriver({
    spec,
    specSource,
    workingDir: opts.cwd ?? process.cwd(),
    transport,
    scheduler,
    cols,
    rows,
    extraArgs: opts.extraArgs,
    extraEnv: opts.extraEnv,
    hotReload: (opts.hotReload ?? false) && specSource !== undefined,
    applyTrust: false,
  });

  const startedAt = Date.now();
  const events: LiveEvent[] = [];
  const changes: StateChangeRecord[] = [];
  const waiters = new Set<() => void>();
  let exitInfo: ExitInfo | null = null;
  let resolveExit!: (info: ExitInfo) => void;
  const exited = new Promise<ExitInfo>((resolve) => { resolveExit = resolve; });
  const finish = (info: ExitInfo): void => {
    if (exitInfo) return;
    exitInfo = info;
    recorder?.close();
    resolveExit(info);
    for (const w of [...waiters]) w();
  };

  const subscriptions: Array<Disposable | (() => void)> = [...recording];
  if (opts.onEvent) subscriptions.push(driver.subscribe(opts.onEvent));
  subscriptions.push(driver.subscribe((ev) => {
    if (ev.kind === 'pty_data') return;
    events.push({ atMs: Date.now() - startedAt, event: ev });
    if (ev.kind === 'state_changed') {
      const rec: StateChangeRecord = { t: (Date.now() - startedAt) / 1000, state: ev.state.id, status: ev.state.status, modal: ev.modal };
      if (!sameChange(changes[changes.length - 1], rec)) changes.push(rec);
    }
    if (ev.kind === 'exit') finish({ exitCode: ev.exit_code, signal: ev.signal });
    if (ev.kind === 'spawn_error') {
      // A session that never started leaves no recording, and any file at that path as it was.
      recorder?.discard();
      finish({ exitCode: null, signal: null });
    }
    for (const w of [...waiters]) w();
  }));

  const describe = (): string => {
    const v = driver.getCurrentView();
    const state = v ? `${v.state.id} (${v.state.status})` : '(none yet)';
    let screen = '';
    try { screen = driver.snapshot(); } catch { screen = '(screen unavailable: session stopped)'; }
    return `current state: ${state}${exitInfo ? `; agent exited (code ${exitInfo.exitCode}, signal ${exitInfo.signal})` : ''}\nscreen:\n${screen.split('\n').map((l) => `  | ${l}`).join('\n')}`;
  };

  /** Polls `check` on every event and every POLL_MS until it returns a value, the timeout, or exit. */
  const waitFor = <T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<T> => {
    const caller = new Error(`waiting for ${what}`);
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const cleanup = (): void => {
        done = true;
        waiters.delete(tick);
        clearInterval(poll);
        clearTimeout(timer);
      };
      const fail = (why: string): void => {
        const msg = `${why} while waiting for ${what}\n${describe()}`;
        cleanup();
        // Keep the caller's stack: the interesting frame is the test line that waited.
        caller.message = msg;
        reject(caller);
      };
      const tick = (): void => {
        if (done) return;
        let value: T | undefined;
        try { value = check(); } catch { value = undefined; }
        if (value !== undefined) { cleanup(); resolve(value); return; }
        if (exitInfo) fail('the agent exited');
      };
      const poll = setInterval(tick, POLL_MS);
      const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
      waiters.add(tick);
      tick();
    });
  };

  const session: LiveSession = {
    driver,
    events,
    changes,
    spec,
    get trust() { return trust; },
    exited,
    elapsedMs: () => Date.now() - startedAt,
    waitForState: (target, timeoutMs) => {
      const pred = typeof target === 'string' ? (v: LiveView) => v.state.id === target : target;
      const what = typeof target === 'string' ? `state "${target}"` : 'a matching state';
      return waitFor(what, () => {
        const v = driver.getCurrentView();
        return v && pred({ state: v.state, modal: v.modal }) ? { state: v.state, modal: v.modal } : undefined;
      }, timeoutMs);
    },
    waitForScreen: (re, timeoutMs) => waitFor(`screen ${re}`, () => {
      const text = driver.snapshot();
      re.lastIndex = 0;
      return re.test(text) ? text : undefined;
    }, timeoutMs),
    waitForEvent: (pred, timeoutMs) => waitFor('an event', () => events.find((e) => pred(e.event))?.event, timeoutMs),
    stop: async () => {
      if (!exitInfo) {
        driver.shutdown();
        const timeout = new Promise<ExitInfo>((resolve) => setTimeout(() => resolve({ exitCode: null, signal: 'SIGKILL' }), STOP_WAIT_MS).unref());
        finish(await Promise.race([exitedFromPty, timeout]));
      }
      for (const s of subscriptions.splice(0)) {
        if (typeof s === 'function') s();
        else s.dispose();
      }
      recorder?.close();
      return exitInfo!;
    },
  };

  // The driver stops listening at shutdown; the PTY's own exit tells `stop()` the child is gone.
  const exitedFromPty = new Promise<ExitInfo>((resolve) => { pty.onExit(resolve); });
  driver.start();
  if (driver.isStopped() && !exitInfo) {
    recorder?.discard();
    finish({ exitCode: null, signal: null });
  }
  if (recorder && !exitInfo) {
    try {
      recorder.commit();
    } catch (err) {
      // The caller gets the error instead of a session: end the agent, keep no half-recording.
      recorder.discard();
      void session.stop();
      throw err;
    }
  }
  return session;
}
