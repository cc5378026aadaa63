/**
 * A small harness for real-PTY driver tests: it starts an `FsmDriver` on the scripted fake agent
 * (`test/fixtures/agents/fake-agent.mjs`) in a real pseudo-terminal with a `RealScheduler`, keeps
 * every driver event and every byte the driver wrote, reads the agent's `--log` file, and waits
 * for states, log lines and events without fixed sleeps. `cleanup()` always shuts down and removes
 * the temp directory, so a failing test never leaves a child behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../src/catalog/load-spec.js';
import type { CliSpecV4 } from '../../src/core/spec/types.js';
import type { DashboardEvent } from '../../src/driver/events.js';
import { FsmDriver, type FsmDriverOptions } from '../../src/driver/fsm-driver.js';
import { RealScheduler } from '../../src/driver/schedulers.js';
import { createPtyTransport, type Disposable, type ExitInfo, type PtyTransport, type PtyTransportHandle, type SpawnRequest } from '../../src/terminal/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Absolute path of the scripted agent. */
export const FAKE_AGENT = path.resolve(here, '../fixtures/agents/fake-agent.mjs');
/** Directory of the spec fixtures (`fake-agent.json` and its variants). */
export const SPEC_DIR = path.resolve(here, '../fixtures/specs');
/** Poll period for the agent's log file. */
const LOG_POLL_MS = 25;

/** One write the driver made to the PTY, with its wall-clock time. */
export interface WriteRecord {
  at: number;
  data: string;
}

/** A line of the agent's log: a received message, or one of its JSON events. */
export type AgentLogEntry = { received: string } | Record<string, unknown>;

/** Options of {@link startLiveDriver}. */
export interface LiveDriverOptions {
  /** Spec fixture file name in `test/fixtures/specs` (default `fake-agent.json`). */
  specFile?: string;
  /** Fake-agent options after `--log FILE` (e.g. `['--work-ms', '400']`). */
  agentArgs?: string[];
  /** `--startup-ms` of the agent (default 50). */
  startupMs?: number;
  cols?: number;
  rows?: number;
  /** Extra driver options (scheduler, transport and spec are the harness's). */
  driverOptions?: Partial<Omit<FsmDriverOptions, 'spec' | 'transport' | 'scheduler' | 'workingDir'>>;
  /** Start the driver at once (default true). */
  autoStart?: boolean;
}

/** A running driver on the fake agent, plus what the test needs to observe it. */
export interface LiveDriver {
  readonly driver: FsmDriver;
  readonly scheduler: RealScheduler;
  readonly transport: PtyTransportHandle;
  readonly spec: CliSpecV4;
  /** Every event the driver emitted, in order. */
  readonly events: DashboardEvent[];
  /** Every write the driver made to the PTY, in order. */
  readonly writes: WriteRecord[];
  /** Every chunk of PTY output, with its arrival time. */
  readonly output: WriteRecord[];
  readonly dir: string;
  readonly logFile: string;
  /** The child's pid, captured at spawn (it stays readable after exit). */
  pid(): number | undefined;
  start(): void;
  /** Raw log lines. */
  logLines(): string[];
  /** Parsed log lines: `{received}` for `RECEIVED:` lines, the JSON object otherwise. */
  logEntries(): AgentLogEntry[];
  /** Texts of `RECEIVED:` lines, in order. */
  received(): string[];
  /** The state ids of every `state_changed` event at or after event index `since` (default 0), in order. */
  states(since?: number): string[];
  /** Index to pass as `since` so a wait looks only at events after this point. */
  mark(): number;
  /**
   * Resolves when a `state_changed` to `id` is emitted at or after event index `since`
   * (default: any time, including the current state). Rejects after `timeoutMs`.
   */
  waitForState(id: string, timeoutMs: number, since?: number): Promise<void>;
  /** Resolves with the first event (at or after `since`) matching `pred`. */
  waitForEvent<K extends DashboardEvent['kind']>(kind: K, pred: (ev: Extract<DashboardEvent, { kind: K }>) => boolean, timeoutMs: number, since?: number): Promise<Extract<DashboardEvent, { kind: K }>>;
  /** Resolves with the parsed log once `predicate` holds for it. */
  waitForLog(predicate: (entries: AgentLogEntry[]) => boolean, timeoutMs: number, what?: string): Promise<AgentLogEntry[]>;
  /** Resolves with the value once `get()` returns something truthy (polled). `what` is read only on timeout. */
  waitFor<T>(get: () => T | undefined | null | false, timeoutMs: number, what: string | (() => string)): Promise<T>;
  /** Shuts the driver down, waits (bounded) for the child to be gone and removes the temp dir. */
  cleanup(): Promise<void>;
}

/** Loads a spec fixture through the real loader; a fixture that does not validate fails loudly. */
export function loadFixtureSpec(file: string): CliSpecV4 {
  const r = loadSpec(path.join(SPEC_DIR, file));
  if (!r.ok) throw new Error(`spec fixture ${file} does not validate:\n${r.errors.join('\n')}`);
  return r.spec;
}

/** Parses one agent log line (see the fake agent's README). */
export function parseLogLine(line: string): AgentLogEntry {
  if (line.startsWith('RECEIVED:')) return { received: JSON.parse(line.slice('RECEIVED:'.length)) as string };
  return JSON.parse(line) as Record<string, unknown>;
}

