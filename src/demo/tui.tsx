/**
 * Runs the Demo Agent on a real terminal: raw-mode stdin through the key decoder into the
 * session, a 100 ms clock tick, the Ink renderer, the window title, terminal modes
 * (bracketed paste, focus reporting) and their restoration on every exit path.
 * @module
 */
import { render } from 'ink';
import { App, type StdoutWriterRef } from './app.js';
import { createKeyDecoder } from './key-decoder.js';
import { DemoSession, FRAME_MS, type DemoSessionOptions, type SessionEffect } from './session.js';
import { addTrustedFolder } from './trust-store.js';

/** How long a lone ESC waits for the rest of an escape sequence before it counts as Escape. */
const ESCAPE_FLUSH_MS = 40;
/** Resize events arrive in bursts while a window is dragged; repaint once they settle. */
const RESIZE_SETTLE_MS = 60;

const BRACKETED_PASTE_ON = '\u001b[?2004h';
const BRACKETED_PASTE_OFF = '\u001b[?2004l';
const FOCUS_REPORTING_ON = '\u001b[?1004h';
const FOCUS_REPORTING_OFF = '\u001b[?1004l';
const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';

/** Everything the terminal runner needs beyond the session options. */
export interface TuiOptions extends DemoSessionOptions {
  settingsPath: string;
}

function setTitle(title: string): void {
  process.stdout.write(`\u001b]0;${title}\u0007`);
}

/** Runs the TUI until the user exits; resolves with the process exit code. */
export function runTui(options: TuiOptions): Promise<number> {
  const { stdin, stdout } = process;
  const enableFocus = options.focusGated || options.freezeOnFocusLoss;
  return new Promise<number>((resolve) => {
    let finished = false;
    // Assigned once Ink renders (last); `finish` may run earlier, e.g. on a signal.
    const ink: { instance?: ReturnType<typeof render> } = {};
    const timers: Array<ReturnType<typeof setTimeout>> = [];

    const finish = (code: number): void => {
      if (finished) return;
      finished = true;
      clearInterval(tick);
      for (const timer of timers) clearTimeout(timer);
      stdin.off('data', onData);
      stdout.off('resize', onResize);
      for (const [signal] of SIGNALS) process.off(signal, onSignal);
      ink.instance?.unmount();
      // Restore the terminal exactly as we found it: modes off, cooked input, cursor shown.
      stdout.write(BRACKETED_PASTE_OFF + (enableFocus ? FOCUS_REPORTING_OFF : '') + '\u001b[?25h');
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
      resolve(code);
    };

    const onEffect = (effect: SessionEffect): void => {
      if (effect.type === 'exit') {
        // Let the current input batch finish rendering before tearing down.
        setImmediate(() => finish(effect.code));
      } else if (effect.type === 'trust-accepted') {
        const result = addTrustedFolder(options.settingsPath, options.cwd);
        if (!result.ok) setImmediate(() => session.addNotice(`Could not save folder trust: ${result.error}`, 'error'));
      } else if (writer.current !== undefined) {
        // Through Ink: it erases its live area, writes the bytes, then repaints the live area,
        // so the screen is never left blank when the next frame happens to be identical.
        writer.current(CLEAR_SCREEN);
      } else {
        stdout.write(CLEAR_SCREEN);
      }
    };

    const writer: StdoutWriterRef = { current: undefined };
    const session = new DemoSession(options, onEffect);
    const decoder = createKeyDecoder();
    let escapeTimer: ReturnType<typeof setTimeout> | undefined;
    const onData = (chunk: Buffer | string): void => {
      if (escapeTimer !== undefined) clearTimeout(escapeTimer);
      session.handleInput(decoder.push(chunk.toString()));
      if (decoder.hasPending()) {
        escapeTimer = setTimeout(() => session.handleInput(decoder.flush()), ESCAPE_FLUSH_MS);
        timers.push(escapeTimer);
      }
    };

    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    const onResize = (): void => {
      if (resizeTimer !== undefined) clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => session.redraw(), RESIZE_SETTLE_MS);
      timers.push(resizeTimer);
    };

    const SIGNALS: Array<[NodeJS.Signals, number]> = [['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130]];
    const onSignal = (signal: NodeJS.Signals): void => {
      finish(SIGNALS.find(([s]) => s === signal)?.[1] ?? 1);
    };
    for (const [signal] of SIGNALS) process.on(signal, onSignal);

    let lastTitle = '';
    session.subscribe(() => {
      const { title } = session.getView();
      if (title !== lastTitle && !finished) {
        lastTitle = title;
        setTitle(title);
      }
    });

    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      session.advance(now - last);
      last = now;
    }, FRAME_MS);

    // Raw mode and the stdin listener come before the first frame so that nothing a
    // launcher writes right after our first output (e.g. a focus-in) is echoed or lost.
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    stdout.on('resize', onResize);
    stdout.write(BRACKETED_PASTE_ON + (enableFocus ? FOCUS_REPORTING_ON : ''));
    lastTitle = session.getView().title;
    setTitle(lastTitle);
    ink.instance = render(<App session={session} writer={writer} />, { exitOnCtrlC: false, patchConsole: false, stdin, stdout });
  });
}
