import { describe, expect, it } from 'vitest';
import { buttonForKey, keysOf } from './prompt-keys.js';

const claude = [
  { index: 1, label: 'Yes' },
  { index: 2, label: 'Yes, and don\'t ask again for npm test commands' },
  { index: 3, label: 'No, and tell Claude what to do differently (esc)' },
];

describe('the keys that answer a prompt', () => {
  it('presses by displayed number, y the first "Yes", n the first "No"', () => {
    expect(buttonForKey('2', claude)).toBe(claude[1]);
    expect(buttonForKey('y', claude)).toBe(claude[0]);
    expect(buttonForKey('n', claude)).toBe(claude[2]);
    expect(buttonForKey('4', claude)).toBeUndefined();
    expect(buttonForKey('0', [{ index: 0, label: 'Zero' }])).toBeUndefined();
    expect(buttonForKey('x', claude)).toBeUndefined();
  });

  it('reads n as Cancel, then as the Esc option, when no label starts with "No"', () => {
    const cancel = [{ index: 1, label: 'Continue' }, { index: 2, label: 'Cancel' }];
    expect(buttonForKey('n', cancel)).toBe(cancel[1]);
    const esc = [{ index: 1, label: 'Proceed' }, { index: 2, label: 'Go back (Esc)' }];
    expect(buttonForKey('n', esc)).toBe(esc[1]);
    expect(buttonForKey('y', esc)).toBeUndefined();
    // "Nothing" is not a no.
    expect(buttonForKey('n', [{ index: 1, label: 'Nothing to add' }])).toBeUndefined();
  });

  it('names each button\'s keys for its hint', () => {
    expect(claude.map((b) => keysOf(b, claude))).toEqual([['1', 'y'], ['2'], ['3', 'n']]);
    expect(keysOf({ index: 12, label: 'Twelve' }, [{ index: 12, label: 'Twelve' }])).toEqual([]);
  });
});
