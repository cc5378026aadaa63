/**
 * A turn's answer read off the screen, for a CLI whose own history specterm cannot read (or a
 * spec that names none): the rows the agent added between two idle screens, without the TUI's
 * chrome (input box, footer, status lines).
 *
 * The chrome is what two idle screens share at their bottom: an idle TUI draws the same empty
 * input box and footer after every turn, while the rows above them are the conversation. Digits
 * are ignored in that comparison (footers count tokens, percentages, times). Rows are addressed by
 * id — the buffer row plus the rows scrollback overflow trimmed off the top — so a turn that
 * scrolled its start away is still found where it began, or reported cut when its first rows were
 * trimmed. On the alternate screen (a full-screen TUI, no scrollback) the answer is what is on
 * screen below the person's message, and cut when the message is no longer there.
 * @module
 */

/** A screen at the moment its session became idle. */
export interface IdleScreen {
  /** The viewport's rows, right-trimmed. */
  viewport: readonly string[];
  /** The id of the viewport's first row; null on the alternate screen. */
  topId: number | null;
}

/** What a turn's screen answer is read from. */
export interface ScreenTurnInput {
  /** The screen when the session was idle before the turn (null: the turn came during start-up). */
  before: IdleScreen | null;
  /** The screen now, idle after the turn. */
  after: IdleScreen;
  /** Rows by id, `[from, to)`; `cut` when rows before the oldest still kept were asked for. */
  rows(fromId: number, toId: number): { lines: readonly string[]; cut: boolean };
  /** The person's message that opened the turn, when known: its echo is not part of the answer. */
  message: string | null;
}

export interface ScreenAnswer {
  text: string;
  /** True when the answer's beginning is no longer on screen or in the kept scrollback. */
  cut: boolean;
}

/** A row as compared for chrome: digits stand for any digit, spaces at the ends do not count. */
function chromeKey(row: string): string {
  return row.replace(/\d/g, '0').trim();
}

/**
 * A row an input box or a rule is drawn with. An input box's inside may differ between two idle
 * screens (a placeholder that changes its suggestion), its frame does not.
 */
const BOX_ROW = /^\s*[─━═▔▀▁▄╭╮╰╯│┃>❯›]/;

/** Rows up to the last one that is not blank (a screen not yet full has blank rows below). */
export function usedRows(viewport: readonly string[]): number {
  let n = viewport.length;
  while (n > 0 && viewport[n - 1]!.trim() === '') n--;
  return n;
}

/**
 * How many bottom rows (of the used rows) `a` and `b` share — the chrome: equal rows, then rows
 * both draw with box glyphs — leaving at least one row above.
 */
export function sharedBottomRows(a: readonly string[], b: readonly string[]): number {
  const ua = usedRows(a);
  const ub = usedRows(b);
  const max = Math.min(ua, ub) - 1;
  const row = (lines: readonly string[], used: number, n: number) => lines[used - 1 - n]!;
  let n = 0;
  while (n < max && chromeKey(row(a, ua, n)) === chromeKey(row(b, ub, n))) n++;
  while (n < max && BOX_ROW.test(row(a, ua, n)) && BOX_ROW.test(row(b, ub, n))) n++;
  return n;
}

/** The first line of `message` as it would be echoed (the first 40 characters, spaces squeezed). */
function echoProbe(message: string): string {
  return (message.trim().split('\n')[0] ?? '').replace(/\s+/g, ' ').slice(0, 40);
}

/** Index of the row after the message's echo among the first rows, or 0 when it is not there. */
function afterEcho(lines: readonly string[], message: string | null, searchRows: number): number {
  if (!message) return 0;
  const probe = echoProbe(message);
  if (probe === '') return 0;
  const lastProbe = (message.trim().split('\n').at(-1) ?? '').replace(/\s+/g, ' ').trim().slice(-20);
  const limit = Math.min(lines.length, searchRows);
  for (let i = 0; i < limit; i++) {
    if (!lines[i]!.replace(/\s+/g, ' ').includes(probe)) continue;
    // A message of several lines is echoed over several rows: skip to the row with its end.
    let end = i;
    for (let j = i; j < Math.min(lines.length, i + message.split('\n').length + 4); j++) {
      if (lastProbe === '' || lines[j]!.replace(/\s+/g, ' ').includes(lastProbe)) { end = j; break; }
    }
    return end + 1;
  }
  return 0;
}

/** The rows that are the answer, as text: no blank rows at either end, no common indent. */
function tidy(lines: readonly string[]): string {
  let from = 0;
  let to = lines.length;
  while (from < to && lines[from]!.trim() === '') from++;
  while (to > from && lines[to - 1]!.trim() === '') to--;
  const kept = lines.slice(from, to);
  const indent = Math.min(...kept.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length));
  return kept.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

/** The turn's answer as the screen shows it (see the module doc). */
export function screenAnswer(input: ScreenTurnInput): ScreenAnswer {
  const { before, after, message } = input;
  const chrome = before ? sharedBottomRows(before.viewport, after.viewport) : 0;
  const echoRows = message ? message.split('\n').length + 4 : 0;
  const contentEnd = usedRows(after.viewport) - chrome;
  if (after.topId === null || !before || before.topId === null) {
    // The alternate screen (or nothing to anchor on): what is on screen below the message.
    const content = after.viewport.slice(0, contentEnd);
    const start = afterEcho(content, message, content.length);
    return { text: tidy(content.slice(start)), cut: message !== null && start === 0 };
  }
  const fromId = before.topId + usedRows(before.viewport) - chrome;
  const toId = after.topId + contentEnd;
  const { lines, cut } = input.rows(fromId, Math.max(fromId, toId));
  const start = afterEcho(lines, message, echoRows + 2);
  return { text: tidy(lines.slice(start)), cut };
}
