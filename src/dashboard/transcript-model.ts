/**
 * What the dashboard computes from a transcript (docs/transcripts.md): turns merged as they grow
 * on the `transcript/<id>` topic, the last line the agent said (the overview's rows), a search
 * hit's snippet split into its marked match, token usage in words, and a diff's line kinds.
 * @module
 */
import type { TokenUsage, Turn } from '../protocol/transcripts.js';

/**
 * `turns` with `turn` in its place (by index, in order). A turn only grows, so a snapshot with
 * fewer items, or not ended where the one held is, is older (an event that raced the first read)
 * and is dropped.
 */
export function mergeTurn(turns: readonly Turn[], turn: Turn): Turn[] {
  const at = turns.findIndex((t) => t.index >= turn.index);
  if (at < 0) return [...turns, turn];
  const held = turns[at]!;
  if (held.index !== turn.index) return [...turns.slice(0, at), turn, ...turns.slice(at)];
  const older = turn.items.length < held.items.length || (held.ended_at !== null && turn.ended_at === null);
  return older ? [...turns] : [...turns.slice(0, at), turn, ...turns.slice(at + 1)];
}

/** The last non-empty line of the agent's last text, looking back across turns; null if it said nothing. */
export function lastLineOf(turns: readonly Turn[]): string | null {
  for (let t = turns.length - 1; t >= 0; t -= 1) {
    const items = turns[t]!.items;
    for (let i = items.length - 1; i >= 0; i -= 1) {
      const item = items[i]!;
      if (item.kind !== 'text') continue;
      const line = item.text.split('\n').map((l) => l.trim()).filter((l) => l !== '').at(-1);
      if (line !== undefined) return line;
    }
  }
  return null;
}

/** A search snippet (the match between `[` and `]`) as pieces of text, the matches marked. */
export function snippetParts(snippet: string): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = [];
  let rest = snippet;
  for (let m = /\[([^[\]]+)\]/.exec(rest); m !== null; m = /\[([^[\]]+)\]/.exec(rest)) {
    if (m.index > 0) parts.push({ text: rest.slice(0, m.index), mark: false });
    parts.push({ text: m[1]!, mark: true });
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest !== '') parts.push({ text: rest, mark: false });
  return parts;
}

const count = (n: number) => n.toLocaleString('en-US');

/** "1,200 in · 34 out · 3 cached · $0.0123": what the history reports, nothing it does not. */
export function usageText(usage: TokenUsage): string {
  const parts = [`${count(usage.input_tokens)} in`, `${count(usage.output_tokens)} out`];
  if (usage.cache_read_tokens) parts.push(`${count(usage.cache_read_tokens)} cached`);
  if (usage.cache_write_tokens) parts.push(`${count(usage.cache_write_tokens)} cache written`);
  if (usage.reasoning_tokens) parts.push(`${count(usage.reasoning_tokens)} reasoning`);
  if (usage.cost_usd !== undefined) parts.push(`$${usage.cost_usd.toFixed(4)}`);
  return parts.join(' · ');
}

export type DiffLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context';

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'context';
}
