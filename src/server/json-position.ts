/**
 * Where a JSON text breaks. Node 20's `JSON.parse` names the position for some errors
 * ("… at position 6") but not for "Unexpected token", so on failure this small scanner finds
 * the offset of the first character no valid JSON could have there. Only run after
 * `JSON.parse` failed; it checks syntax, it builds no values.
 * @module
 */

class Stop extends Error {
  constructor(readonly at: number) { super('json syntax'); }
}

/** The offset of the first syntax error in `text`, or `text.length` when it ends too early. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++; };
  const fail = (): never => { throw new Stop(i); };
  const expect = (ch: string) => { if (text[i] !== ch) fail(); i++; };
  const literal = (word: string) => { for (const ch of word) expect(ch); };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const ch = text[i]!;
      if (ch === '"') { i++; return; }
      if (ch < ' ') fail();
      if (ch === '\\') {
        i++;
        if (text[i] === 'u') { i++; for (let k = 0; k < 4; k++) { if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail(); i++; } }
        else if ('"\\/bfnrt'.includes(text[i] ?? '!')) i++;
        else fail();
      } else i++;
    }
  };
  const digits = () => { const start = i; while (/[0-9]/.test(text[i] ?? '')) i++; if (i === start) fail(); };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++; else digits();
    if (text[i] === '.') { i++; digits(); }
    if (text[i] === 'e' || text[i] === 'E') { i++; if (text[i] === '+' || text[i] === '-') i++; digits(); }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) { ws(); string(); ws(); expect(':'); value(); ws(); if (text[i] === ',') { i++; continue; } expect('}'); return; }
    }
    if (ch === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) { value(); ws(); if (text[i] === ',') { i++; continue; } expect(']'); return; }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || /[0-9]/.test(ch ?? '')) return number();
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return text.length;
  } catch (error) {
    if (error instanceof Stop) return error.at;
    throw error;
  }
}
