/**
 * One session's live terminal: xterm.js 6 with unicode11 (the same cell widths as the daemon's
 * headless screen), fit, and WebGL when the browser draws it on a GPU (the DOM renderer
 * otherwise — software WebGL is slower than the DOM, gpu-webgl.ts — and after a lost context). It consumes the `terminal/<id>` topic: a snapshot, then binary
 * frames written once each by seq, each acknowledged once xterm has parsed it.
 *
 * Size: the child has one size for everybody. The viewer holding the controller lease
 * (`controlsSize`) resizes the child to fit its own screen; every other viewer keeps the
 * child's cols × rows and scales its font so the picture fits its own width. Keystrokes go to
 * the child only while `input` is on (the toggle, which needs the input scope).
 * Loaded on demand: the overview does not pay for xterm.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebglAddon } from '@xterm/addon-webgl';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'preact/hooks';
import { pageHasGpuWebgl2 } from './gpu-webgl.js';
import type { LiveConnection } from './live.js';
import { TerminalSeq } from './terminal-seq.js';

export type Renderer = 'webgl' | 'dom';

/** Test and debugging hook: the terminals on the page by session id (read-only use). */
export const terminals = new Map<string, { term: Terminal; renderer: () => Renderer; seq: TerminalSeq }>();
Object.assign(((globalThis as { specterm?: object }).specterm ??= {}), { terminals });

/** The font size a terminal starts at and the smallest a viewer scales it down to. */
const FONT_PX = 14;
const MIN_FONT_PX = 6;
/**
 * xterm's default palette with ANSI 8 ("bright black", the grey CLIs use for hints and
 * descriptions) lifted from #666666 (3.7:1 on the black background) to 5.3:1, so hint text meets
 * WCAG AA. The DOM renderer draws cells as text the browser (and axe) can read, so this shows.
 */
const THEME = { brightBlack: '#808080' };
/**
 * xterm's own default stack behind our symbols font (styles.css `@font-face`): it covers only
 * the symbols agent CLIs draw that systems often lack (⏺ ⎿ ✻ ❯ …), so letters keep the
 * system's monospace face.
 */
const FONT_FAMILY = '"specterm symbols", courier-new, courier, monospace';
/** Window resizes come in bursts while a window is dragged: one fit per burst. */
const RESIZE_SETTLE_MS = 150;

function loadRenderer(term: Terminal): () => Renderer {
  let renderer: Renderer = 'dom';
  if (!pageHasGpuWebgl2()) return () => renderer;
  try {
    const webgl = new WebglAddon();
    webgl.onContextLoss(() => { webgl.dispose(); renderer = 'dom'; });
    term.loadAddon(webgl);
    renderer = 'webgl';
  } catch {
    renderer = 'dom'; // no WebGL2 here: xterm keeps its DOM renderer
  }
  return () => renderer;
}

/** Scales the font so the child's cols fit the host's width (a viewer without the lease). */
function fitFontToWidth(term: Terminal, host: HTMLElement): void {
  const screen = host.querySelector<HTMLElement>('.xterm-screen');
  const size = term.options.fontSize ?? FONT_PX;
  if (!screen || screen.offsetWidth === 0 || host.clientWidth === 0) return;
  const wanted = Math.max(MIN_FONT_PX, Math.min(FONT_PX, Math.floor(size * host.clientWidth / screen.offsetWidth)));
  if (wanted !== size) term.options.fontSize = wanted;
}

export interface TerminalViewProps {
  sessionId: string;
  live: LiveConnection;
  /** Keystrokes typed into the terminal go to the child. */
  input: boolean;
  /** This viewer holds the controller lease: it sizes the child to its own screen. */
  controlsSize: boolean;
}

export default function TerminalView(props: TerminalViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const parts = useRef<{ term: Terminal; fit: FitAddon } | null>(null);
  const inputOn = useRef(props.input);
  const controls = useRef(props.controlsSize);

  useEffect(() => {
    const term = new Terminal({ allowProposedApi: true, convertEol: false, scrollback: 5000, fontSize: FONT_PX, fontFamily: FONT_FAMILY, theme: THEME, disableStdin: !inputOn.current });
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current!);
    parts.current = { term, fit };
    const seq = new TerminalSeq();
    const topic = `terminal/${props.sessionId}`;
    let renderer: () => Renderer = () => 'dom';
    terminals.set(props.sessionId, { term, renderer: () => renderer(), seq });
    const ack = (bytes: number) => props.live.send({ type: 'ack', topic, bytes });
    const typed = term.onData((data) => { if (inputOn.current) props.live.send({ type: 'input', session_id: props.sessionId, data }); });
    const unsubscribe = props.live.subscribe(topic, {
      since: () => seq.next ?? undefined,
      message: (message) => {
        if (message.type !== 'snapshot') return;
        term.reset();
        term.options.fontSize = FONT_PX;
        term.resize(message.cols, message.rows);
        seq.snapshot(message.seq);
        term.write(message.data, () => {
          ack(message.seq);
          if (!controls.current) fitFontToWidth(term, host.current!);
        });
      },
      terminal: (frame) => {
        const verdict = seq.frame(frame.seq, frame.data);
        if (verdict.kind === 'write') term.write(verdict.data, () => ack(verdict.end));
        else if (verdict.kind === 'gap') props.live.resubscribe(topic);
      },
    });
    // After the subscription went out: the renderer's set-up (a WebGL context; slow in software
    // GL) overlaps the snapshot's round trip instead of delaying it.
    renderer = loadRenderer(term);
    // The symbols font loads on first use; a GPU renderer caches glyphs drawn before it came.
    void document.fonts.load(`${FONT_PX}px ${FONT_FAMILY}`, '\u23fa').then(() => { if (parts.current?.term === term) term.clearTextureAtlas(); }, () => {});
    let settle: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(settle);
      settle = setTimeout(() => sizeTo(props, parts.current, host.current, controls.current), RESIZE_SETTLE_MS);
    };
    addEventListener('resize', onResize);
    return () => {
      removeEventListener('resize', onResize);
      clearTimeout(settle);
      typed.dispose();
      unsubscribe();
      terminals.delete(props.sessionId);
      parts.current = null;
      term.dispose();
    };
  }, [props.sessionId, props.live]);

  useEffect(() => {
    inputOn.current = props.input;
    if (parts.current) parts.current.term.options.disableStdin = !props.input;
  }, [props.input]);

  useEffect(() => {
    controls.current = props.controlsSize;
    sizeTo(props, parts.current, host.current, props.controlsSize);
  }, [props.controlsSize]);

  return <div class={`terminal${props.input ? ' terminal-input' : ''}`} ref={host} role="region" aria-label="Terminal" data-terminal-for={props.sessionId} />;
}

/** The lease holder resizes the child to what fits here; any other viewer scales its font. */
function sizeTo(props: TerminalViewProps, parts: { term: Terminal; fit: FitAddon } | null, host: HTMLElement | null, controlsSize: boolean): void {
  if (!parts || !host) return;
  if (!controlsSize) return fitFontToWidth(parts.term, host);
  parts.term.options.fontSize = FONT_PX;
  const size = parts.fit.proposeDimensions();
  if (!size || !Number.isFinite(size.cols) || !Number.isFinite(size.rows)) return;
  const cols = Math.max(20, Math.min(500, size.cols));
  const rows = Math.max(5, Math.min(200, size.rows));
  if (cols !== parts.term.cols || rows !== parts.term.rows) props.live.send({ type: 'resize', session_id: props.sessionId, cols, rows });
}
