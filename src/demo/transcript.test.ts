import { describe, expect, it } from 'vitest';
import { formatDuration, formatSpinnerLine, formatTokens, formatWorkedLine, spinnerGlyph, textWidth, wrapWords } from './transcript.js';

describe('transcript formatting', () => {
  it('formats the spinner line like Claude Code', () => {
    expect(formatSpinnerLine({ glyph: '✻', verb: 'Pondering', elapsedSeconds: 3, tokens: 1234, direction: '↑' }))
      .toBe('✻ Pondering… (3s · ↑ 1.2k tokens · esc to interrupt)');
    expect(formatWorkedLine(4)).toBe('✻ Worked for 4s');
    expect(formatDuration(125)).toBe('2m 5s');
    expect(formatTokens(999.9)).toBe('999');
  });

  it('cycles the spinner glyphs forward then backward', () => {
    expect(Array.from({ length: 12 }, (_, i) => spinnerGlyph(i)).join('')).toBe('·✢✳✶✻✽✻✶✳✢·✢');
  });

  it('wraps words without leading spaces on continuation rows and cuts over-long words', () => {
    expect(wrapWords('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapWords('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapWords('one\ntwo', 10)).toEqual(['one', 'two']);
    expect(textWidth('日本')).toBe(4);
  });
});
