/**
 * The crawler's oracle: what a screen the crawler opened looks like, against what specterm says.
 *
 * It looks only at rows the command drew — rows not on the idle screen the crawl started from
 * (`baseline`), below the transcript (`rowsBelowTranscript`) — so a CLI's standing footer
 * ("esc interrupt", "? for shortcuts") never counts. A screen *looks like it waits for a person*
 * when those rows hold the spec_drift shape (`promptShape`: a cursor-marked option block or
 * navigation hints), or a cursor-marked list of two or more rows, or a hint to leave it with Esc.
 *
 * @module
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { promptShape } = await import(pathToFileURL(path.join(dist, 'core', 'eval', 'prompt-shape.js')).href);
const { rowsBelowTranscript } = await import(pathToFileURL(path.join(dist, 'driver', 'drift-live-bottom.js')).href);

/** The sizes every screen is looked at in; the first is the one the crawl starts in. */
export const CRAWL_SIZES = [{ cols: 80, rows: 24 }, { cols: 60, rows: 20 }, { cols: 200, rows: 50 }];

/** Borders and padding around a row. */
const FRAME = String.raw`[\s│┃║|]*`;
/** A row marked as the current one by a cursor glyph. */
const CURSOR_ROW = new RegExp(String.raw`^${FRAME}(?:❯|›|>|▶|→|➤|▸|●|◉)\s*\S`);
/** A hint to leave a view with Esc ("esc to cancel", "Esc close", "(esc)", "esc back"). */
const ESC_ONLY = /\besc(?:ape)?\s+(?:to\s+)?(?:cancel|close|exit|go back|back|dismiss)\b|\(esc\)/i;

const digitless = (row) => row.replace(/\d+/g, '0');
const indentOf = (row) => row.replace(/^[│┃║|]/, ' ').search(/\S/);

/** A numbered option row, marked or not: its number. */
const NUMBERED_ROW = new RegExp(String.raw`^${FRAME}(?:(?:❯|›|>|▶|→|➤|▸|●)\s*)?(\d{1,2})[.)]\s+\S`);

/** A key a hint names: `ctrl+a`, `enter`, `esc`, `↑/↓`, `left/right`. */
const KEY_TOKEN = /(?:ctrl|alt|shift|cmd|meta|option)[+-]\S+|\b(?:enter|esc|escape|tab|space|pgup|pgdn)\b|[↑↓←→]|\b(?:left|right|up|down)\/(?:left|right|up|down)\b/i;
/** A hint that is one key and what it does: "Esc to close". */
const KEY_TO = new RegExp(`^(?:${KEY_TOKEN.source})\\s+to\\s`, 'i');
/** A scroll counter or arrow under or over a list: "(1/21)", "▼". */
const SCROLL_MARK = /^(?:\(\d+\/\d+\)|[▲▼↑↓])$/;

/**
 * Rows in a list's column that are not options: key hints (every part of the row names a key:
 * "enter toggle · ctrl+a all", "new ctrl+m  delete ctrl+d", or "Esc to close"), a search field
 * ("Search", "Type to search"), a scroll row ("↓ 3 more") and a scroll counter or arrow ("(1/21)",
 * "▼"). An option that names a key beside its label ("Undo anything   /rewind, Esc-Esc") is one.
 */
