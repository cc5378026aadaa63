/**
 * Extraction for modal states: the title, the buttons, and the modal derived from both
 * (spec-format §5.1–§5.3). The title rule lives in extract-title.ts.
 */
import type { ExtractButtons, FsmState } from '../spec/types.js';
import { modalKindForState } from '../spec/model.js';
import type { ModalButton, ModalSnapshot, ResolvedSection } from './types.js';
import { compileRegex, execAll, execRegex, testRegex } from './regex-cache.js';
import { findSection, sectionText } from './sections.js';
import { extractTitle, screenText } from './extract-title.js';
import { blockInset, joinWrappedLabel, labelWrapAt, wrapCandidates, type FrameCells, type LabelWrap } from './label-continuation.js';
import { headingReference, isHeadingRow, keepRows, type Renumbering, type TextPos } from './heading-rows.js';
import { labelsWithoutDescriptions, startsInTitleColumn } from './drawn-labels.js';

/** Cursor glyphs recognised when a rule names no `cursor_marker`. */
const DEFAULT_CURSOR_MARKERS = '❯›>';

/** Buttons a modal needs when its rule gives no `min_count`. */
const DEFAULT_MIN_COUNT = 2;

/**
 * `key_for_index` when a rule omits it: the bare display index. Typing the digit is what
 * numbered TUI menus accept, and in arrow mode the confirm key (template minus `{index}`)
 * then falls back to `\r` (§5.4).
 */
const DEFAULT_KEY_TEMPLATE = '{index}';

interface ParsedRow {
  index: number;
  label: string;
  key: string;
  /** The text whose start is checked for a cursor glyph. */
  markerText: string;
  /** With `label_continuation`: where the label sits and the rows that may continue it. */
  wrap?: LabelWrap;
  /** Where the label starts (with `skip_headings`, `label_style` or `label_column`, which read its cells). */
  labelAt?: TextPos;
}

/** A parse of one haystack: the buttons, and per button the rows that may continue its label (or null). */
interface ParsedButtons {
  buttons: ModalButton[];
  wraps: Array<LabelWrap | null>;
  /** Per button, where its label starts; null when not recorded (no rule reading the cells). */
  labelsAt: Array<TextPos | null>;
  /** With `skip_headings` or `label_column`: the title's first character (headings are drawn like it, options start in its column). */
  titleRef: TextPos | null;
  /** The haystack's lines, split once per haystack when `label_style` reads the rows. */
  lines?: string[];
}

/**
 * Buttons from a button rule over `haystack` (no `min_count` check — see {@link deriveModal}).
 *
 * Numbered mode (default): group 1 = display index (> 0), group 2 = label (non-empty);
 * every row in screen order, then only the bottom-most contiguous numbered block (so stray
 * "1./2./3." lists above the modal never become buttons), sorted by index.
 * Ordinal mode (`label_group`/`key_group`): rows are numbered 1..N in match order; the key
 * token is mapped (`y`→`y`, `tab`, `shift+tab`, `esc`, `enter`, `esc or n`→`n`), and a row
 * with an unknown token is dropped (fail closed).
 * `current` marks the row that starts with a cursor glyph (`cursor_marker`, default `❯›>`);
 * when a custom marker finds no row, exactly one row flagged by the default glyphs is used.
 * `label_continuation` joins the rows a wrapped label goes on over (see label-continuation.ts),
 * reading `cells` — the screen's cells under the haystack, whose line 0 is frame row `rowOffset`.
 */
