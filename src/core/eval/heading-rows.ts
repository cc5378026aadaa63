/**
 * Group headings in a list dialog (spec-format §5.2, `skip_headings`): OpenCode and Kilo Code
 * group a dialog's options under headings (`Today`, `Suggested`, a provider's name) drawn at the
 * options' own column, so the text cannot tell a heading from an option — a one-group list
 * (`Today` over the sessions) looks exactly like a list with no heading at all. Their drawing
 * does: a heading is emphasised like the dialog's title (bold, on the panel's background), an
 * option is not (plain), and the current option is bold but on the highlight's background.
 * A row whose label starts in a bold cell on the background of a bold title is a heading; a
 * title drawn plain (or a torn frame whose title row shows something else) tells nothing.
 *
 * @module
 */
import type { FrameCells } from './label-continuation.js';

/** A character of the haystack: its line and text index. */
export interface TextPos {
  line: number;
  index: number;
}

/** Box drawing and block elements (U+2500–U+259F): borders and the screen behind, never a title's text. */
const BOX_GLYPH = /[\u2500-\u259f]/;

/**
 * The title's first character: the first non-blank line's first character that is neither
 * blank nor a box-drawing or block glyph (a dialog section is anchored at its title row).
 */
export function headingReference(hay: string): TextPos | null {
  const lines = hay.split('\n');
  for (let line = 0; line < lines.length; line += 1) {
    const text = lines[line]!;
    if (!text.trim()) continue;
    for (let index = 0; index < text.length; index += 1) {
      const ch = text[index]!;
      if (ch.trim() && !BOX_GLYPH.test(ch)) return { line, index };
    }
    return null;
  }
  return null;
}

/**
 * Whether the label starting at `at` and the title character `ref` are both drawn bold on
 * the same background — a heading. Lines are the haystack's; frame row = line +
 * `rowOffset`. False when the cells cannot tell (text alone, a later write): the row stays an
 * option, as it reads without the rule.
 */
export function isHeadingRow(cells: FrameCells, rowOffset: number, ref: TextPos, at: TextPos): boolean {
  if (at.line === ref.line || typeof cells.boldAlike !== 'function') return false;
  return cells.boldAlike(at.line + rowOffset, at.index, ref.line + rowOffset, ref.index) === true;
}

/** How the buttons left are numbered again: 1..N, and the key from the index when a template makes it. */
export interface Renumbering {
  /** `key_for_index` (with `{index}`), or null when the keys come from the text (`key_group`). */
  keyTemplate: string | null;
}

/**
 * The buttons whose label position passes `keep` (a row not recorded is kept); with `renumber`
 * (ordinal mode) the rest are numbered 1..N again (a key made from the index follows it). Each
 * kept button gets `row`, its parse row, since wraps and label positions are per row.
 */
export function keepRows<B extends { index: number; key: string; row?: number }>(buttons: B[], labelsAt: ReadonlyArray<TextPos | null>, keep: (at: TextPos) => boolean, renumber: Renumbering | null): B[] {
  const kept: B[] = [];
  buttons.forEach((b, i) => {
    const at = labelsAt[i];
    if (at && !keep(at)) return;
    b.row = i;
    kept.push(b);
  });
  if (kept.length === buttons.length || !renumber) return kept;
  kept.forEach((b, i) => {
    b.index = i + 1;
    if (renumber.keyTemplate !== null) b.key = renumber.keyTemplate.replace(/\{index\}/g, String(i + 1));
  });
  return kept;
}
