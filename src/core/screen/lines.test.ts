import { describe, expect, it } from 'vitest';
import { splitScreenLines } from './lines.js';

describe('splitScreenLines', () => {
  it('splits on \\n and strips one trailing \\r per line', () => {
    expect(splitScreenLines('a\r\nb\r\r\nc')).toEqual(['a', 'b\r', 'c']);
  });

  it('keeps empty lines and gives one empty line for an empty screen', () => {
    expect(splitScreenLines('\n\n')).toEqual(['', '', '']);
    expect(splitScreenLines('')).toEqual(['']);
  });

  it('returns no lines for a non-string input instead of throwing', () => {
    expect(splitScreenLines(undefined as unknown as string)).toEqual([]);
    expect(splitScreenLines(42 as unknown as string)).toEqual([]);
  });
});