export function extractButtons(rule: ExtractButtons, haystack: string, cells?: FrameCells, rowOffset = 0): ModalButton[] {
  if (!rule || typeof rule !== 'object' || typeof rule.pattern !== 'string' || typeof haystack !== 'string') return [];
  // A modal state re-reads the same modal on every evaluation while it is up: the last parse is
  // kept per rule object (checked against the fields it depends on) and handed out as copies.
  // The text decides it all but which wrapped rows join a label: that reads the cells each time.
  const last = lastButtons.get(rule);
  let parsed: ParsedButtons;
  if (last && last.haystack === haystack && sameButtonRule(last.fields, rule)) parsed = last.parsed;
  else {
    parsed = parseButtons(rule, haystack);
    lastButtons.set(rule, { haystack, fields: buttonRuleFields(rule), parsed });
  }
  let buttons = parsed.buttons.map(copyButton);
  const headings = rule.skip_headings === true;
  const inColumn = rule.label_column === 'title';
  const ref = parsed.titleRef;
  if ((headings || inColumn) && cells && ref) {
    const keep = (at: TextPos): boolean => !(headings && isHeadingRow(cells, rowOffset, ref, at)) && !(inColumn && !startsInTitleColumn(cells, rowOffset, ref, at));
    buttons = keepRows(buttons, parsed.labelsAt, keep, renumbering(rule));
  }
  // A label cut before its description ended on its own row: the rows under it cannot continue it.
  const cut = new Set<number>();
  if (rule.label_style === true && cells) {
    const lines = (parsed.lines ??= haystack.split('\n'));
    const placed = buttons.map((b, i) => {
      const at = parsed.labelsAt[b.row ?? i] ?? null;
      return { label: b.label, at, row: at ? lines[at.line] ?? '' : '' };
    });
    labelsWithoutDescriptions(placed, cells, rowOffset).forEach((label, i) => {
      if (label === buttons[i]!.label) return;
      buttons[i]!.label = label;
      cut.add(i);
    });
  }
  const continuation = rule.label_continuation;
  if (continuation && typeof continuation === 'object') {
    const evidence = { matchStyle: continuation.match_style === true, wordWrap: continuation.word_wrap === true, rightMargin: continuation.mirror_margin === true ? blockInset(parsed.wraps, cells, rowOffset) : 0 };
    for (let i = 0; i < buttons.length; i += 1) {
      const wrap = parsed.wraps[buttons[i]!.row ?? i];
      if (wrap && !cut.has(i)) buttons[i]!.label = joinWrappedLabel(buttons[i]!.label, wrap, evidence, cells, rowOffset);
    }
  }
  if (headings || inColumn) for (const b of buttons) delete b.row;
  return buttons;
}

/** A button while it is extracted: `row` = its parse row (wraps and label positions are per row). */
type RowButton = ModalButton & { row?: number };

/** How {@link keepRows} renumbers what is left: only ordinal buttons (numbered ones keep their numbers). */
function renumbering(rule: ExtractButtons): Renumbering | null {
  if (rule.label_group === undefined && rule.key_group === undefined) return null;
  return { keyTemplate: rule.key_group === undefined ? (typeof rule.key_for_index === 'string' ? rule.key_for_index : DEFAULT_KEY_TEMPLATE) : null };
}

/** A button's copy, field by field (an object spread costs several times more on this path). */
function copyButton(b: ModalButton): RowButton {
  return { index: b.index, label: b.label, key: b.key, current: b.current };
}

const lastButtons = new WeakMap<object, { haystack: string; fields: unknown[]; parsed: ParsedButtons }>();

/** The fields of a buttons rule its parse depends on. */
const BUTTON_RULE_KEYS = ['pattern', 'flags', 'label_group', 'key_group', 'key_for_index', 'continuation_lines', 'label_continuation', 'cursor_marker', 'select_mode', 'skip_headings', 'label_style', 'label_column'] as const;

function buttonRuleFields(rule: ExtractButtons): unknown[] {
  return BUTTON_RULE_KEYS.map((k) => rule[k]);
}

/** Compared in place: this runs on every evaluation of a modal state. */
function sameButtonRule(fields: unknown[], rule: ExtractButtons): boolean {
  for (let i = 0; i < BUTTON_RULE_KEYS.length; i += 1) if (rule[BUTTON_RULE_KEYS[i]!] !== fields[i]) return false;
  return true;
}

