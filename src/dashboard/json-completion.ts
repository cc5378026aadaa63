/**
 * Completion for JSON text against a JSON Schema (the spec editor's Ctrl+Space): where the
 * caret is (a key or a value, at which JSON path), which keys the schema allows there that the
 * object does not have yet, and which values (enums, booleans, state ids) fit. Pure: text in,
 * suggestions out, so it is tested without a browser.
 *
 * The text is usually invalid while someone types, so this is a tolerant scanner, not a parser:
 * it tracks the open objects and arrays, the key each value belongs to, and whether a key or a
 * value comes next — enough to locate the caret in a half-written document.
 */

type Schema = Record<string, unknown>;

export interface Completion {
  /** What the list shows. */
  label: string;
  /** The text that replaces `[from, to)`. */
  insert: string;
  /** The schema's description, when it has one. */
  detail: string;
}

export interface CompletionResult {
  from: number;
  to: number;
  /** `key` when a property name is completed, `value` otherwise. */
  kind: 'key' | 'value';
  /** The JSON path of the object (keys) or of the value, e.g. `["states", 0, "modal_kind"]`. */
  path: (string | number)[];
  items: Completion[];
}

interface Frame {
  type: 'object' | 'array';
  /** Keys seen in this object, over the whole text (the scan goes on past the caret). */
  keys: Set<string>;
  /** The key whose value comes (or is being written) next. */
  key: string | null;
  index: number;
  expect: 'key' | 'colon' | 'value' | 'comma';
}

interface Caret {
  path: (string | number)[];
  frame: Frame | null;
  kind: 'key' | 'value' | 'none';
  /** The string token the caret is in: its opening quote's offset and content before the caret. */
  stringFrom: number | null;
  prefix: string;
}

function pathOf(stack: readonly Frame[]): (string | number)[] {
  const path: (string | number)[] = [];
  for (const f of stack.slice(0, -1)) path.push(f.type === 'object' ? f.key ?? '' : f.index);
  return path;
}

function valuePath(stack: readonly Frame[]): (string | number)[] {
  const top = stack.at(-1);
  if (!top) return [];
  return [...pathOf(stack), top.type === 'object' ? top.key ?? '' : top.index];
}

/** Locates the caret, scanning the whole text so every object knows all its keys. */
function locate(text: string, caret: number): Caret {
  const stack: Frame[] = [];
  let found: Caret | null = null;
  const mark = (kind: Caret['kind'], stringFrom: number | null, prefix: string): void => {
    if (found) return;
    // A key completes the members of the innermost object; a value sits at that object's key.
    found = { path: kind === 'key' ? pathOf(stack) : valuePath(stack), frame: stack.at(-1) ?? null, kind, stringFrom, prefix };
  };
  const expecting = (): Caret['kind'] => {
    const top = stack.at(-1);
    if (!top) return 'value';
    if (top.type === 'object') return top.expect === 'key' ? 'key' : top.expect === 'value' ? 'value' : 'none';
    return top.expect === 'value' ? 'value' : 'none';
  };
  const valueDone = (): void => {
    const top = stack.at(-1);
    if (top) top.expect = 'comma';
  };
  let i = 0;
  while (i < text.length) {
    if (i === caret) mark(expecting(), null, '');
    const c = text[i];
    if (c === '"') {
      const start = i;
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') {
        if (j === caret) mark(expecting(), start, value);
        if (text[j] === '\\' && j + 1 < text.length) { value += text[j + 1]; j += 2; continue; }
        value += text[j];
        j++;
      }
      if (j === caret && !found) mark(expecting(), start, value);
      const top = stack.at(-1);
      if (top?.type === 'object' && top.expect === 'key') {
        top.key = value;
        top.keys.add(value);
        top.expect = 'colon';
      } else valueDone();
      i = text[j] === '"' ? j + 1 : j;
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push({ type: c === '{' ? 'object' : 'array', keys: new Set(), key: null, index: 0, expect: c === '{' ? 'key' : 'value' });
    } else if (c === '}' || c === ']') {
      stack.pop();
      valueDone();
    } else if (c === ':') {
      const top = stack.at(-1);
      if (top?.type === 'object') top.expect = 'value';
    } else if (c === ',') {
      const top = stack.at(-1);
      if (top?.type === 'object') { top.expect = 'key'; top.key = null; } else if (top) { top.index++; top.expect = 'value'; }
    } else if (!/\s/.test(c)) {
      // A number or a literal: runs to the next delimiter.
      // A bare word where a key belongs is a key being typed without its quotes yet.
      let j = i;
      const kind = expecting();
      while (j < text.length && !/[\s,:{}[\]"]/.test(text[j])) {
        j++;
        if (j === caret) mark(kind, null, text.slice(i, j));
      }
      valueDone();
      i = j;
      continue;
    }
    i++;
  }
  if (!found) mark(expecting(), null, '');
  return found!;
}

