/**
 * A literal every match of a regex must contain — a cheap pre-check before running a regex that
 * cannot be tested row by row (see line-local.ts) over a whole frame: when no row contains the
 * literal, the regex cannot match and the 25 KB join and regex run are skipped.
 *
 * The extraction is conservative: only characters at the top level of the pattern (not inside
 * groups, classes or lookarounds, not quantified, no top-level alternation), read literally, and
 * only without the `i` flag (case folding would need the same folding here). Anything unusual
 * yields null, which means "no pre-check".
 */


import { memoizeByPattern } from './pattern-memo.js';

/** Escapes that stand for exactly one literal character. */
const LITERAL_ESCAPES = new Set(['.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '\\', '/', '^', '$', '-', ' ']);

/** The longest run of literal characters every match contains, or null. Runs shorter than 2 are dropped. */
export const requiredLiteral: (source: string, flags: string) => string | null = memoizeByPattern(2048, extract);

function extract(source: string, flags: string): string | null {
  if (flags.includes('i') || flags.includes('x') || flags.includes('v')) return null;
  let best = '';
  let run = '';
  let depth = 0;
  const flush = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i += 1) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) return null;
      i += 1;
      if (depth === 0 && LITERAL_ESCAPES.has(next)) {
        if (isQuantifier(source[i + 1])) { flush(); continue; }
        run += next;
      } else {
        flush();
        // \u{…}, \x.., \p{…}, \k<…>: skip their payload conservatively by ending the run.
      }
      continue;
    }
    if (ch === '[') {
      const end = closingBracket(source, i);
      if (end < 0) return null;
      i = end;
      flush();
      continue;
    }
    if (ch === '(') { depth += 1; flush(); continue; }
    if (ch === ')') { depth -= 1; if (depth < 0) return null; flush(); continue; }
    if (ch === '|') {
      if (depth === 0) return null; // top-level alternation: no literal is required
      flush();
      continue;
    }
    if (depth > 0) continue;
    if (ch === '.' || ch === '^' || ch === '$') { flush(); continue; }
    if (isQuantifier(ch)) {
      // The quantified atom (the last char of the run) is optional or repeated: drop it.
      run = run.slice(0, -1);
      flush();
      if (ch === '{') {
        const close = source.indexOf('}', i);
        if (close < 0) return null;
        i = close;
      }
      if (source[i + 1] === '?') i += 1;
      continue;
    }
    if (isQuantifier(source[i + 1])) { flush(); continue; }
    run += ch;
  }
  flush();
  return best.length >= 2 ? best : null;
}

function isQuantifier(ch: string | undefined): boolean {
  return ch === '*' || ch === '+' || ch === '?' || ch === '{';
}

function closingBracket(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i += 1) {
    if (s[i] === '\\') { i += 1; continue; }
    if (s[i] === ']') return i;
  }
  return -1;
}