function parseButtons(rule: ExtractButtons, haystack: string): ParsedButtons {
  const ordinal = rule.label_group !== undefined || rule.key_group !== undefined;
  const template = typeof rule.key_for_index === 'string' ? rule.key_for_index : DEFAULT_KEY_TEMPLATE;
  const accept = ordinal ? ordinalRow(rule, template) : numberedRow(template);
  const labelGroup = ordinal ? groupNumber(rule.label_group, 1) : 2;
  const placed = rule.skip_headings === true || rule.label_style === true || rule.label_column === 'title';
  let rows: ParsedRow[];
  if (rule.label_continuation && typeof rule.label_continuation === 'object') rows = parseWithLabelWraps(rule, haystack, accept, labelGroup);
  else rows = rule.continuation_lines ? parseWithContinuation(rule, haystack, accept) : parseWhole(rule, haystack, accept, placed ? labelGroup : -1);
  if (!ordinal) {
    rows = bottomContiguousBlock(rows);
    rows.sort((a, b) => a.index - b.index);
  }
  return {
    buttons: markCurrent(rows, rule.cursor_marker),
    wraps: rows.map((r) => r.wrap ?? null),
    labelsAt: rows.map((r) => r.labelAt ?? (r.wrap ? { line: r.wrap.line, index: r.wrap.start } : null)),
    titleRef: rule.skip_headings === true || rule.label_column === 'title' ? headingReference(haystack) : null,
  };
}

/**
 * The modal of a state on this frame, or null. Buttons come from the rule's section; when
 * fewer than `min_count` (default 2) and the rule names a section, the whole screen is tried
 * and used if it meets `min_count` (a clipped section must not hide real choices, §13.11).
 * The title uses the state's title rule; `kind` is the state's modal kind.
 * `fullScreen` may be a function: the whole screen is then joined only if a rule reads it.
 * `cells` are the screen's cells under the frame the sections were resolved on (frame rows =
 * the whole screen's lines), read by `label_continuation`, `skip_headings`, `label_style` and `label_column` only.
 */
export function deriveModal(state: FsmState, sections: ResolvedSection[], fullScreen: string | (() => string), cells?: FrameCells): ModalSnapshot | null {
  const extract = state && typeof state === 'object' ? state.extract : undefined;
  const rule = extract && typeof extract === 'object' ? extract.buttons : undefined;
  if (!rule || typeof rule !== 'object') return null;
  let joined: string | undefined;
  const screen = (): string => (joined ??= screenText(fullScreen));
  const minCount = typeof rule.min_count === 'number' && !Number.isNaN(rule.min_count) ? rule.min_count : DEFAULT_MIN_COUNT;
  const fromLine = rule.section ? findSection(sections, rule.section)?.fromLine ?? 0 : 0;
  let buttons = extractButtons(rule, rule.section ? sectionText(sections, rule.section, '') : screen(), cells, fromLine);
  if (buttons.length < minCount && rule.section) {
    const whole = extractButtons(rule, screen(), cells, 0);
    if (whole.length >= minCount) buttons = whole;
  }
  if (buttons.length < minCount) return null;
  const title = extract!.title ? extractTitle(extract!.title, sections, screen, cells) : null;
  return { title, buttons, kind: modalKindForState(state) };
}

// ── Parsing ─────────────────────────────────────────────────────────────────

/** Turns one match into a row, or null to skip it. `accepted` = rows accepted so far. */
type AcceptRow = (m: RegExpExecArray, markerText: string, accepted: number) => ParsedRow | null;

function numberedRow(template: string): AcceptRow {
  return (m, markerText) => {
    const index = Number(m[1]);
    const label = String(m[2] ?? '').trim();
    if (!Number.isFinite(index) || index <= 0 || !label) return null;
    return { index, label, key: template.replace(/\{index\}/g, String(index)), markerText };
  };
}

