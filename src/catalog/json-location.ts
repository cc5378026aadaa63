/**
 * Where a JSON text stops being valid, as a 1-based line and column, and what was expected
 * there. `JSON.parse` names a position for most errors on Node 20 but not all ("Unexpected
 * token …"), and its message quotes the text around the fault — a spec path can name a file
 * the caller may not read (issue 24, item 3) — so a small iterative scanner finds the offset
 * and says what it expected in words of its own, never with the file's characters.
 */

/** 1-based position of a character offset. */
export interface TextLocation {
  line: number;
  column: number;
}

/** The first fault of an invalid JSON text: its offset and what was expected there (no text of the input). */
export interface JsonFault {
  offset: number;
  expected: string;
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = '"\\/bfnrt';

const VALUE = 'a value (an object, array, string, number, true, false or null)';
/** What the scanner expected at a fault, in its own words (never the input's text). */
const EXPECTED = {
  value: `expected ${VALUE}`,
  valueAfterComma: `expected ${VALUE} after ','; no trailing commas in JSON`,
  keyOrClose: 'expected a property name in double quotes or \'}\'',
  key: 'expected a property name in double quotes after \',\'; no trailing commas in JSON',
  colon: 'expected \':\' after the property name',
  commaOrCloseObject: 'expected \',\' or \'}\' after the property value',
  commaOrCloseArray: 'expected \',\' or \']\' after the array element',
  end: 'expected the end of the text after the JSON value (one value per file)',
  truncated: 'the text ends before the JSON value is complete (an unclosed object, array or string?)',
  empty: 'the text is empty; a spec is a JSON object',
  controlInString: 'a control character (a raw newline or tab?) inside a string; write it as \\n or \\t',
  badEscape: 'an invalid escape inside a string; a backslash starts one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
} as const;

/** Offset just past a string starting at `start` (a quote), or its fault. */
function scanString(text: string, start: number): number | JsonFault {
  let i = start + 1;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) return i + 1;
    if (ch < 0x20) return { offset: i, expected: EXPECTED.controlInString };
    if (ch === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, expected: EXPECTED.badEscape };
        i += 6;
        continue;
      }
      if (next === undefined) break;
      if (!ESCAPES.includes(next)) return { offset: i, expected: EXPECTED.badEscape };
      i += 2;
      continue;
    }
    i++;
  }
  return { offset: text.length, expected: EXPECTED.truncated };
}

type Expect = 'value' | 'valueAfterComma' | 'valueOrClose' | 'keyOrClose' | 'key' | 'colon' | 'commaOrClose' | 'end';

/**
 * The first fault of `text` as JSON, or null if it is valid. Iterative (explicit stack) so
 * deeply nested input cannot overflow the call stack.
 */
export function findJsonFault(text: string): JsonFault | null {
  const stack: Array<'o' | 'a'> = [];
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (stack.length === 0 ? 'end' : 'commaOrClose');
  const fault = (expected: string): JsonFault => ({ offset: i, expected });
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (i >= text.length) {
      if (expect === 'end') return null;
      return fault(stack.length === 0 && expect === 'value' ? EXPECTED.empty : EXPECTED.truncated);
    }
    const ch = text[i]!;
    switch (expect) {
      case 'end':
        return fault(EXPECTED.end);
      case 'colon':
        if (ch !== ':') return fault(EXPECTED.colon);
        i++;
        expect = 'value';
        continue;
      case 'keyOrClose':
      case 'key': {
        if (ch === '}' && expect === 'keyOrClose') {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        if (ch !== '"') return fault(EXPECTED[expect]);
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        expect = 'colon';
        continue;
      }
      case 'commaOrClose': {
        const top = stack[stack.length - 1];
        if (ch === ',') {
          i++;
          expect = top === 'o' ? 'key' : 'valueAfterComma';
          continue;
        }
        if ((ch === '}' && top === 'o') || (ch === ']' && top === 'a')) {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        return fault(top === 'o' ? EXPECTED.commaOrCloseObject : EXPECTED.commaOrCloseArray);
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
      case 'valueAfterComma': {
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
          const end = scanString(text, i);
          if (typeof end !== 'number') return end;
          i = end;
        } else if (text.startsWith('true', i)) i += 4;
        else if (text.startsWith('false', i)) i += 5;
        else if (text.startsWith('null', i)) i += 4;
        else {
          NUMBER_RE.lastIndex = i;
          if (!NUMBER_RE.test(text)) return fault(EXPECTED[expect]);
          i = NUMBER_RE.lastIndex;
        }
        expect = afterValue();
        continue;
      }
    }
  }
}

/** Offset of the first character that makes `text` invalid JSON, or -1 if it is valid. */
export function findJsonErrorOffset(text: string): number {
  return findJsonFault(text)?.offset ?? -1;
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
