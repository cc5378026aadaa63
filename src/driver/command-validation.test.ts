import { describe, expect, it } from 'vitest';
import { validateCommand } from './command-validation.js';

describe('validateCommand resize', () => {
  it('accepts the largest terminal, 1000 x 500', () => {
    expect(validateCommand({ kind: 'resize', cols: 1000, rows: 500 })).toBeNull();
  });

  it.each([
    [{ cols: 10_000, rows: 10_000 }, /resize\.cols must be an integer between 1 and 1000 \(the widest terminal specterm supports\), got 10000/],
    [{ cols: 80, rows: 501 }, /resize\.rows must be an integer between 1 and 500 \(the tallest terminal specterm supports\), got 501/],
    [{ cols: 0, rows: 24 }, /resize\.cols must be an integer between 1 and 1000, got 0/],
    [{ cols: 80, rows: '24' }, /resize\.rows must be an integer between 1 and 500, got "24"/],
  ])('refuses %o naming the field, the value and the limit', (size, message) => {
    expect(validateCommand({ kind: 'resize', ...size })).toMatch(message);
  });
});
