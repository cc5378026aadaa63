/**
 * One session's live terminal: xterm.js 6 with unicode11 (the same cell widths as the daemon's
 * headless screen), fit, and WebGL when the browser has it (the DOM renderer otherwise, and
 * after a lost WebGL context). It consumes the `terminal/<id>` topic: a snapshot, then binary
 * frames written once each by seq, each acknowledged once xterm has parsed it.
 * Loaded on demand: the overview does not pay for xterm.
 */
import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebglAddon } from '@xterm/addon-webgl';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'preact/hooks';
import type { LiveConnection } from './live.js';
import { TerminalSeq } from './terminal-seq.js';

export type Renderer = 'webgl' | 'dom';

/** Test and debugging hook: the terminals on the page by session id (read-only use). */
export const terminals = new Map<string, { term: Terminal; renderer: () => Renderer; seq: TerminalSeq }>();
(globalThis as { specterm?: unknown }).specterm = { terminals };

function loadRenderer(term: Terminal): () => Renderer {
  let renderer: Renderer = 'dom';
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

export default function TerminalView(props: { sessionId: string; live: LiveConnection }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const term = new Terminal({ allowProposedApi: true, convertEol: false, scrollback: 5000, fontSize: 14, disableStdin: true });
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current!);
    const renderer = loadRenderer(term);
    const seq = new TerminalSeq();
    const topic = `terminal/${props.sessionId}`;
    terminals.set(props.sessionId, { term, renderer, seq });
    const ack = (bytes: number) => props.live.send({ type: 'ack', topic, bytes });
    const unsubscribe = props.live.subscribe(topic, {
      since: () => seq.next ?? undefined,
      message: (message) => {
        if (message.type !== 'snapshot') return;
        term.reset();
        term.resize(message.cols, message.rows);
        seq.snapshot(message.seq);
        term.write(message.data, () => ack(message.seq));
      },
      terminal: (frame) => {
        const verdict = seq.frame(frame.seq, frame.data);
        if (verdict.kind === 'write') term.write(verdict.data, () => ack(verdict.end));
        else if (verdict.kind === 'gap') props.live.resubscribe(topic);
      },
    });
    return () => {
      unsubscribe();
      terminals.delete(props.sessionId);
      term.dispose();
    };
  }, [props.sessionId, props.live]);
  return <div class="terminal" ref={host} role="region" aria-label="Terminal" data-terminal-for={props.sessionId} />;
}
