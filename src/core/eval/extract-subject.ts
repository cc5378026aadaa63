/**
 * An approval's subject (`extract.subject`, a specterm extension): the thing consented to — the
 * command, file path, URL or tool as the CLI shows it — read from the region the spec names for
 * it, whole (every line of it). An auto-approve policy judges this and nothing else: the lines
 * around it (a description, a reason, a title) are written by the agent, which a prompt injection
 * steers, so "a line equal to an allowed command" proves nothing.
 *
 * Reading fails closed: no rule matched, a region matched twice (which one is consented to?) or
 * an empty region give no text and a `problem`; a region with a character drawn so a person
 * cannot see it (concealed, or in its background colour) keeps its text but carries a `problem`.
 *
 * @module
 */
import type { ExtractSubject, FsmState, SubjectKind } from '../spec/types.js';
import type { ResolvedSection } from './types.js';
import type { FrameCells } from './label-continuation.js';
import { compileRegex, execAll } from './regex-cache.js';
import { findSection, sectionText } from './sections.js';
import { screenText } from './extract-title.js';

/** The subject of the modal on screen, or why there is none a policy may judge. */
export interface ModalSubject {
  /** The matched rule's kind; null when no rule matched. */
  kind: SubjectKind | null;
  /** The region's text (lines joined with `\n`, box edges and indentation removed); null when none was isolated. */
  text: string | null;
  /** Why the subject cannot be judged (none isolated, ambiguous, drawn invisibly); null when it can. */
  problem: string | null;
}

/** A vertical box edge a TUI draws around a region (`│` Ink's round box, `┃` bold, `║` double). */
const LEADING_EDGES = /^[ \t]*(?:[│┃║][ \t]?)+/;
const TRAILING_EDGES = /(?:[ \t]*[│┃║])+[ \t]*$/;

/** The subject rules of a state, in the order they are tried. */
export function subjectRules(state: FsmState | undefined): ExtractSubject[] {
  const rule = state?.extract?.subject;
  if (rule === undefined || rule === null) return [];
  return (Array.isArray(rule) ? rule : [rule]).filter((r) => r && typeof r === 'object');
}

/**
 * Reads the subject of `state`'s modal on this frame. `cells` are the screen's cells under the
 * frame the sections were resolved on (frame rows = the screen's lines); without them nothing
 * is known of how the text is drawn, and no invisible text is flagged.
 *
 * @example extractSubject(state, sections, screen, cells) // { kind: 'command', text: 'npm test', problem: null }
 */
export function extractSubject(state: FsmState | undefined, sections: ResolvedSection[], fullScreen: string | (() => string), cells?: FrameCells): ModalSubject {
  const rules = subjectRules(state);
  if (rules.length === 0) return { kind: null, text: null, problem: 'the spec names no subject (extract.subject) for this state' };
  let joined: string | undefined;
  const screen = (): string => (joined ??= screenText(fullScreen));
  for (const rule of rules) {
    const hay = rule.section ? sectionText(sections, rule.section, '') : screen();
    const rowOffset = rule.section ? findSection(sections, rule.section)?.fromLine ?? 0 : 0;
    const region = findRegion(rule, hay);
    if (region === 'no-match') continue;
    const kind = rule.kind;
    if (region === 'bad-regex') return { kind, text: null, problem: `the ${kind} rule's regex does not compile; a person decides` };
    if (typeof region === 'number') return { kind, text: null, problem: `the ${kind} region was found ${region} times on screen, so which one is consented to is ambiguous` };
    const text = region.map((part) => regionText(part.text)).filter((t) => t !== '').join('\n');
    if (text === '') return { kind, text: null, problem: `the ${kind} region is empty` };
    const hidden = cells ? region.map((part) => invisibleAt(hay, part.start, part.text, rowOffset, cells)).find((p) => p !== null) ?? null : null;
    return { kind, text, problem: hidden };
  }
  return { kind: null, text: null, problem: 'no subject rule matched the screen' };
}

/** A captured part of the region: its text and where it starts in the haystack. */
interface RegionPart {
  text: string;
  start: number;
}

/**
 * The one region `rule` finds in `hay`, as its parts (each capture group that took part, in
 * order; none: the whole match); the match count when it matched more than once.
 */
function findRegion(rule: ExtractSubject, hay: string): RegionPart[] | number | 'no-match' | 'bad-regex' {
  if (rule.regex === undefined) return [{ text: hay, start: 0 }];
  let flags = typeof rule.flags === 'string' ? rule.flags : '';
  for (const f of 'gd') if (!flags.includes(f)) flags += f;
  const re = compileRegex(rule.regex, flags);
  if (!re) return 'bad-regex';
  const matches = execAll(re, hay);
  if (matches.length === 0) return 'no-match';
  if (matches.length > 1) return matches.length;
  const m = matches[0]!;
  const parts: RegionPart[] = [];
  for (let g = 1; g < m.length; g += 1) if (m[g] !== undefined) parts.push({ text: m[g]!, start: m.indices?.[g]?.[0] ?? m.index });
  return parts.length > 0 ? parts : [{ text: m[0], start: m.index }];
}

/**
 * The region as one text: on several lines, or on one that starts with a box edge, the edges a
 * TUI draws at each line's ends are cut (a one-line region captured between them by its regex
 * keeps an edge glyph inside it); trailing blanks, leading and trailing blank lines and the
 * common indentation go.
 */
function regionText(raw: string): string {
  let lines = raw.split('\n');
  if (lines.length === 1 && !LEADING_EDGES.test(raw)) return raw.trim();
  lines = lines.map((l) => l.replace(LEADING_EDGES, (edge) => edge.replace(/[│┃║]/g, ' ')).replace(TRAILING_EDGES, '').trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return '';
  const indent = Math.min(...lines.filter((l) => l !== '').map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** Why the region cannot be read as drawn (a character concealed or in its background colour), or null. */
function invisibleAt(hay: string, start: number, text: string, rowOffset: number, cells: FrameCells): string | null {
  if (!cells.drawnInvisibly) return 'the screen cannot tell how the subject is drawn';
  let line = 0;
  let lineStart = 0;
  for (let i = hay.indexOf('\n'); i >= 0 && i < start; i = hay.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  let index = start - lineStart;
  for (const ch of text) {
    if (ch === '\n') {
      line += 1;
      index = 0;
      continue;
    }
    if (ch.trim() !== '') {
      const hidden = cells.drawnInvisibly(rowOffset + line, index);
      if (hidden !== false) return hidden === null ? 'the screen changed while the subject was read' : 'part of the subject is drawn invisibly (concealed or in the background colour)';
    }
    index += ch.length;
  }
  return null;
}
