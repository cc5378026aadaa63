import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/protocol/index.js';
// @ts-expect-error: a plain .mjs script without types
import { BEGIN, END, errorCodeTable } from '../scripts/gen-error-codes.mjs';

describe('the refusal codes', () => {
  it('docs/protocol.md lists every code with the status and title the table gives it', () => {
    const text = fs.readFileSync(new URL('../docs/protocol.md', import.meta.url), 'utf8');
    const block = text.slice(text.indexOf(BEGIN) + BEGIN.length, text.indexOf(END)).trim();
    expect(block).toBe(errorCodeTable(ERROR_CODES));
  });

  it('every code is a refusal (4xx) or a failure (5xx), in SCREAMING_SNAKE case', () => {
    for (const [code, { status, title }] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(status >= 400 && status <= 599, `${code}: ${status}`).toBe(true);
      expect(title.length).toBeGreaterThan(3);
    }
  });
});
