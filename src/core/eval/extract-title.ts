/**
 * The title of a modal state (spec-format §5.1): `first_line` or `regex`, over the rule's section
 * or the whole screen, with `join_wrapped` joining the rows a word-wrapper broke off above it.
 */
import type { ExtractTitle } from '../spec/types.js';
import type { ResolvedSection } from './types.js';
import { compileRegex, execRegex } from './regex-cache.js';
import { findSection, sectionText } from './sections.js';
import { joinWrappedTitle } from './title-wrap.js';
import type { FrameCells } from './label-continuation.js';

/** Box-drawing rules that `first_line` skips. */
const RULE_ONLY_LINE = /^[─╌═\s]+$/;

/**
 * The title from a title rule, or null. `first_line` (takes precedence): the first line that
 * is neither blank nor only box-drawing rules, trimmed. `regex` (flags default `i`): capture
 * group 1 when it participated (an empty group gives `''`), else the whole match, trimmed.
 * `join_wrapped` (with `cells`): the rows a word-wrapper broke off above it are joined in front
 * (see title-wrap.ts).
 */
export function extractTitle(rule: ExtractTitle, sections: ResolvedSection[], fullScreen: string | (() => string), cells?: FrameCells): string | null {
  if (!rule || typeof rule !== 'object') return null;
  const hay = rule.section ? sectionText(sections, rule.section, '') : screenText(fullScreen);
  if (!hay) return null;
  if (rule.first_line) {
    for (const line of hay.split('\n')) {
      const t = line.trim();
      if (t && !RULE_ONLY_LINE.test(t)) return t;
    }
    return null;
  }
  if (typeof rule.regex === 'string' && rule.regex) {
    const flags = rule.flags === undefined || rule.flags === null ? 'i' : rule.flags;
    // `join_wrapped` needs where the title starts: the `d` flag gives the match's indices.
    const join = rule.join_wrapped === true && typeof flags === 'string';
    const re = typeof flags === 'string' ? compileRegex(rule.regex, join && !flags.includes('d') ? `${flags}d` : flags) : null;
    const m = re ? execRegex(re, hay) : null;
    if (!m) return null;
    const title = (m[1] ?? m[0]).trim();
    if (!join || !title) return title;
    const span = m.indices?.[m[1] === undefined ? 0 : 1];
    if (!span) return title;
    const raw = hay.slice(span[0], span[1]);
    const at = span[0] + raw.length - raw.trimStart().length;
    const line = countNewlines(hay, at);
    const rowOffset = rule.section ? findSection(sections, rule.section)?.fromLine ?? 0 : 0;
    return joinWrappedTitle(title, hay.split('\n'), line, cells, rowOffset);
  }
  return null;
}

/** How many `\n` come before text index `end` of `text`: the line that index is on. */
function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/** The whole screen from a string or a function giving it; anything else reads as empty. */
export function screenText(fullScreen: string | (() => string)): string {
  const text = typeof fullScreen === 'function' ? fullScreen() : fullScreen;
  return typeof text === 'string' ? text : '';
}
