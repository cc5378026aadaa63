/**
 * specterm extension `background_work`: how a CLI shows, on its live screen, work it runs on its
 * own after a turn — background shells, sub-agents. An agent idle at its prompt while such work
 * runs is not done; the driver reports the count beside the state (spec-format "Background work").
 *
 * @module
 */

/**
 * One kind of background work. Each row of the region the pattern matches counts one, or the
 * number its `count_group` captured ("2 shells" → 2).
 */
export interface BackgroundWorkRule {
  /** A short snake_case name (`shell`, `agent`), reported with the count. */
  id: string;
  /** Tested on each row of the section (of the viewport without one). */
  pattern: string;
  /** Regex flags (default none; `g` and `y` are refused: every row is tested on its own). */
  flags?: string;
  /** Section to read (default: the whole viewport). */
  section?: string;
  /** The capture group holding the number of items the row stands for (default: the row is one). */
  count_group?: number;
  /** What one item is called in words (`"background shell"`); default `background <id>`. */
  noun?: string;
}
