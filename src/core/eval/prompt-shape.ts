/**
 * Does the live bottom of a screen look like a prompt waiting for a person? A generic heuristic,
 * independent of any spec, used to notice when a spec says `generating` or `idle` over a prompt
 * it does not recognise (`spec_drift`, docs/runtime.md). It looks only at the last
 * {@link LIVE_BOTTOM_ROWS} non-blank rows of the viewport, for either
 *
 * - a cursor-marked option block: a row marked as current (`❯ 1.`, `› 2)`, `> 1.`, or `●` in a
 *   radio list) with at least one more option row next to it (numbered in sequence, or an
 *   unmarked radio row `○`); or
 * - navigation hints: "Enter to select/confirm", or two kinds among ↑/↓ navigation,
 *   Enter-to-act and Esc-to-cancel.
 *
 * An ordinary numbered list in an answer has no cursor marker and no hints, so it never counts;
 * a single "esc to cancel" (Gemini's spinner line says it while generating) does not either.
 * An unnumbered cursor list (`❯ Yes, proceed` over `  No, exit`) is not an option block by
 * itself: a composer (`› Ask Codex to do anything` over an indented footer) looks the same. Such
 * dialogs are seen by their hints ("Enter to confirm · Esc to cancel").
 */

/** How many non-blank rows from the bottom of the viewport count as the live bottom. */
export const LIVE_BOTTOM_ROWS = 14;

/** Box-drawing borders and padding a TUI puts around an option row. */
const FRAME = String.raw`[\s│┃║|]*`;
/** A row marked as the current choice, numbered: `❯ 1. Yes`, `› 2) No`, `> 1. Allow`. */
const MARKED_NUMBERED = new RegExp(String.raw`^${FRAME}(?:❯|›|>|▶|→|➤|▸)\s*(\d{1,2})[.)]\s+\S`);
/** Any numbered option row (marked or not). */
const NUMBERED = new RegExp(String.raw`^${FRAME}(?:(?:❯|›|>|▶|→|➤|▸)\s*)?(\d{1,2})[.)]\s+\S`);
/** A row marked as current in a radio / checkbox list: `● Vitest`, `◉ Yes`, `(*) A`, `[x] B`. */
const MARKED_RADIO = new RegExp(String.raw`^${FRAME}(?:●|◉|\(\*\)|\[x\])\s+\S`, 'i');
/** An unmarked row of an unnumbered radio / checkbox list: `○ Jest`, `◯ No`, `[ ] Skip`. */
const UNMARKED_RADIO = new RegExp(String.raw`^${FRAME}(?:○|◯|\( \)|\[ \])\s+\S`);

const NAV_HINT = /↑\s*\/?\s*↓|↓\s*\/?\s*↑|\bup\s*\/\s*down\b|\barrow keys\b/i;
const ENTER_HINT = /\b(?:enter|return|⏎)\s+to\s+(?:select|confirm|choose|submit|continue|accept|proceed|apply)\b/i;
const ESC_HINT = /\besc(?:ape)?\s+to\s+(?:cancel|exit|go back|close|dismiss|skip|deny|reject)\b/i;

/** Why a screen looks like a waiting prompt, and the rows that say so. */
export interface PromptShape {
  reason: 'option_block' | 'navigation_hints';
  /** The rows that matched (trimmed), for the event and the log. */
  rows: string[];
}

function liveBottom(lines: readonly string[]): string[] {
  const rows: string[] = [];
  for (let i = lines.length - 1; i >= 0 && rows.length < LIVE_BOTTOM_ROWS; i -= 1) {
    const line = lines[i] ?? '';
    if (line.trim() !== '') rows.unshift(line);
  }
  return rows;
}

function optionBlock(rows: readonly string[]): string[] | null {
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const marked = MARKED_NUMBERED.exec(row);
    if (marked) {
      const n = Number(marked[1]);
      const prev = i > 0 ? NUMBERED.exec(rows[i - 1]!) : null;
      const next = rows.slice(i + 1, i + 4).map((r) => NUMBERED.exec(r)).find((m) => m !== null) ?? null;
      if ((prev && Number(prev[1]) === n - 1) || (next && Number(next[1]) === n + 1)) return [rows[i - 1] ?? '', row, rows[i + 1] ?? ''].filter(Boolean).map((r) => r.trim());
      continue;
    }
    if (MARKED_RADIO.test(row)) {
      const neighbours = [rows[i - 1], rows[i + 1]].filter((r): r is string => r !== undefined);
      if (neighbours.some((r) => UNMARKED_RADIO.test(r))) return [rows[i - 1] ?? '', row, rows[i + 1] ?? ''].filter(Boolean).map((r) => r.trim());
    }
  }
  return null;
}

/**
 * The prompt shape at the live bottom of `viewport` (rows top to bottom), or null.
 *
 * @example
 * promptShape(['Which framework?', '❯ 1. Vitest', '  2. Jest', 'Enter to select · Esc to cancel'])?.reason // 'option_block'
 * promptShape(['Steps:', '1. Install', '2. Run'])                                                    // null
 */
export function promptShape(viewport: readonly string[]): PromptShape | null {
  const rows = liveBottom(viewport);
  const block = optionBlock(rows);
  if (block) return { reason: 'option_block', rows: block };
  const hintRows = rows.filter((r) => NAV_HINT.test(r) || ENTER_HINT.test(r) || ESC_HINT.test(r));
  const text = hintRows.join('\n');
  const kinds = [NAV_HINT, ENTER_HINT, ESC_HINT].filter((re) => re.test(text)).length;
  if (ENTER_HINT.test(text) || kinds >= 2) return { reason: 'navigation_hints', rows: hintRows.map((r) => r.trim()) };
  return null;
}
