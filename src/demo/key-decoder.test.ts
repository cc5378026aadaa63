import { describe, expect, it } from 'vitest';
import { createKeyDecoder } from './key-decoder.js';

describe('createKeyDecoder', () => {
  it('splits text from control keys; CRLF is one Enter', () => {
    const d = createKeyDecoder();
    expect(d.push('hi\r\nyo\u007f\u0003')).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'key', name: 'enter' },
      { type: 'text', text: 'yo' },
      { type: 'key', name: 'backspace' },
      { type: 'key', name: 'ctrl-c' },
    ]);
  });

  it('treats a lone LF as a newline insert and swallows the LF of a CRLF split across chunks', () => {
    const d = createKeyDecoder();
    expect(d.push('a\n')).toEqual([{ type: 'text', text: 'a' }, { type: 'key', name: 'newline' }]);
    expect(d.push('\r')).toEqual([{ type: 'key', name: 'enter' }]);
    expect(d.push('\nb')).toEqual([{ type: 'text', text: 'b' }]);
  });

  it('decodes arrows, delete and focus reports, and never types them as text', () => {
    const d = createKeyDecoder();
    expect(d.push('\u001b[A\u001bOB\u001b[3~\u001b[I\u001b[O\u001b[1;5C')).toEqual([
      { type: 'key', name: 'up' },
      { type: 'key', name: 'down' },
      { type: 'key', name: 'delete' },
      { type: 'focus', focused: true },
      { type: 'focus', focused: false },
      { type: 'key', name: 'right' },
    ]);
  });

  it('joins a bracketed paste across chunks, newlines and Enter included', () => {
    const d = createKeyDecoder();
    expect(d.push('\u001b[200~line one\r')).toEqual([]);
    expect(d.push('line two\u001b[20')).toEqual([]);
    expect(d.push('1~x')).toEqual([{ type: 'paste', text: 'line one\rline two' }, { type: 'text', text: 'x' }]);
  });

  it('keeps a split escape sequence pending and resolves a lone ESC on flush', () => {
    const d = createKeyDecoder();
    expect(d.push('\u001b')).toEqual([]);
    expect(d.hasPending()).toBe(true);
    expect(d.push('[B')).toEqual([{ type: 'key', name: 'down' }]);
    expect(d.push('\u001b')).toEqual([]);
    expect(d.flush()).toEqual([{ type: 'key', name: 'escape' }]);
    expect(d.hasPending()).toBe(false);
  });

  it('swallows Alt+key and unknown sequences instead of typing them', () => {
    const d = createKeyDecoder();
    expect(d.push('\u001bx\u001b[99q')).toEqual([
      { type: 'ignored', sequence: '\u001bx' },
      { type: 'ignored', sequence: '\u001b[99q' },
    ]);
  });
});
