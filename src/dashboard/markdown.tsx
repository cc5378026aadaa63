/**
 * An agent's answer as markdown, rendered to Preact elements and never to HTML: the text is
 * parsed into a small tree (paragraphs, headings, lists, fenced code; code spans, emphasis,
 * links) and every character the agent wrote ends up in a text node, so `<script>`, `<img
 * onerror>` or a raw HTML block shows as what it is — text. Links are made only for http(s)
 * addresses and open in a new tab without access to this page (`rel="noopener noreferrer"`);
 * any other `[label](target)` stays text. Everything this parser does not know is text too.
 * A hand-written parser rather than a library: the libraries render to an HTML string (which
 * would have to be sanitized and inserted), and this is the part of the page an agent controls.
 * @module
 */
import type { ComponentChild, VNode } from 'preact';

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'heading'; level: number; children: Inline[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { kind: 'code'; lang: string; text: string };

/** Past this a text is shown as it is: parsing a megabyte of tool noise helps nobody. */
const MAX_MARKDOWN_CHARS = 200_000;
/** Emphasis in emphasis in a link…: deeper than this is text (a hostile text cannot recurse far). */
const MAX_DEPTH = 6;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const AUTOLINK = /https?:\/\/[^\s<>"'`]+/iy;

/** `raw` as a link target when it is an absolute http(s) URL; null for anything else. */
export function safeHref(raw: string): string | null {
  if (!/^https?:\/\//i.test(raw)) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function parseMarkdown(source: string): Block[] {
  if (source.length > MAX_MARKDOWN_CHARS) return [{ kind: 'paragraph', children: [{ kind: 'text', text: source }] }];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; start: number; items: string[] } | null = null;
  const flush = () => {
    if (para.length > 0) blocks.push({ kind: 'paragraph', children: parseInline(para.join('\n')) });
    para = [];
    if (list) blocks.push({ kind: 'list', ordered: list.ordered, start: list.start, items: list.items.map((item) => parseInline(item)) });
    list = null;
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const mark = fence[1]!;
      const body: string[] = [];
      for (i += 1; i < lines.length && !isClosingFence(lines[i]!, mark); i += 1) body.push(lines[i]!);
      blocks.push({ kind: 'code', lang: fence[2]!, text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') { flush(); continue; }
    const heading = HEADING.exec(line);
    if (heading) { flush(); blocks.push({ kind: 'heading', level: heading[1]!.length, children: parseInline(heading[2]!) }); continue; }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = ordered !== null;
      if (para.length > 0 || (list && list.ordered !== isOrdered)) flush();
      list ??= { ordered: isOrdered, start: ordered ? Number(ordered[1]) : 1, items: [] };
      list.items.push(bullet ? bullet[1]! : ordered![2]!);
      continue;
    }
    // An indented line under a list item goes on with that item; anything else ends the list.
    if (list && /^\s/.test(line)) { list.items[list.items.length - 1] += `\n${line.trim()}`; continue; }
    if (list) flush();
    para.push(line);
  }
  flush();
  return blocks;
}

function isClosingFence(line: string, mark: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= mark.length && trimmed === mark[0]!.repeat(trimmed.length);
}

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** Where a run of exactly `fence` backticks starts at or after `from`; -1 when none does. */
function findBackticks(s: string, fence: string, from: number): number {
  for (let j = s.indexOf(fence, from); j >= 0; j = s.indexOf(fence, j + 1)) {
    if (s[j - 1] === '`') continue;
    if (s[j + fence.length] !== '`') return j;
    while (s[j + 1] === '`') j += 1;
  }
  return -1;
}

/** Where emphasis opened by `delim` closes: no space before it, not part of a longer run. */
function findCloser(s: string, delim: string, from: number): number {
  const c = delim[0]!;
  for (let j = s.indexOf(delim, from); j >= 0; j = s.indexOf(delim, j + 1)) {
    if (j === from || isSpace(s[j - 1])) continue;
    if (delim.length === 1 && (s[j + 1] === c || s[j - 1] === c)) continue;
    if (c === '_' && isWord(s[j + delim.length])) continue;
    return j;
  }
  return -1;
}

/** Past this a link's target is not looked for (a line of `[a](` must not cost quadratic time). */
const MAX_TARGET_CHARS = 2_048;

/** `[label](target)` from `i` to the `]` at `close`: the label, the target as written, where it ends. */
function matchLink(s: string, i: number, close: number): { label: string; target: string; end: number } | null {
  if (s[close + 1] !== '(') return null;
  let depth = 0;
  for (let j = close + 2; j < s.length && j < close + MAX_TARGET_CHARS; j += 1) {
    const c = s[j]!;
    if (c === '\n') return null;
    if (c === '(') depth += 1;
    if (c === ')' && depth-- === 0) return { label: s.slice(i + 1, close), target: s.slice(close + 2, j).trim(), end: j + 1 };
  }
  return null;
}

/** A bare http(s) address at `i`, without the sentence's closing punctuation. */
function matchAutolink(s: string, i: number): string | null {
  AUTOLINK.lastIndex = i;
  const m = AUTOLINK.exec(s);
  if (!m) return null;
  let url = m[0];
  while (/[.,;:!?)\]]$/.test(url) && !(url.endsWith(')') && url.split('(').length > url.split(')').length - 1)) url = url.slice(0, -1);
  return safeHref(url) === null ? null : url;
}

export function parseInline(s: string, depth = 0, inLink = false): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const push = (node: Inline) => {
    if (text !== '') out.push({ kind: 'text', text });
    text = '';
    out.push(node);
  };
  // Delimiters with no closer after some point have none after any later point either: each
  // search is done once, so a line of a thousand `*` or `[` costs linear time, not quadratic.
  const absent = new Set<string>();
  let bracket = -1;
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\' && ESCAPABLE.test(s[i + 1] ?? '')) { text += s[i + 1]; i += 2; continue; }
    if (c === '`') {
      let n = 1;
      while (s[i + n] === '`') n += 1;
      const fence = '`'.repeat(n);
      const close = absent.has(fence) ? -1 : findBackticks(s, fence, i + n);
      if (close < 0) { absent.add(fence); text += fence; i += n; continue; }
      const code = s.slice(i + n, close);
      push({ kind: 'code', text: code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code });
      i = close + n;
      continue;
    }
    if ((c === '*' || c === '_') && depth < MAX_DEPTH) {
      const delim = s[i + 1] === c ? c + c : c;
      const opens = !isSpace(s[i + delim.length]) && (c === '*' || !isWord(s[i - 1]));
      const close = opens && !absent.has(delim) ? findCloser(s, delim, i + delim.length) : -1;
      if (close >= 0) {
        push({ kind: delim.length === 2 ? 'strong' : 'em', children: parseInline(s.slice(i + delim.length, close), depth + 1, inLink) });
        i = close + delim.length;
        continue;
      }
      if (opens && s.indexOf(delim, i + delim.length) < 0) absent.add(delim);
      text += delim;
      i += delim.length;
      continue;
    }
    if (c === '[' && !inLink && depth < MAX_DEPTH) {
      if (bracket <= i) {
        const at = s.indexOf(']', i + 1);
        bracket = at < 0 ? Infinity : at;
      }
      const link = bracket === Infinity ? null : matchLink(s, i, bracket);
      const href = link && safeHref(link.target);
      if (link && href) {
        push({ kind: 'link', href, children: parseInline(link.label, depth + 1, true) });
        i = link.end;
        continue;
      }
    }
    if ((c === 'h' || c === 'H') && !inLink && (i === 0 || /[\s(]/.test(s[i - 1]!))) {
      const url = matchAutolink(s, i);
      if (url !== null) {
        push({ kind: 'link', href: safeHref(url)!, children: [{ kind: 'text', text: url }] });
        i += url.length;
        continue;
      }
    }
    text += c;
    i += 1;
  }
  if (text !== '') out.push({ kind: 'text', text });
  return out;
}