/** True when a process with this pid exists (a zombie counts until it is reaped). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else (a recycled pid); still "exists".
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Wraps a transport so every write and output chunk is recorded with its time. */
class RecordingTransport implements PtyTransport {
  constructor(private readonly inner: PtyTransportHandle, private readonly writes: WriteRecord[], private readonly output: WriteRecord[]) {}
  spawnedPid: number | undefined;
  spawn(req: SpawnRequest): void {
    this.inner.spawn(req);
    this.spawnedPid = this.inner.pid;
  }
  write(data: string): void {
    this.writes.push({ at: Date.now(), data });
    this.inner.write(data);
  }
  resize(cols: number, rows: number): void { this.inner.resize(cols, rows); }
  kill(): void { this.inner.kill(); }
  /** Output is recorded before the listener (the driver) sees it, so its times never lag the driver's. */
  onData(listener: (chunk: string) => void): Disposable {
    return this.inner.onData((chunk) => {
      this.output.push({ at: Date.now(), data: chunk });
      listener(chunk);
    });
  }
  onExit(listener: (info: ExitInfo) => void): Disposable { return this.inner.onExit(listener); }
  get pid(): number | undefined { return this.inner.pid; }
}

/** Sleeps on a plain timer (not the driver's scheduler, so it never counts as a driver timer). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts a driver on the fake agent. The agent's log goes to a fresh temp directory, which is
 * also the working directory.
 *
 * @example
 * const live = startLiveDriver({ agentArgs: ['--work-ms', '400'] });
 * try { await live.waitForState('idle', 10_000); } finally { await live.cleanup(); }
 */
export function startLiveDriver(opts: LiveDriverOptions = {}): LiveDriver {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-live-')));
  const logFile = path.join(dir, 'agent.log');
  const spec = loadFixtureSpec(opts.specFile ?? 'fake-agent.json');
  const scheduler = new RealScheduler();
  const events: DashboardEvent[] = [];
  const writes: WriteRecord[] = [];
  const output: WriteRecord[] = [];
  const inner = createPtyTransport({ killGraceMs: 1000 });
  const transport = new RecordingTransport(inner, writes, output);
  const driver = new FsmDriver({
    spec,
    workingDir: dir,
    transport,
    scheduler,
    cols: opts.cols ?? 80,
    rows: opts.rows ?? 24,
    extraArgs: [FAKE_AGENT, '--log', logFile, '--startup-ms', String(opts.startupMs ?? 50), ...(opts.agentArgs ?? [])],
    // The child inherits the test's environment (PATH finds node); TERM is fixed for stable output.
    extraEnv: { TERM: 'xterm-256color' },
    applyTrust: false,
    ...opts.driverOptions,
  });
  const waiters = new Set<() => void>();
  driver.subscribe((ev) => {
    events.push(ev);
    for (const w of [...waiters]) w();
  });

  const logLines = (): string[] => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : []);
  const logEntries = (): AgentLogEntry[] => logLines().map(parseLogLine);

  /** Resolves when `check()` returns a value; re-checked on every driver event. */
  const waitOnEvents = <T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const first = check();
      if (first !== undefined) { resolve(first); return; }
      const onEvent = (): void => {
        const v = check();
        if (v === undefined) return;
        clearTimeout(timer);
        waiters.delete(onEvent);
        resolve(v);
      };
      const timer = setTimeout(() => {
        waiters.delete(onEvent);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`));
      }, timeoutMs);
      waiters.add(onEvent);
    });

  const live: LiveDriver = {
    driver, scheduler, transport: inner, spec, events, writes, output, dir, logFile,
    pid: () => transport.spawnedPid,
    start: () => driver.start(),
    logLines,
    logEntries,
    received: () => logEntries().flatMap((e) => ('received' in e && typeof e.received === 'string' ? [e.received] : [])),
    states: (since = 0) => events.slice(since).flatMap((e) => (e.kind === 'state_changed' ? [e.state.id] : [])),
    mark: () => events.length,
    waitForState: async (id, timeoutMs, since) => {
      await waitOnEvents(() => {
        if (since === undefined && driver.getCurrentView()?.state.id === id) return true;
        return events.some((e, i) => i >= (since ?? 0) && e.kind === 'state_changed' && e.state.id === id) ? true : undefined;
      }, timeoutMs, () => `state "${id}" (states so far: ${live.states().join(' → ') || 'none'}; screen:\n${driver.snapshot()}\n; agent log:\n${logLines().join('\n')})`);
    },
    waitForEvent: (kind, pred, timeoutMs, since = 0) => waitOnEvents(() => {
      for (let i = since; i < events.length; i++) {
        const e = events[i]!;
        if (e.kind === kind && pred(e as Extract<DashboardEvent, { kind: typeof kind }>)) return e as Extract<DashboardEvent, { kind: typeof kind }>;
      }
      return undefined;
    }, timeoutMs, () => `a "${kind}" event (events so far: ${events.filter((e) => e.kind !== 'pty_data').map((e) => JSON.stringify(e)).join('\n')})`),
    waitForLog: (predicate, timeoutMs, what = 'the agent log to match') => live.waitFor(() => {
      const entries = logEntries();
      return predicate(entries) ? entries : undefined;
    }, timeoutMs, () => `${what} (log:\n${logLines().join('\n')})`),
    waitFor: async (get, timeoutMs, what) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = get();
        if (v) return v;
        if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
        await pause(LOG_POLL_MS);
      }
    },
    cleanup: async () => {
      driver.shutdown();
      const pid = transport.spawnedPid;
      if (pid !== undefined) {
        // SIGHUP then SIGKILL after the 1 s grace: the child is gone well within 10 s.
        const deadline = Date.now() + 10_000;
        while (processExists(pid) && Date.now() < deadline) await pause(LOG_POLL_MS);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  if (opts.autoStart !== false) driver.start();
  return live;
}
