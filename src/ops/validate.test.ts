import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { SpectermError } from '../protocol/index.js';
import { parseOrThrow } from './validate.js';

function messagesFor(schema: z.ZodType, value: unknown): string[] {
  try {
    parseOrThrow(schema, value, 'body', 'sending a message');
  } catch (error) {
    if (error instanceof SpectermError) return error.errors.map((e) => e.message);
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('parseOrThrow', () => {
  it("says what a field must be in a person's words, without the validator's jargon", () => {
    const schema = z.object({
      text: z.string().min(1), name: z.string().max(4), cols: z.number().int().min(2), wait: z.enum(['accepted', 'idle']), tags: z.array(z.string()).min(1),
    }).strict();
    const messages = messagesFor(schema, { text: '', name: 'toolong', cols: 1, wait: 'later', tags: [] });
    expect(messages).toEqual([
      '/text: must not be empty (got "")',
      '/name: must be at most 4 characters (got "toolong")',
      '/cols: must be at least 2 (got 1)',
      '/wait: must be one of "accepted", "idle" (got "later")',
      '/tags: must have at least 1 item (got [])',
    ]);
    expect(messagesFor(schema, { text: 5 })[0]).toBe('/text: must be a string (got 5)');
    expect(messagesFor(schema, { text: 'x' })).toContain('/name: is missing; it must be a string');
    for (const message of messages) expect(message).not.toMatch(/Too (small|big)|>=|<=|Invalid (input|option)/);
  });
});