function renderInline(nodes: Inline[]): ComponentChild[] {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text': return node.text;
      case 'code': return <code key={i}>{node.text}</code>;
      case 'strong': return <strong key={i}>{renderInline(node.children)}</strong>;
      case 'em': return <em key={i}>{renderInline(node.children)}</em>;
      case 'link': return <a key={i} href={node.href} rel="noopener noreferrer" target="_blank">{renderInline(node.children)}</a>;
    }
  });
}

/** The agent's `#` is a heading inside a turn (h3): h4 and below, so the page's outline holds. */
const HEADINGS = ['h4', 'h5', 'h6', 'h6', 'h6', 'h6'] as const;

function renderBlock(block: Block, key: number): ComponentChild {
  switch (block.kind) {
    case 'paragraph': return <p key={key}>{renderInline(block.children)}</p>;
    case 'heading': {
      const Tag = HEADINGS[block.level - 1]!;
      return <Tag key={key}>{renderInline(block.children)}</Tag>;
    }
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{renderInline(item)}</li>);
      return block.ordered ? <ol key={key} start={block.start}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'code': return <pre key={key} class="code-block" data-lang={block.lang || undefined}><code>{block.text}</code></pre>;
  }
}

/** `source` as elements inside a `div.markdown`. */
export function renderMarkdown(source: string): VNode {
  return <div class="markdown">{parseMarkdown(source).map(renderBlock)}</div>;
}
