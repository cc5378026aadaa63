import { describe, expect, it } from 'vitest';
import { promptShape } from './prompt-shape.js';

describe('promptShape: a prompt waiting for a person at the live bottom', () => {
  it('sees an AskUserQuestion-style picker (cursor-marked numbered options)', () => {
    const screen = ['☐ Framework', '', 'Which test framework should we use?', '', '❯ 1. Vitest', '     Fast, Vite-native', '  2. Jest', '  3. Type something.', '', 'Enter to select · ↑/↓ to navigate · Esc to cancel'];
    expect(promptShape(screen)).toMatchObject({ reason: 'option_block' });
  });

  it('sees a plan-mode exit prompt with no "Do you want" and no hints', () => {
    expect(promptShape(['Exit plan mode?', '', ' ❯ 1. Yes, and switch to default mode', '   2. No, keep planning'])?.reason).toBe('option_block');
  });

  it('sees a trust dialog (unnumbered options) by its hints, a boxed numbered list and a radio list', () => {
    expect(promptShape(['Do you trust this folder?', '❯ Yes, proceed', '  No, exit', '', 'Enter to confirm · Esc to cancel'])?.reason).toBe('navigation_hints');
    expect(promptShape(['│ Pick one      │', '│ › 1. gpt-5   │', '│   2. o3      │'])?.reason).toBe('option_block');
    expect(promptShape(['● Vitest', '○ Jest'])?.reason).toBe('option_block');
  });

  it('sees navigation hints alone: Enter to select, or two kinds of hint', () => {
    expect(promptShape(['Select a model', 'gpt-5 (current)', 'Press enter to confirm'])?.reason).toBe('navigation_hints');
    expect(promptShape(['Resume a session', 'yesterday: fix the build', '↑/↓ move · esc to go back'])?.reason).toBe('navigation_hints');
  });

  it('does not fire on an ordinary numbered list in an answer, even at the bottom', () => {
    const answer = ['● Here is the plan:', '', '1. Install the deps', '2. Run the tests', '3. Fix what fails', '', '› ', '  ? for shortcuts'];
    expect(promptShape(answer)).toBeNull();
  });

  it('does not fire on a spinner line that says "esc to cancel", nor on a typed "1." in the composer', () => {
    expect(promptShape(['⠋ Thinking about it (esc to cancel, 3s)', '> ', '~/project  gemini-2.5-pro'])).toBeNull();
    expect(promptShape(['❯ 1. make it faster', '──────', '  ? for shortcuts'])).toBeNull();
  });

  it('does not fire on a composer over an indented footer (Codex idle: the shape of an unnumbered cursor list)', () => {
    expect(promptShape(['Worked for 1s • 04:25', '› Ask Codex to do anything', '  gpt-5-codex default · ~/project · say hello'])).toBeNull();
    expect(promptShape(['❯ Yes, proceed', '  No, exit'])).toBeNull();
  });

  it('looks only at the live bottom: an option block scrolled far above does not count', () => {
    const old = ['❯ 1. Yes', '  2. No', ...Array.from({ length: 20 }, (_, i) => `line ${i}`)];
    expect(promptShape(old)).toBeNull();
  });
});
