import { describe, expect, it } from 'vitest';
import { pairingCodeFromHash } from './pairing.js';

describe('pairingCodeFromHash', () => {
  it('reads the code from the fragment', () => {
    expect(pairingCodeFromHash('#pair=q3Yw1m2Hc8bX0Zr4nT6uVg')).toBe('q3Yw1m2Hc8bX0Zr4nT6uVg');
    expect(pairingCodeFromHash('#x=1&pair=abc')).toBe('abc');
  });

  it('is null without a code', () => {
    expect(pairingCodeFromHash('')).toBeNull();
    expect(pairingCodeFromHash('#pair=')).toBeNull();
    expect(pairingCodeFromHash('#other=1')).toBeNull();
  });
});