export function notAnOption(text) {
  const t = text.trim();
  const parts = t.split(/\s{2,}|\s[·•]\s/).filter(Boolean);
  const hints = parts.every((p) => KEY_TOKEN.test(p) || /^type to (?:search|filter)\b/i.test(p)) && (parts.length >= 2 || KEY_TO.test(t));
  return hints
    || /^(?:search|filter|type to (?:search|filter))\b/i.test(t)
    || /^[↑↓▲▼…]?\s*\(?(?:\d+|…)\s+more\b/i.test(t)
    || SCROLL_MARK.test(t);
}

/** A `Label: value` row: the highlighted item's detail when it ends a list ("Model Name: Lab Model"), an option inside one ("Language: UI"). */
const DETAIL_ROW = /^[A-Z][A-Za-z ]{0,24}: \S/;

/** The glyph that marks a cursor row, or null. */
const cursorGlyph = (row) => (CURSOR_ROW.test(row) ? /^[\s│┃║|]*(\S)/.exec(row)[1] : null);

/**
 * How many options are drawn around the cursor-marked row. Numbered: the run of consecutive
 * numbers through the marked one. Unnumbered: the rows at the marked row's indent, up and down
 * to a rule, a shallower row or two blank rows — and when single blank rows part them into groups
 * (an option with its description under it, drawn in another colour at the same indent), one
 * option per group. 0 without a marked row or with a single option.
 */
export function menuRowsOf(rows, from = 0) {
  // The lowest cursor row (the live one; a marked row higher up is older text), a numbered one
  // first: a focus marker on a title ('> Select Editor') is not an option. Only rows from `from`
  // may hold the cursor; the list may reach above it.
  const numbered = rows.findLastIndex((r, i) => i >= from && CURSOR_ROW.test(r) && NUMBERED_ROW.test(r));
  const at = numbered >= 0 ? numbered : rows.findLastIndex((r, i) => i >= from && CURSOR_ROW.test(r));
  if (at < 0) return 0;
  const n = optionsAround(rows, at);
  return n > 1 ? n : 0;
}

/**
 * The option count of every list drawn with a cursor (one per cursor-marked row, top first, a
 * single option counted as 1): a dialog may hold two lists (Gemini's settings over its "Apply
 * To" scope), and the spec's buttons are one of them.
 */
export function menuCountsOf(rows, from = 0) {
  return rows.flatMap((r, i) => (i >= from && CURSOR_ROW.test(r) ? [optionsAround(rows, i)] : []));
}

/** The options of the list whose cursor is on row `at` (see menuRowsOf). */
function optionsAround(rows, at) {
  const marked = NUMBERED_ROW.exec(rows[at]);
  if (marked) {
    const numbers = new Set(rows.map((r) => NUMBERED_ROW.exec(r)?.[1]).filter(Boolean).map(Number));
    let lo = Number(marked[1]);
    let hi = lo;
    while (numbers.has(lo - 1)) lo--;
    while (numbers.has(hi + 1)) hi++;
    return hi - lo + 1;
  }
  const body = (r) => r.replace(/[\s│┃║|]+$/, '');
  const text = (r) => body(r).replace(/^[\s│┃║|]*(?:❯|›|>|▶|→|➤|▸|●|◉)?\s*/, '');
  // A toggle's mark ('◉ Fast', '[x] Vim') where only some rows draw one: the label starts after it.
  const label = (r) => text(r).replace(/^(?:[✔✓◯◉○●☐☑■□]|\[[ x✓]\])\s+/, '');
  const col = (r) => body(r).length - text(r).length;
  const labelCol = (r) => body(r).length - label(r).length;
  const want = col(rows[at]);
  const wantLabel = labelCol(rows[at]);
  const blank = (r) => r !== undefined && text(r) === '';
  const inColumn = (r) => col(r) === want || labelCol(r) === wantLabel;
  // A search field or the key hints bound a list (above them: its heading; below: the next thing).
  const ends = (r) => r === undefined || /^[─━═╭╮╰╯┌┐└┘\s]*$/.test(text(r)) || (col(r) < want && labelCol(r) < wantLabel)
    || (inColumn(r) && notAnOption(label(r)) && !SCROLL_MARK.test(label(r).trim()));

  let from = at;
  let to = at;
  for (const step of [-1, 1]) {
    for (let i = at + step; ; i += step) {
      if (blank(rows[i])) { if (blank(rows[i + step]) || ends(rows[i + step])) break; continue; }
      if (ends(rows[i])) break;
      if (step < 0) from = i; else to = i;
    }
  }
  const span = rows.slice(from, to + 1);
  // Groups of non-blank rows; options with descriptions make small groups (an option, a line or two).
  const groups = [];
  span.forEach((r, i) => { if (blank(r)) return; if (i === 0 || blank(span[i - 1])) groups.push([]); groups.at(-1).push({ r, i: from + i }); });
  // Another cursor glyph in the list's column marks something else (a focused title: '> Rewind' over '● Stay').
  const glyph = cursorGlyph(rows[at]);
  const option = (r) => r === rows[at] || (inColumn(r) && !notAnOption(label(r)) && (cursorGlyph(r) ?? glyph) === glyph);
  // Groups that start with no option (the key hints under the list) part nothing; a `Label: value`
  // row that ends the list, off the cursor, is the highlighted item's detail.
  const trailingDetail = (x) => x.i > at && DETAIL_ROW.test(label(x.r).trim());
  const listed = groups.filter((g) => option(g[0].r));
  while (listed.length > 1 && listed.at(-1).length === 1 && trailingDetail(listed.at(-1)[0])) listed.pop();
  // One option a group only where the groups are options with their descriptions: lone rows
  // parted by blanks ('Name thread' over '› Type a name') are a heading and a field, not a list.
  const own = groups.find((g) => g.some((x) => x.i === at)) ?? [];
  if (listed.some((g) => g.length > 1) && listed.length > 1 && listed.every((g) => g.length <= 3)) return listed.length;
  const inGroup = own.filter((x) => option(x.r));
  while (inGroup.length > 1 && trailingDetail(inGroup.at(-1))) inGroup.pop();
  return inGroup.length;
}

/**
 * The input row holding what the crawler typed (`> @`, `› #`), or its echo in the transcript
 * (`> /extensions`): the person's own text behind a prompt glyph, not a list's cursor row.
 */
function isTypedRow(row, typed) {
  if (!typed) return false;
  const m = /^[\s│┃║|]*(?:❯|›|>)\s*(\S.*)$/.exec(row);
  return m !== null && m[1].startsWith(typed);
}

/**
 * The keys that open a target, one input event each, as the crawler writes them: a command's
 * characters and Enter (`/`, `h`, …, `\r`), or a chord's keys (`ESC [ D` is one key).
 */
export function targetKeys(target) {
  return target?.command ? [...`/${target.command}`, '\r'] : (target?.keys ?? []);
}

/** What the crawler types to open a target, as an input row shows it (`/help`, `@`); '' for keys that show nothing. */
export function typedText(target) {
  const keys = targetKeys(target).filter((k) => k !== '\r').join('');
  return /^[\x20-\x7e]+$/.test(keys) ? keys : '';
}

/**
 * What the screen shows and what specterm says of it. `rows`: the viewport; `view`: the driver's
 * current view; `baseline`: the idle screen's rows; `typed`: what the crawler typed to open it
 * (`typedText`).
 */
export function observe(rows, view, baseline, typed = '') {
  // Digits aside: a footer's clock, token count or context percentage moves by itself.
  const known = new Set(baseline.map(digitless));
  const clean = rows.map((r) => (known.has(digitless(r)) || isTypedRow(r, typed) ? '' : r));
  // The live bottom: below the last row that looks like an input row — a list's own `❯` cursor
  // row looks like one, so a list is counted on the whole screen, its cursor in the live bottom.
  const from = rows.length - rowsBelowTranscript(rows).length;
  const fresh = clean.slice(from);
  const drawn = fresh.filter((r) => r.trim() !== '');
  const modal = view?.modal ?? null;
  const drift = promptShape(fresh);
  const menuRows = menuRowsOf(clean, from);
  const menuCounts = menuCountsOf(clean, from);
  const shape = drift?.reason ?? (menuRows > 1 ? 'cursor_list' : drawn.some((r) => ESC_ONLY.test(r)) ? 'esc_hint' : null);
  return {
    state: view?.state.id ?? null,
    status: view?.state.status ?? null,
    modal: modal ? { title: modal.title ?? null, kind: modal.kind ?? null, buttons: (modal.buttons ?? []).map((b) => b.label) } : null,
    title: modal?.title ?? null,
    buttons: modal?.buttons?.length ?? 0,
    changed: drawn.length > 0,
    shape,
    shapeRows: drift?.rows ?? drawn.filter((r) => CURSOR_ROW.test(r) || ESC_ONLY.test(r)).map((r) => r.trim()).slice(0, 4),
    menuRows,
    menuCounts,
    indent: drawn.length ? Math.min(...drawn.map(indentOf)) : 0,
  };
}

/**
 * The flags of one observation: `unrecognised` (looks like it waits for a person while the spec
 * says idle or generating), `no_buttons` (a modal without buttons over a drawn option list),
 * `button_count` (a modal whose
 * buttons differ in number from the option rows drawn), `flap` (the status moved while the
 * screen stood still), `junk_button` (a button labelled with no letter or digit: a border read as an
 * option).
 */
export function flagsOf(obs, { flapped }) {
  const flags = [];
  if ((obs.status === 'idle' || obs.status === 'generating') && obs.shape) flags.push('unrecognised');
  // A modal with nothing to choose drawn (a text field, a page only Esc leaves) has no buttons by
  // design; one over a drawn option list has lost them.
  if (obs.modal && obs.buttons === 0 && (obs.menuRows > 1 || obs.shape === 'option_block')) flags.push('no_buttons');
  // Unlike every list drawn: a dialog with two lists (a setting's scope under the settings) has buttons for one.
  if (obs.modal && obs.buttons > 0 && obs.menuRows > 1 && !(obs.menuCounts ?? [obs.menuRows]).includes(obs.buttons)) flags.push('button_count');
  // A button whose label has no letter or digit (a border glyph, a scroll bar) is not an option.
  if (obs.modal?.buttons.some((b) => !/[\p{L}\p{N}]/u.test(b))) flags.push('junk_button');
  if (flapped) flags.push('flap');
  return flags;
}

/**
 * What an observation was judged on, kept so that `--rejudge` can judge it again with a changed
 * oracle without crawling: the screen's rows, the idle screen before the target, what the spec said.
 */
export function screenOf(text, view, baseline) {
  const modal = view?.modal ? { title: view.modal.title ?? null, kind: view.modal.kind ?? null, buttons: (view.modal.buttons ?? []).map((b) => ({ label: b.label })) } : null;
  return { rows: text.split('\n'), baseline, view: view ? { state: { id: view.state.id, status: view.state.status }, modal } : null };
}

/** The observations of a saved crawl (`--screens-to`) judged again by today's oracle. */
export function rejudge(summary) {
  const typed = new Map((summary.targets ?? []).map((t) => [t.label, typedText(t)]));
  const observations = summary.observations.map((o) => {
    if (!o.screen) return o;
    const again = observe(o.screen.rows, o.screen.view, o.screen.baseline, typed.get(o.target) ?? '');
    return { ...o, ...again, flags: flagsOf(again, { flapped: o.flapped }) };
  });
  return { ...summary, observations };
}
