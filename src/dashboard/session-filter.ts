/**
 * The overview's label filter and the create form's text fields, as pure functions: a filter
 * `team=core ci` keeps the sessions whose labels have `team` equal to `core` and any `ci`;
 * labels typed as `key=value, key2=value2`; arguments typed as a shell would split them
 * (quotes group, a backslash escapes), so `--model "big one"` is two arguments.
 * @module
 */
import type { SessionDetail } from '../protocol/sessions.js';

/** The terms of a filter: `key` (has the label) or `key=value` (has it with that value). */
export function parseLabelFilter(text: string): Array<{ key: string; value: string | null }> {
  return text.split(/[\s,]+/).filter(Boolean).map((term) => {
    const eq = term.indexOf('=');
    return eq < 0 ? { key: term, value: null } : { key: term.slice(0, eq), value: term.slice(eq + 1) };
  });
}

/** Whether `session` matches every term of `filter` (an empty filter matches everything). */
export function matchesLabelFilter(session: Pick<SessionDetail, 'labels'>, filter: ReturnType<typeof parseLabelFilter>): boolean {
  return filter.every(({ key, value }) => Object.hasOwn(session.labels, key) && (value === null || session.labels[key] === value));
}

/** `key=value` pairs separated by commas (or new lines); a pair without `=` is an error naming it. */
export function parseLabels(text: string): { labels: Record<string, string> } | { error: string } {
  const labels: Record<string, string> = {};
  for (const pair of text.split(/[,\n]/).map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { error: `label "${pair}" is not key=value; write it as team=core` };
    labels[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return { labels };
}

/** Splits `text` into arguments the way a POSIX shell would (no expansion); an open quote is an error. */
export function splitArgs(text: string): { args: string[] } | { error: string } {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quote === "'") { if (ch === "'") quote = null; else current += ch; continue; }
    if (ch === '\\' && i + 1 < text.length && quote === null) { current += text[++i]; inArg = true; continue; }
    if (quote === '"') { if (ch === '"') quote = null; else current += ch; continue; }
    if (ch === '"' || ch === "'") { quote = ch; inArg = true; continue; }
    if (/\s/.test(ch)) { if (inArg) args.push(current); current = ''; inArg = false; continue; }
    current += ch;
    inArg = true;
  }
  if (quote !== null) return { error: `the arguments have an unclosed ${quote}; close it or escape it with \\` };
  if (inArg) args.push(current);
  return { args };
}
