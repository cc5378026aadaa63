/**
 * Where a JSON text stops being valid, as a 1-based line and column. `JSON.parse` names
 * a position for most errors on Node 20 but not all ("Unexpected token …"), so a small
 * iterative scanner finds the offset itself.
 */

/** 1-based position of a character offset. */
export interface TextLocation {
  line: number;
  column: number;
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = '"\\/bfnrt';

/** Offset just past a string starting at `start` (a quote), or the offset of its error as `-(offset+1)`. */
function scanString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) return i + 1;
    if (ch < 0x20) return -(i + 1);
    if (ch === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -(i + 1);
        i += 6;
        continue;
      }
      if (next === undefined || !ESCAPES.includes(next)) return -(i + 1);
      i += 2;
      continue;
    }
    i++;
  }
  return -(text.length + 1);
}

/**
 * Offset of the first character that makes `text` invalid JSON, or -1 if it is valid.
 * Iterative (explicit stack) so deeply nested input cannot overflow the call stack.
 */
export function findJsonErrorOffset(text: string): number {
  const stack: Array<'o' | 'a'> = [];
  type Expect = 'value' | 'valueOrClose' | 'keyOrClose' | 'key' | 'colon' | 'commaOrClose' | 'end';
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (stack.length === 0 ? 'end' : 'commaOrClose');
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (i >= text.length) return expect === 'end' ? -1 : text.length;
    const ch = text[i]!;
    switch (expect) {
      case 'end':
        return i;
      case 'colon':
        if (ch !== ':') return i;
        i++;
        expect = 'value';
        continue;
      case 'keyOrClose':
      case 'key':
        if (ch === '}' && expect === 'keyOrClose') {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        if (ch !== '"') return i;
        i = scanString(text, i);
        if (i < 0) return -i - 1;
        expect = 'colon';
        continue;
      case 'commaOrClose': {
        const top = stack[stack.length - 1];
        if (ch === ',') {
          i++;
          expect = top === 'o' ? 'key' : 'value';
          continue;
        }
        if ((ch === '}' && top === 'o') || (ch === ']' && top === 'a')) {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        return i;
      }
      case 'valueOrClose':
        if (ch === ']') {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        expect = 'value'; // anything else must be a value: re-read this character as one
        continue;
      case 'value':
        if (ch === '{') {
          stack.push('o');
          i++;
          expect = 'keyOrClose';
          continue;
        }
        if (ch === '[') {
          stack.push('a');
          i++;
          expect = 'valueOrClose';
          continue;
        }
        if (ch === '"') {
          i = scanString(text, i);
          if (i < 0) return -i - 1;
        } else if (text.startsWith('true', i)) i += 4;
        else if (text.startsWith('false', i)) i += 5;
        else if (text.startsWith('null', i)) i += 4;
        else {
          NUMBER_RE.lastIndex = i;
          if (!NUMBER_RE.test(text)) return i;
          i = NUMBER_RE.lastIndex;
        }
        expect = afterValue();
        continue;
    }
  }
}

/** 1-based line and column of a character offset. */
export function locateOffset(text: string, offset: number): TextLocation {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(0, offset), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
