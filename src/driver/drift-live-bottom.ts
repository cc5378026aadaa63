/**
 * The part of a viewport where spec_drift may look for a waiting prompt: everything from the live
 * input row down. Every CLI the lab runs hides its input box while a prompt waits for the person
 * (the prompt takes its place), so hints or a cursor-marked list ABOVE a live input box are
 * transcript text — an answer quoting "Enter to select · Esc to cancel", or a numbered list with a
 * `›` in it — and never a prompt. Without an input row the whole viewport is kept.
 *
 * @module
 */

/** Box-drawing borders and padding a TUI puts around its input row. */
const FRAME = String.raw`[\s│┃║|]*`;

/**
 * An input row: a prompt marker alone or followed by text (`❯ `, `› Ask Codex to do anything`,
 * `│ > Type your message`). A marker before a number is a cursor on a numbered option (`❯ 1. Yes`),
 * not an input.
 */
const INPUT_ROW = new RegExp(String.raw`^${FRAME}(?:❯|›|>)(?:\s*$|\s+(?!\d{1,2}[.)]\s)\S)`);

/**
 * The rows of `viewport` from its last input row down, or all of them when it has none.
 *
 * @example
 * rowsBelowTranscript(['• press Enter to select', '', '❯ ', '  ? for shortcuts']) // ['❯ ', '  ? for shortcuts']
 * rowsBelowTranscript(['Pick one', '❯ 1. Vitest', '  2. Jest'])                    // unchanged
 */
export function rowsBelowTranscript(viewport: readonly string[]): readonly string[] {
  for (let i = viewport.length - 1; i >= 0; i -= 1) {
    if (INPUT_ROW.test(viewport[i] ?? '')) return viewport.slice(i);
  }
  return viewport;
}
