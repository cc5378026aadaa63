/**
 * Running an agent in the user's own terminal (`specterm run` / `specterm record`): keystrokes
 * and paste pass through raw, resizes pass through, the child gets rows−1 and the last row is
 * the status bar. The terminal is restored on every way out: the child's exit, a signal to
 * specterm, an uncaught error, or `process.exit`.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { constants as osConstants } from 'node:os';
import type { DashboardEvent } from '../driver/events.js';
import { findBinary, isBinaryNotFound, isExecutableFile } from '../driver/find-binary.js';
import type { TrustResult } from '../driver/pre-launch-trust.js';
import { startLiveSession, type LiveSession } from '../harness/live-session.js';
import { RecordingError } from '../recording/index.js';
import type { ExitInfo } from '../terminal/index.js';
import { CliUsageError, EXIT_SPAWN_FAILED } from './errors.js';
import type { CliIo } from './io.js';
import { loadSpecArg } from './spec-arg.js';
import { describeModalKeys, StatusBarScreen, type StatusBarContent } from './status-bar.js';
import { chooseTerminalSize } from './terminal-size.js';

/** Redraw the bar at most this often while the child prints (it may have erased it). */
const BAR_REDRAW_THROTTLE_MS = 50;
/** How long a "spec reloaded" / "spec error" message stays in the bar. */
const BAR_MESSAGE_MS = 4000;
/** Signals that end specterm (after ending the child and restoring the terminal). */
const ENDING_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/** What `run` and `record` pass in. */
export interface InteractiveOptions {
  command: 'run' | 'record';
  specRef: string;
  cwd?: string;
  record?: string;
  applyTrust: boolean;
  /** `--binary PATH`: the agent's executable instead of the spec's `binary`. */
  binary?: string;
  extraArgs: string[];
}

/** Exit code of specterm for the child's exit: its code, or 128 + the signal number. */
export function exitCodeFor(info: ExitInfo): number {
  if (info.exitCode !== null) return info.exitCode;
  const n = info.signal ? (osConstants.signals as Record<string, number>)[info.signal] : undefined;
  return n !== undefined ? 128 + n : 1;
}

/** Raises a desktop notification with `notify-send` when it is installed; never through a shell. */
function desktopNotifier(): ((title: string, body: string) => void) | null {
  const hit = findBinary('notify-send');
  if (isBinaryNotFound(hit)) return null;
  return (title, body) => {
    try {
      const child = spawn(hit.path, ['--app-name=specterm', '--', title, body], { stdio: 'ignore', detached: true, shell: false });
      child.on('error', () => { /* a failed notification must not disturb the session */ });
      child.unref();
    } catch {
      // Same: notifications are best effort.
    }
  };
}

function checkDirectory(command: string, dir: string): string {
  const abs = path.resolve(dir);
  let ok = false;
  try { ok = fs.statSync(abs).isDirectory(); } catch { ok = false; }
  if (!ok) throw new CliUsageError(command, `--cwd ${dir}: not an existing directory; pass the folder the agent should work in`, 'CLI_BAD_VALUE');
  return abs;
}

/** `--binary PATH` made absolute (against the current directory) and checked to be an executable file. */
function checkBinary(command: string, given: string, cwd: string): string {
  const abs = path.resolve(cwd, given);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new CliUsageError(command, `--binary ${given}: no such file; pass the path of the agent's executable`, 'CLI_BAD_VALUE');
  }
  if (!st.isFile()) throw new CliUsageError(command, `--binary ${given}: not a file; pass the path of the agent's executable`, 'CLI_BAD_VALUE');
  if (!isExecutableFile(abs)) throw new CliUsageError(command, `--binary ${given}: not executable; run \`chmod +x ${abs}\` or pass another file`, 'CLI_BAD_VALUE');
  return abs;
}

/**
 * The line `run` prints for a trust outcome that changed, or refused to change, a settings
 * file; null when there is nothing to say (already trusted, or nothing configured).
 */
export function describeTrustOutcome(r: TrustResult): string | null {
  switch (r.status) {
    case 'added':
      return `pre-launch trust: marked ${r.path ?? 'the folder'} as trusted in ${r.file ?? 'the agent\'s settings'} (so the agent does not ask); pass --no-trust to leave its settings alone`;
    case 'already':
      return null;
    case 'skipped':
    case 'error':
      if (!r.file && r.status === 'skipped') return null; // nothing configured: no file involved
      return `pre-launch trust: ${r.message ?? `${r.file} was left untouched`}${r.status === 'error' ? ' (the agent may ask whether to trust the folder)' : ''}`;
  }
}