function resolve(root: Schema, schema: Schema): Schema {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 20; hops++) {
    const name = (s.$ref as string).replace(/^#\/definitions\//, '');
    s = ((root.definitions as Record<string, Schema> | undefined)?.[name]) ?? {};
  }
  return s;
}

/** Every schema the value at `path` may be checked against (one per anyOf/oneOf branch). */
export function schemasAt(root: Schema, path: readonly (string | number)[]): Schema[] {
  let current = expand(root, [root]);
  for (const seg of path) {
    const next: Schema[] = [];
    for (const s of current) {
      if (typeof seg === 'number') {
        if (s.items && typeof s.items === 'object') next.push(s.items as Schema);
        continue;
      }
      const props = s.properties as Record<string, Schema> | undefined;
      if (props?.[seg]) { next.push(props[seg]); continue; }
      const patterns = s.patternProperties as Record<string, Schema> | undefined;
      const byPattern = Object.entries(patterns ?? {}).find(([p]) => new RegExp(p).test(seg));
      if (byPattern) next.push(byPattern[1]);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object') next.push(s.additionalProperties as Schema);
    }
    current = expand(root, next);
  }
  return current;
}

function expand(root: Schema, schemas: Schema[]): Schema[] {
  const out: Schema[] = [];
  const visit = (s: Schema, depth: number): void => {
    const r = resolve(root, s);
    const branches = [r.anyOf, r.oneOf, r.allOf].filter(Array.isArray).flat() as Schema[];
    if (branches.length && depth < 8) { if (r.properties || r.enum) out.push(r); branches.forEach((b) => visit(b, depth + 1)); } else out.push(r);
  };
  schemas.forEach((s) => visit(s, 0));
  return out;
}

const isStateRef = (s: Schema): boolean => typeof s.description === 'string' && /\bstate ids?\b/i.test(s.description) && !/unique state id/i.test(s.description);

/** The state ids written in the text so far (`"id": "…"` inside `states`), for `to`, `from`, … */
export function stateIdsIn(text: string): string[] {
  try {
    const spec = JSON.parse(text) as { states?: { id?: unknown }[] };
    return (spec.states ?? []).map((s) => s.id).filter((id): id is string => typeof id === 'string');
  } catch {
    const at = text.indexOf('"states"');
    if (at < 0) return [];
    return [...new Set([...text.slice(at).matchAll(/"id"\s*:\s*"([^"\\]+)"/g)].map((m) => m[1]))];
  }
}

/** The end of the token the caret is in, so a pick replaces it whole. */
function tokenEnd(text: string, caret: Caret, at: number): number {
  // The rest of the word, and the string's closing quote if it has one: a string still being
  // typed has none, and what follows it (`}]`) is not part of it.
  let j = at;
  while (j < text.length && /[A-Za-z0-9_.+-]/.test(text[j])) j++;
  return caret.stringFrom !== null && text[j] === '"' ? j + 1 : j;
}

/** What fits at `offset` in `text` according to `schema`; null when nothing does. */
export function completeAt(text: string, offset: number, schema: Schema): CompletionResult | null {
  const caret = locate(text, offset);
  if (caret.kind === 'none') return null;
  const from = caret.stringFrom ?? offset - caret.prefix.length;
  const to = tokenEnd(text, caret, offset);
  const prefix = caret.prefix.toLowerCase();
  const items: Completion[] = [];
  const seen = new Set<string>();
  const add = (label: string, insert: string, detail: string): void => {
    if (seen.has(label) || !label.toLowerCase().startsWith(prefix)) return;
    seen.add(label);
    items.push({ label, insert, detail });
  };
  if (caret.kind === 'key') {
    const path = caret.path;
    const hasColon = /^\s*:/.test(text.slice(to));
    for (const s of schemasAt(schema, path)) {
      for (const [key, sub] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
        if (caret.frame?.keys.has(key) && key !== caret.prefix) continue;
        add(key, hasColon ? JSON.stringify(key) : `${JSON.stringify(key)}: `, String(resolve(schema, sub).description ?? sub.description ?? ''));
      }
    }
    return items.length ? { from, to, kind: 'key', path, items } : null;
  }
  const path = caret.path;
  for (const s of schemasAt(schema, path)) {
    if (Array.isArray(s.enum)) for (const v of s.enum) add(String(v), JSON.stringify(v), String(s.description ?? ''));
    if (s.type === 'boolean') { add('true', 'true', String(s.description ?? '')); add('false', 'false', String(s.description ?? '')); }
    if (s.type === 'string' && isStateRef(s)) for (const id of stateIdsIn(text)) add(id, JSON.stringify(id), 'a state of this spec');
  }
  return items.length ? { from, to, kind: 'value', path, items } : null;
}
