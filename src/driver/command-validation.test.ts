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
    const problem = validateCommand({ kind: 'resize', ...size });
    expect(problem?.code).toBe('INVALID_SIZE');
    expect(problem?.reason).toMatch(message);
  });
});

describe('validateCommand pty_write', () => {
  it('accepts keystrokes up to the largest message, 1 MiB', () => {
    expect(validateCommand({ kind: 'pty_write', data: 'x'.repeat(1024 * 1024) })).toBeNull();
  });

  it('refuses more than 1 MiB of data with the size and the limit', () => {
    const problem = validateCommand({ kind: 'pty_write', data: 'x'.repeat(1024 * 1024 + 1) });
    expect(problem?.code).toBe('INVALID_COMMAND');
    expect(problem?.reason).toMatch(
      /^pty_write\.data is 1048577 bytes of UTF-8; at most 1048576 bytes \(1 MiB\) are accepted in one write: split it/,
    );
  });
});
