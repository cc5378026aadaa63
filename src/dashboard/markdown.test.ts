import type { VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, renderMarkdown } from './markdown.js';

/** The elements a rendered answer may hold; anything else would be markup from the agent. */
const ALLOWED = new Set(['div', 'p', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'pre', 'code', 'strong', 'em', 'a', 'br']);

interface Seen { tags: string[]; texts: string[]; hrefs: string[] }

/** Walks the VNode tree as Preact would mount it: element types, their props, the text nodes. */
function walk(node: unknown, seen: Seen = { tags: [], texts: [], hrefs: [] }): Seen {
  if (node === null || node === undefined || typeof node === 'boolean') return seen;
  if (typeof node === 'string' || typeof node === 'number') { seen.texts.push(String(node)); return seen; }
  if (Array.isArray(node)) { for (const child of node) walk(child, seen); return seen; }
  const vnode = node as VNode<Record<string, unknown>>;
  expect(typeof vnode.type, 'only plain elements, no components from the text').toBe('string');
  const tag = vnode.type as string;
  seen.tags.push(tag);
  const { children, ...props } = vnode.props;
  for (const name of Object.keys(props)) {
    expect(name, `no markup or handlers from the text (<${tag} ${name}>)`).not.toMatch(/^(on|dangerouslySetInnerHTML$|style$|src$)/i);
  }
  if (tag === 'a') seen.hrefs.push(String(props.href));
  return walk(children, seen);
}

describe('the transcript\'s markdown, rendered to elements and never to HTML', () => {
  it('renders paragraphs, headings, lists, code spans, fenced code, emphasis and http(s) links', () => {
    const text = '# Title\n\nSome *em* and **strong** and `a <b>`.\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst x = 1 < 2;\n```\n\nSee [docs](https://example.com/a?b=1).';
    expect(parseMarkdown(text)).toEqual([
      { kind: 'heading', level: 1, children: [{ kind: 'text', text: 'Title' }] },
      { kind: 'paragraph', children: [
        { kind: 'text', text: 'Some ' }, { kind: 'em', children: [{ kind: 'text', text: 'em' }] }, { kind: 'text', text: ' and ' },
        { kind: 'strong', children: [{ kind: 'text', text: 'strong' }] }, { kind: 'text', text: ' and ' }, { kind: 'code', text: 'a <b>' }, { kind: 'text', text: '.' },
      ] },
      { kind: 'list', ordered: false, start: 1, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] },
      { kind: 'list', ordered: true, start: 1, items: [[{ kind: 'text', text: 'first' }], [{ kind: 'text', text: 'second' }]] },
      { kind: 'code', lang: 'ts', text: 'const x = 1 < 2;' },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'See ' }, { kind: 'link', href: 'https://example.com/a?b=1', children: [{ kind: 'text', text: 'docs' }] }, { kind: 'text', text: '.' }] },
    ]);
    const seen = walk(renderMarkdown(text));
    expect(seen.tags).toEqual(expect.arrayContaining(['h4', 'p', 'em', 'strong', 'code', 'ul', 'ol', 'li', 'pre', 'a']));
    expect(seen.hrefs).toEqual(['https://example.com/a?b=1']);
    const link = (renderMarkdown('[x](http://e.org/)') as VNode<any>).props.children[0].props.children[0];
    expect(link.props).toMatchObject({ href: 'http://e.org/', rel: 'noopener noreferrer', target: '_blank' });
  });

  it('keeps snake_case and a lone asterisk as they are', () => {
    expect(parseMarkdown('run my_test_file now, 2 * 3')).toEqual([{ kind: 'paragraph', children: [{ kind: 'text', text: 'run my_test_file now, 2 * 3' }] }]);
  });

  it.each([
    ['an img with onerror', '<img src=x onerror=alert(1)>'],
    ['a script', '<script>alert(1)</script>'],
    ['a raw HTML block', '<div onclick="alert(1)">\n<iframe src="https://evil.example"></iframe>\n</div>'],
    ['HTML inside emphasis and a list', '- **<svg onload=alert(1)>**\n- *<a href="javascript:alert(1)">x</a>*'],
    ['HTML in a fenced block', '```html\n<script>alert(1)</script>\n```'],
  ])('shows %s as its text', (_name, text) => {
    const seen = walk(renderMarkdown(text));
    for (const tag of seen.tags) expect(ALLOWED.has(tag), tag).toBe(true);
    expect(seen.hrefs).toEqual([]);
    // Every character of the markup survives as text: a person sees what the agent wrote.
    for (const piece of text.match(/<[^>]+>/g)!) expect(seen.texts.join('')).toContain(piece);
  });

  it.each([
    ['javascript:alert(1)'], ['JaVaScRiPt:alert(1)'], [' javascript:alert(1)'], ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:x'], ['//evil.example/x'], ['/relative'], ['file:///etc/passwd'], ['https://'],
  ])('links nothing but http(s): [x](%s) stays text', (href) => {
    const text = `[click](${href})`;
    const seen = walk(renderMarkdown(text));
    expect(seen.hrefs).toEqual([]);
    expect(seen.texts.join('')).toContain('click');
  });

  it('links bare http(s) addresses, without the sentence\'s closing punctuation', () => {
    expect(walk(renderMarkdown('Open https://example.com/x. Or javascript:alert(1).')).hrefs).toEqual(['https://example.com/x']);
  });

  it('renders a huge or deeply nested text without blowing up', () => {
    const started = Date.now();
    walk(renderMarkdown('*'.repeat(50_000)));
    walk(renderMarkdown('['.repeat(50_000) + '_a'.repeat(20_000)));
    walk(renderMarkdown('['.repeat(50_000) + ']'));
    walk(renderMarkdown('[a]('.repeat(20_000)));
    walk(renderMarkdown('**'.repeat(5_000) + 'x' + '**'.repeat(5_000)));
    walk(renderMarkdown('`'.repeat(20_000) + ' x'));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps an unclosed fence as code to the end', () => {
    expect(parseMarkdown('```\nline 1\nline 2')).toEqual([{ kind: 'code', lang: '', text: 'line 1\nline 2' }]);
  });
});