/**
 * Runs the agent until it exits and resolves to specterm's exit code.
 *
 * @throws CliUsageError for a bad spec, a bad `--cwd` or an uncreatable recording.
 */
export async function runInteractive(opts: InteractiveOptions, io: CliIo): Promise<number> {
  const spec = loadSpecArg(opts.command, opts.specRef, io.cwd);
  const cwd = checkDirectory(opts.command, opts.cwd ? path.resolve(io.cwd, opts.cwd) : io.cwd);
  const binary = opts.binary === undefined ? undefined : checkBinary(opts.command, opts.binary, io.cwd);
  const stdout = process.stdout;
  const stdin = process.stdin;
  const tty = stdout.isTTY === true;
  const size = chooseTerminalSize({ isTTY: tty, columns: stdout.columns, rows: stdout.rows }, io.env);
  if (size.note) io.stderr.write(`specterm ${opts.command}: ${size.note}\n`);
  const { cols, rows } = size;
  const content: StatusBarContent = { state: null, modal: null, specId: spec.spec.id, message: null };
  const out = (data: string): void => { stdout.write(data); };
  const bar = tty ? new StatusBarScreen(out, cols, rows, content) : null;
  const childRows = bar ? bar.childRows : rows;
  // Built-in specs are checked by their own tests; for a user's file one line points at the details.
  if (spec.warnings.length && !spec.builtinId) {
    io.stderr.write(`specterm: ${opts.specRef} has ${spec.warnings.length} warning(s); run \`specterm validate ${opts.specRef}\` for details\n`);
  }

  // ── Child → terminal ───────────────────────────────────────────────
  // Defined before the session starts: the events emitted while starting (the first state, a
  // spawn_error) reach this listener too.
  let restored = false;
  let redrawTimer: ReturnType<typeof setTimeout> | null = null;
  let messageTimer: ReturnType<typeof setTimeout> | null = null;
  let spawnError: string | null = null;
  const startedAt = Date.now();
  const notify = desktopNotifier();
  const showMessage = (message: string): void => {
    content.message = message;
    bar?.update(content);
    if (messageTimer) clearTimeout(messageTimer);
    messageTimer = setTimeout(() => { content.message = null; bar?.update(content); }, BAR_MESSAGE_MS);
  };
  const log = (line: string): void => { if (!bar) io.stderr.write(`specterm: [${((Date.now() - startedAt) / 1000).toFixed(3)}s] ${line}\n`); };
  const onEvent = (ev: DashboardEvent): void => {
    switch (ev.kind) {
      case 'pty_data':
        out(ev.chunk);
        if (bar && bar.childOutput(ev.chunk) && redrawTimer === null) {
          redrawTimer = setTimeout(() => { redrawTimer = null; if (!restored) bar.draw(); }, BAR_REDRAW_THROTTLE_MS);
        }
        break;
      case 'state_changed':
        content.state = ev.state;
        content.modal = ev.modal;
        bar?.update(content);
        log(`state ${ev.state.id} "${ev.state.label}" (${ev.state.status})${ev.modal ? ` modal ${JSON.stringify(ev.modal.title)}: ${describeModalKeys(ev.modal, Infinity)}` : ''}`);
        break;
      case 'notification':
        if (tty) out('\x07');
        notify?.(ev.title, ev.body);
        log(`notification ${ev.title}${ev.body ? `: ${ev.body}` : ''}`);
        break;
      case 'spec_reloaded':
        showMessage(`spec reloaded${ev.warnings.length ? ` (${ev.warnings.length} warning(s))` : ''}`);
        log('spec reloaded');
        break;
      case 'spec_error':
        showMessage(`spec error, old spec kept: ${ev.errors[0] ?? ''}`);
        log(`spec error (the old spec stays in force): ${ev.errors.join('; ')}`);
        break;
      case 'spawn_error':
        spawnError = ev.message;
        break;
      case 'version_unproven':
        showMessage(ev.verdict === 'outside' ? `${spec.spec.id} ${ev.found ?? '?'} is not a proven version (${ev.range}): states may be wrong` : `CLI version unreadable (${ev.reason ?? 'no version'}): states may be wrong`);
        log(`version_unproven: found ${ev.found ?? 'none'}, proven range ${ev.range}${ev.reason ? ` (${ev.reason})` : ''}`);
        break;
      case 'spec_drift':
        showMessage(`spec drift: a prompt the spec does not know? (${ev.state})${ev.frame_file ? ` frame: ${ev.frame_file}` : ''}`);
        log(`spec_drift in ${ev.state} (${ev.status}) for ${ev.since_ms} ms: ${ev.reason} ${JSON.stringify(ev.rows)}${ev.frame_file ? ` — frame saved to ${ev.frame_file}` : ''}`);
        break;
      default:
        break;
    }
  };

  let session: LiveSession;
  try {
    session = startLiveSession({
      spec: binary === undefined ? spec.spec : { ...spec.spec, binary },
      specPath: spec.path,
      cwd,
      extraArgs: opts.extraArgs,
      record: opts.record ? path.resolve(io.cwd, opts.record) : undefined,
      cols,
      rows: childRows,
      hotReload: true,
      applyTrust: opts.applyTrust,
      onEvent,
    });
  } catch (err) {
    if (err instanceof RecordingError) throw new CliUsageError(opts.command, err.message, 'CLI_RECORDING_UNWRITABLE');
    throw err;
  }
  // Before the agent draws anything over it: what was done to the user's settings, or why not.
  const trustLine = session.trust ? describeTrustOutcome(session.trust) : null;
  if (trustLine) io.stderr.write(`specterm ${opts.command}: ${trustLine}\n`);

  // ── Terminal restoration, on every path ────────────────────────────
  const rawMode = stdin.isTTY === true;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    // Writes to a TTY are synchronous in Node, so this also works inside an 'exit' handler.
    bar?.uninstall();
    if (rawMode) {
      try { stdin.setRawMode(false); } catch { /* stdin already closed */ }
    }
  };
  const onProcessExit = (): void => restore();
  const onCrash = (err: unknown): void => {
    restore();
    try { fs.writeSync(2, `specterm: internal error: ${err instanceof Error ? err.message : String(err)}\n`); } catch { /* stderr gone */ }
    session.driver.shutdown();
    process.exit(70);
  };
  process.on('exit', onProcessExit);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  // ── Terminal → child ───────────────────────────────────────────────
  const onInput = (data: string | Buffer): void => {
    session.driver.dispatch({ kind: 'pty_write', data: typeof data === 'string' ? data : data.toString('utf8') });
  };
  if (rawMode) stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onInput);
  stdin.resume();
  const onResize = (): void => {
    // A terminal resized to 0×0 keeps the fallback rather than crashing the session.
    const { cols: c, rows: r } = chooseTerminalSize({ isTTY: true, columns: stdout.columns, rows: stdout.rows }, io.env);
    bar?.resize(c, r);
    session.driver.dispatch({ kind: 'resize', cols: c, rows: bar ? bar.childRows : r });
  };
  if (tty) stdout.on('resize', onResize);
  // With raw mode ^C is a byte for the child; a SIGINT from elsewhere is passed on the same way.
  const onSigint = (): void => { session.driver.dispatch({ kind: 'pty_write', data: '\x03' }); };
  process.on('SIGINT', onSigint);
  let endedBySignal: number | null = null;
  const signalHandlers = ENDING_SIGNALS.map((sig) => {
    const handler = (): void => {
      endedBySignal = 128 + ((osConstants.signals as Record<string, number>)[sig] ?? 0);
      void session.stop();
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });

  bar?.install();
  const info = await session.exited;
  await session.stop();

  // ── Tear down ───────────────────────────────────────────────────────
  if (redrawTimer) clearTimeout(redrawTimer);
  if (messageTimer) clearTimeout(messageTimer);
  stdin.off('data', onInput);
  stdin.pause();
  if (tty) stdout.off('resize', onResize);
  process.off('SIGINT', onSigint);
  for (const [sig, handler] of signalHandlers) process.off(sig, handler);
  restore();
  process.off('exit', onProcessExit);
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);

  if (spawnError) {
    io.stderr.write(`specterm ${opts.command}: cannot start the agent of spec ${spec.spec.id}: ${spawnError}\n`);
    return EXIT_SPAWN_FAILED;
  }
  if (opts.record) io.stderr.write(`specterm: recording written to ${opts.record}\n`);
  return endedBySignal ?? exitCodeFor(info);
}
