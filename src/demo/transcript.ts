/**
 * Transcript items (what scrolls above the input box) and the small text formatters the
 * screen uses. Every string a spec reads (`✻ Worked for 4s`, `↓ 1.2k tokens`) is built here.
 * @module
 */

/** The welcome box. */
export interface BannerItem { kind: 'banner'; id: number }
/** The user's message, echoed as `> text`. */
export interface UserItem { kind: 'user'; id: number; text: string }
/** Streamed assistant text. `continuation` paragraphs have no `⏺` bullet. */
export interface AssistantItem { kind: 'assistant'; id: number; text: string; continuation: boolean }
/** A tool call `⏺ Bash(npm test)` and its output block. */
export interface ToolItem {
  kind: 'tool';
  id: number;
  name: string;
  command: string;
  status: 'pending' | 'running' | 'done' | 'declined' | 'interrupted';
  output: string[];
}
/** A `⎿  …` result line (`Interrupted by user`, `User declined`, `API Error: …`, notices). */
export interface ResultItem { kind: 'result'; id: number; text: string; tone: 'error' | 'dim' | 'plain' }
/** The turn summary `✻ Worked for 4s`. */
export interface WorkedItem { kind: 'worked'; id: number; seconds: number }

export type TranscriptItem = BannerItem | UserItem | AssistantItem | ToolItem | ResultItem | WorkedItem;

/** Spinner glyphs, cycled forward then backward like Claude Code's. */
export const SPINNER_GLYPHS = ['·', '✢', '✳', '✶', '✻', '✽'] as const;

/** The glyph for animation frame `frame` (ping-pong through {@link SPINNER_GLYPHS}). */
export function spinnerGlyph(frame: number): string {
  const n = SPINNER_GLYPHS.length;
  const period = 2 * n - 2;
  const pos = ((frame % period) + period) % period;
  return SPINNER_GLYPHS[pos < n ? pos : period - pos];
}

/** `950` → `950`, `1234` → `1.2k`. */
export function formatTokens(tokens: number): string {
  const n = Math.max(0, Math.floor(tokens));
  return n < 1000 ? String(n) : `${(n / 1000).toFixed(1)}k`;
}

/** `42` → `42s`, `125` → `2m 5s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** What the spinner line shows. */
export interface SpinnerView {
  glyph: string;
  verb: string;
  elapsedSeconds: number;
  tokens: number;
  /** `↑` while thinking or running a tool, `↓` while text streams in. */
  direction: '↑' | '↓';
}

/** `✻ Pondering… (3s · ↑ 1.2k tokens · esc to interrupt)` */
export function formatSpinnerLine(s: SpinnerView): string {
  return `${s.glyph} ${s.verb}… (${formatDuration(s.elapsedSeconds)} · ${s.direction} ${formatTokens(s.tokens)} tokens · esc to interrupt)`;
}

/** `✻ Worked for 4s` */
export function formatWorkedLine(seconds: number): string {
  return `✻ Worked for ${formatDuration(seconds)}`;
}

/** Terminal cell width of one code point: 2 for East Asian wide / emoji ranges, else 1. */
function cellWidth(codePoint: number): number {
  const wide =
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1f64f) ||
    (codePoint >= 0x1f900 && codePoint <= 0x1f9ff) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd);
  return wide ? 2 : 1;
}

/** Display width of `text` in terminal cells. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += cellWidth(ch.codePointAt(0) ?? 0);
  return width;
}

/**
 * Greedy word wrap to `width` cells. Spaces at a break are dropped (Ink's own wrapper
 * keeps them, which starts continuation rows with a stray space); words longer than a row
 * are cut. Existing newlines are kept.
 */
export function wrapWords(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    let row = '';
    let rowWidth = 0;
    for (const word of line.split(' ')) {
      let rest = word;
      let restWidth = textWidth(rest);
      const gap = row === '' ? 0 : 1;
      if (rowWidth + gap + restWidth <= max) {
        row += (gap ? ' ' : '') + rest;
        rowWidth += gap + restWidth;
        continue;
      }
      if (row !== '') rows.push(row);
      row = '';
      rowWidth = 0;
      while (restWidth > max) {
        let cut = '';
        let cutWidth = 0;
        for (const ch of rest) {
          const w = cellWidth(ch.codePointAt(0) ?? 0);
          if (cutWidth + w > max) break;
          cut += ch;
          cutWidth += w;
        }
        rows.push(cut);
        rest = rest.slice(cut.length);
        restWidth -= cutWidth;
      }
      row = rest;
      rowWidth = restWidth;
    }
    rows.push(row);
  }
  return rows;
}