function ordinalRow(rule: ExtractButtons, template: string): AcceptRow {
  const labelGroup = groupNumber(rule.label_group, 1);
  const keyGroup = rule.key_group === undefined ? null : groupNumber(rule.key_group, -1);
  return (m, markerText, accepted) => {
    const label = String(m[labelGroup] ?? '').trim();
    if (!label) return null;
    const index = accepted + 1;
    let key: string | null;
    if (keyGroup === null) key = template.replace(/\{index\}/g, String(index));
    else key = keyGroup < 0 ? null : mapKeyToken(m[keyGroup]);
    if (key === null) return null;
    return { index, label, key, markerText };
  };
}

/**
 * Default mode: flags default `gm`, `g` forced; every match over the whole haystack. With
 * `labelGroup` ≥ 0 (a rule reading the cells) each row notes where that group starts (`d` added).
 */
function parseWhole(rule: ExtractButtons, hay: string, accept: AcceptRow, labelGroup = -1): ParsedRow[] {
  let flags = typeof rule.flags === 'string' ? rule.flags : 'gm';
  if (!flags.includes('g')) flags += 'g';
  if (labelGroup >= 0 && !flags.includes('d')) flags += 'd';
  const re = compileRegex(rule.pattern, flags);
  if (!re) return [];
  const rows: ParsedRow[] = [];
  for (const m of execAll(re, hay)) {
    const row = accept(m, m[0], rows.length);
    if (!row) continue;
    const span = labelGroup >= 0 ? m.indices?.[labelGroup] : undefined;
    if (span) row.labelAt = textPos(hay, span[0] + m[labelGroup]!.length - m[labelGroup]!.trimStart().length);
    rows.push(row);
  }
  return rows;
}

/** The line and text index of haystack offset `offset`. */
function textPos(hay: string, offset: number): TextPos {
  const lineStart = offset > 0 ? hay.lastIndexOf('\n', offset - 1) + 1 : 0;
  let line = 0;
  for (let i = hay.indexOf('\n'); i >= 0 && i < lineStart; i = hay.indexOf('\n', i + 1)) line += 1;
  return { line, index: offset - lineStart };
}

/**
 * `continuation_lines`: flags default `m`, `g` removed; matched per line. After an accepted
 * row, following lines that are non-blank, start with whitespace and do not match the
 * pattern are appended to the label and consumed.
 */
function parseWithContinuation(rule: ExtractButtons, hay: string, accept: AcceptRow): ParsedRow[] {
  return parsePerLine(rule, hay, accept, '', (row, _m, lines, i, re) => {
    let j = i + 1;
    while (j < lines.length) {
      const next = lines[j]!;
      if (!next.trim() || testRegex(re, next) || !/^\s/.test(next)) break;
      row.label += ` ${next.trim()}`;
      j += 1;
    }
    return j;
  });
}

/**
 * `label_continuation`: matched per line as with `continuation_lines` (`d` added for the
 * label's position). Each accepted row notes where its label (capture group `labelGroup`)
 * starts and ends and the indented rows below it that are not option rows; nothing is
 * consumed, and which of them join is decided with the cells.
 */
function parseWithLabelWraps(rule: ExtractButtons, hay: string, accept: AcceptRow, labelGroup: number): ParsedRow[] {
  return parsePerLine(rule, hay, accept, 'd', (row, m, lines, i, re) => {
    const span = labelGroup >= 0 ? m.indices?.[labelGroup] : undefined;
    if (span) {
      const raw = m[labelGroup]!;
      const start = span[0] + raw.length - raw.trimStart().length;
      row.wrap = labelWrapAt(lines[i]!, i, start, row.label.length, wrapCandidates(lines, i + 1, (line) => testRegex(re, line)));
    }
    return i + 1;
  });
}

/**
 * The pattern matched line by line (flags default `m`, `g` removed, `extraFlag` added): each
 * accepted row is handed to `follow`, which returns the next line to read (past any it consumed).
 */
