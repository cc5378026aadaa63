/**
 * "Why is it (not) idle here?": replays a recording up to one instant and reports what the
 * driver saw there — the screen (the guard frame's viewport, with frame line numbers), the
 * resolved sections, the current state and its age, and every outgoing transition with its
 * per-condition results, matched text and countdowns. Used by `specterm explain` and by the
 * spec tests to show the first mismatch.
 *
 * @module
 */
import type { CliSpecV4 } from '../core/spec/types.js';
import type { CondResult, Cursor, ResolvedSection, TransitionEval } from '../core/eval/types.js';
import { buildGuardFrame, GUARD_FRAME_SCROLLBACK_LINES } from '../core/screen/guard-frame.js';
import type { ModalView } from '../driver/events.js';
import type { Asciicast } from '../recording/index.js';
import { toReplayMs } from '../recording/index.js';
import { replaySession } from './replay-session.js';

/** Everything `specterm explain` prints, as data. */
export interface Explanation {
  /** The instant explained, ms of recording time. */
  atMs: number;
  /** Time of the recording's last event (ms). */
  endMs: number;
  state: string;
  label: string;
  status: string;
  stateAgeMs: number;
  modal: ModalView | null;
  /** Screen geometry at that instant. */
  cols: number;
  rows: number;
  /** The guard frame (viewport + bounded scrollback) the guards evaluated. */
  frameLines: string[];
  /** First frame row of the live viewport. */
  viewportStartRow: number;
  /** Cursor in frame coordinates. */
  cursor: Cursor;
  sections: ResolvedSection[];
  transitions: TransitionEval[];
  /** What the user typed during the 5 s before the instant (recording `i` events). */
  recentInputs: Array<{ atMs: number; data: string }>;
}

/** Options for {@link explainReplayAt}. */
export interface ExplainOptions {
  cast: Asciicast;
  spec: CliSpecV4;
  specPath?: string;
  /** Recording time to stop at (ms). */
  atMs: number;
}

const RECENT_INPUT_WINDOW_MS = 5000;

/** Time of the last event of `cast`, in whole replay milliseconds. */
export function recordingEndMs(cast: Asciicast): number {
  const last = cast.events[cast.events.length - 1];
  return last ? toReplayMs(last.t) : 0;
}

/** Replays `cast` under `spec` until `atMs` and captures the driver's view of that instant. */
export function explainReplayAt(opts: ExplainOptions): Explanation {
  const r = replaySession({ cast: opts.cast, spec: opts.spec, specPath: opts.specPath, untilMs: opts.atMs });
  try {
    const { driver } = r;
    const debug = driver.getFsmDebug();
    const view = driver.getCurrentView();
    const viewport = driver.snapshot().split('\n');
    const all = driver.getScreenWithScrollback().split('\n');
    // The same frame the driver's guards saw (viewport + up to 200 scrollback lines).
    const frame = buildGuardFrame(viewport, all.slice(-(viewport.length + GUARD_FRAME_SCROLLBACK_LINES)), driver.getCursorPosition());
    const recentInputs = r.transport.recordedInputs
      .filter((i) => i.t <= opts.atMs && i.t >= opts.atMs - RECENT_INPUT_WINDOW_MS)
      .map((i) => ({ atMs: i.t, data: i.data }));
    return {
      atMs: opts.atMs,
      endMs: r.endMs,
      state: debug.currentState,
      label: debug.label,
      status: debug.status,
      stateAgeMs: debug.stateAgeMs,
      modal: view?.modal ?? null,
      cols: r.resizes.at(-1)?.cols ?? r.transport.cols,
      rows: r.resizes.at(-1)?.rows ?? r.transport.rows,
      frameLines: frame.lines,
      viewportStartRow: frame.viewportStartRow,
      cursor: frame.cursor,
      sections: debug.sections,
      transitions: debug.transitions,
      recentInputs,
    };
  } finally {
    r.driver.shutdown();
  }
}

