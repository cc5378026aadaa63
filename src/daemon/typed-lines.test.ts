import { describe, expect, it } from 'vitest';
import { TypedLines } from './typed-lines.js';

const typed = (...chunks: string[]) => {
  const lines = new TypedLines();
  return chunks.flatMap((c) => lines.feed(c));
};

describe('TypedLines', () => {
  it('completes a line typed key by key at Enter, with backspaces applied', () => {
    expect(typed(...'/cleer'.split(''), '\x7f', '\x7f', 'a', 'r', '\r')).toEqual(['/clear']);
    expect(typed('hello\rworld\n')).toEqual(['hello', 'world']);
  });

  it('drops a line cleared with Ctrl-U or Ctrl-C, and empty Enters', () => {
    expect(typed('/clear', '\x15', '\r', '\r', 'ok\r')).toEqual(['ok']);
    expect(typed('/clear', '\x03', '\r')).toEqual([]);
  });

  it('takes a bracketed paste whole, newlines included, even split across chunks', () => {
    expect(typed('\x1b[200~first\nsec', 'ond\x1b[201~', '\r')).toEqual(['first\nsecond']);
  });

  it('drops a line edited with the cursor keys rather than guessing it, and starts afresh after', () => {
    expect(typed('/clean', '\x1b[D', '\x7f', 'r', '\r', '/clear\r')).toEqual(['/clear']);
    expect(typed('abc', '\x01', 'x\r')).toEqual([]);
  });
});
