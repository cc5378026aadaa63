import { describe, expect, it } from 'vitest';
import { SCOPES, scopeAllows } from './scopes.js';

describe('scopeAllows', () => {
  it('lets a scope do what every lower scope allows and nothing above it', () => {
    for (const [i, held] of SCOPES.entries()) {
      for (const [j, needed] of SCOPES.entries()) expect(scopeAllows(held, needed)).toBe(i >= j);
    }
  });

  it('puts input above approve (raw keys can answer any prompt)', () => {
    expect(scopeAllows('input', 'approve')).toBe(true);
    expect(scopeAllows('approve', 'input')).toBe(false);
  });
});
