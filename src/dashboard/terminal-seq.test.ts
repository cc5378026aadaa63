import { describe, expect, it } from 'vitest';
import { TerminalSeq } from './terminal-seq.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('TerminalSeq', () => {
  it('writes each byte after the snapshot exactly once', () => {
    const seq = new TerminalSeq();
    expect(seq.frame(0, bytes('early')).kind).toBe('no-snapshot');
    seq.snapshot(5);
    const first = seq.frame(5, bytes('hello'));
    expect(first.kind === 'write' && text(first.data)).toBe('hello');
    expect(seq.frame(5, bytes('hello')).kind).toBe('duplicate');
    const overlap = seq.frame(8, bytes('lo world'));
    expect(overlap.kind === 'write' && text(overlap.data)).toBe(' world');
    expect(seq.next).toBe(16);
  });

  it('reports a gap with the seq to resume from', () => {
    const seq = new TerminalSeq();
    seq.snapshot(10);
    expect(seq.frame(12, bytes('x'))).toEqual({ kind: 'gap', expected: 10, got: 12 });
    expect(seq.next).toBe(10);
  });
});