function parsePerLine(
  rule: ExtractButtons,
  hay: string,
  accept: AcceptRow,
  extraFlag: string,
  follow: (row: ParsedRow, m: RegExpExecArray, lines: string[], i: number, re: RegExp) => number,
): ParsedRow[] {
  const flags = (typeof rule.flags === 'string' ? rule.flags : 'm').replace(/g/g, '');
  const re = compileRegex(rule.pattern, extraFlag && !flags.includes(extraFlag) ? flags + extraFlag : flags);
  if (!re) return [];
  const lines = hay.split('\n');
  const rows: ParsedRow[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const m = execRegex(re, lines[i]!);
    if (!m) continue;
    const row = accept(m, lines[i]!, rows.length);
    if (!row) continue;
    rows.push(row);
    i = follow(row, m, lines, i, re) - 1;
  }
  return rows;
}

/**
 * The bottom-most contiguous numbered block: scanning upward from the last row while the
 * row above carries index − 1. `[1,2,3,1,2]` → `[1,2]`; `[3,1,2]` → `[1,2]`.
 */
function bottomContiguousBlock(rows: ParsedRow[]): ParsedRow[] {
  if (rows.length <= 1) return rows.slice();
  let start = rows.length - 1;
  while (start > 0 && rows[start - 1]!.index === rows[start]!.index - 1) start -= 1;
  return rows.slice(start);
}

function markCurrent(rows: ParsedRow[], marker: string | undefined): ModalButton[] {
  const custom = typeof marker === 'string' && marker.length > 0;
  const cls = markerRegex(custom ? marker : DEFAULT_CURSOR_MARKERS);
  const flags = rows.map((r) => (cls ? testRegex(cls, r.markerText) : false));
  if (custom && !flags.includes(true)) {
    // A narrowed marker that finds nothing falls back to the default glyphs, but only when
    // that is unambiguous (exactly one row).
    const def = markerRegex(DEFAULT_CURSOR_MARKERS)!;
    const fallback = rows.map((r) => testRegex(def, r.markerText));
    if (fallback.filter(Boolean).length === 1) fallback.forEach((f, i) => (flags[i] = f));
  }
  // Two rows with the cursor glyph (a list that keeps a grey ❯ beside the focused one): which one
  // has the focus is not in the text, and a press moved from a guess would choose the wrong row.
  if (flags.filter(Boolean).length > 1) flags.fill(false);
  return rows.map((r, i) => ({ index: r.index, label: r.label, key: r.key, current: flags[i]! }));
}

/** `^\s*[<glyphs>]`, glyphs escaped for a character class; `u` so astral glyphs work. */
function markerRegex(glyphs: string): RegExp | null {
  const escaped = glyphs.replace(/[\\\]\[^-]/g, (ch) => `\\${ch}`);
  return compileRegex(`^\\s*[${escaped}]`, 'u');
}

/** A capture-group number, `fallback` when absent, -1 when unusable. */
function groupNumber(v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : -1;
}

const NAMED_KEYS: Record<string, string> = {
  tab: '\t',
  'shift+tab': '\u001b[Z',
  esc: '\u001b',
  escape: '\u001b',
  enter: '\r',
  return: '\r',
};

/**
 * Maps a captured key token to the bytes that press it: a single letter or digit → itself;
 * `tab`, `shift+tab`, `esc`, `enter` → their sequences; alternatives (`esc or n`, `y/n`)
 * prefer a single letter, else the first mappable one. Unknown → null (the row is dropped).
 */
export function mapKeyToken(token: unknown): string | null {
  if (typeof token !== 'string') return null;
  const t = token.trim();
  if (/^[\p{L}\p{N}]$/u.test(t)) return t;
  const named = Object.prototype.hasOwnProperty.call(NAMED_KEYS, t.toLowerCase()) ? NAMED_KEYS[t.toLowerCase()]! : null;
  if (named !== null) return named;
  const alternatives = t.split(/\s+or\s+|\s*\/\s*|\s*,\s*/i).filter((a) => a && a !== t);
  if (alternatives.length < 2) return null;
  const letter = alternatives.find((a) => /^[\p{L}\p{N}]$/u.test(a));
  if (letter) return letter;
  for (const a of alternatives) {
    const mapped = mapKeyToken(a);
    if (mapped !== null) return mapped;
  }
  return null;
}