/** Seconds with millisecond precision: `12.345`. */
export function formatSeconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** `"Bash command" — 1 Yes · 2 Yes, and don't ask… · 3 No (approval)`; `-` for no modal. */
export function summarizeModal(modal: ModalView | null, maxLabel = 40): string {
  if (!modal) return '-';
  const buttons = modal.buttons.map((b) => `${b.index} ${truncate(b.label, maxLabel)}`).join(' · ');
  const title = modal.title === null ? '(no title)' : JSON.stringify(modal.title);
  return `${title} — ${buttons || '(no buttons)'}${modal.kind ? ` (${modal.kind})` : ''}`;
}

/** Shortens `text` to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

function visible(data: string): string {
  return data.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\x1b' ? '\\e' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

function formatCondition(c: CondResult, depth: number, out: string[]): void {
  const countdown = c.remainingMs !== undefined && c.remainingMs > 0 ? ` (${c.remainingMs} ms left)` : '';
  const matched = c.matchedText ? ` matched ${JSON.stringify(c.matchedText)}` : '';
  out.push(`${'  '.repeat(depth)}${c.result ? '✓' : '✗'} ${c.kind}: ${c.detail}${countdown}${matched}`);
  for (const child of c.children ?? []) formatCondition(child, depth + 1, out);
}

/** One transition row plus its indented condition tree. */
export function formatTransition(t: TransitionEval): string[] {
  const hold = t.holdSatisfied ? 'hold ok' : `hold ${t.holdRemainingMs} ms left`;
  const verdict = t.fires ? 'FIRES' : !t.eligible ? 'not eligible' : t.condResult ? `guard true, ${hold}` : 'guard false';
  const out = [`  → ${t.to}  "${t.label}"  priority ${t.priority}  [${verdict}]`];
  if (t.cond) formatCondition(t.cond, 3, out);
  else out.push('      (no guard: always true)');
  return out;
}

/** The human-readable report of {@link explainReplayAt}. */
export function formatExplanation(e: Explanation): string {
  const out: string[] = [];
  out.push(`At ${formatSeconds(e.atMs)} s (recording ends at ${formatSeconds(e.endMs)} s)`);
  out.push('');
  out.push(`State: ${e.state} "${e.label}"  status ${e.status}  for ${formatSeconds(e.stateAgeMs)} s`);
  out.push(`Modal: ${summarizeModal(e.modal, 60)}`);
  out.push('');
  const start = e.viewportStartRow;
  const viewport = e.frameLines.slice(start);
  const scrollbackRows = start > 0 ? e.frameLines.slice(0, start).filter((l) => l !== '').length : 0;
  out.push(`Screen (${e.cols}x${e.rows}; frame rows ${start}–${start + viewport.length - 1} are the viewport${scrollbackRows ? `, ${scrollbackRows} non-blank scrollback rows above` : ''}; cursor row ${e.cursor.row} col ${e.cursor.col}):`);
  const width = String(start + viewport.length).length;
  viewport.forEach((line, i) => {
    const row = start + i;
    out.push(`  ${String(row).padStart(width)}${row === e.cursor.row ? '>' : ' '}│ ${line}`);
  });
  out.push('');
  out.push('Sections:');
  if (e.sections.length === 0) out.push('  (the spec declares none)');
  const idWidth = Math.max(0, ...e.sections.map((s) => s.id.length));
  for (const s of e.sections) {
    const lines = s.text === '' ? [] : s.text.split('\n');
    const first = lines.filter((l) => l.trim() !== '').slice(0, 2).map((l) => JSON.stringify(truncate(l.trim(), 60)));
    const range = `[${s.fromLine},${s.toLine})`;
    const body = s.fromLine === s.toLine ? 'empty' : `${s.toLine - s.fromLine} line(s): ${first.join(' / ') || '(blank)'}`;
    out.push(`  ${s.id.padEnd(idWidth)}  ${range.padEnd(11)} ${body}`);
  }
  out.push('');
  out.push(`Transitions from ${e.state} (evaluated at this instant):`);
  if (e.transitions.length === 0) out.push('  (none: no outgoing transitions)');
  for (const t of e.transitions) out.push(...formatTransition(t));
  if (e.recentInputs.length) {
    out.push('');
    out.push('Typed during the 5 s before:');
    for (const i of e.recentInputs) out.push(`  ${formatSeconds(i.atMs)} s  ${visible(i.data)}`);
  }
  return `${out.join('\n')}\n`;
}
