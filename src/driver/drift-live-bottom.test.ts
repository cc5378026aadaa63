import { describe, expect, it } from 'vitest';
import { rowsBelowTranscript } from './drift-live-bottom.js';

describe('rowsBelowTranscript: where spec_drift looks for a waiting prompt', () => {
  it('cuts at the last input row: what an answer quoted above it is transcript', () => {
    expect(rowsBelowTranscript(['• press Enter to select', '', '❯ ', '  ? for shortcuts'])).toEqual(['❯ ', '  ? for shortcuts']);
    expect(rowsBelowTranscript(['• It draws:', '  › 1. Vitest', '› Ask Codex to do anything', '  ? for shortcuts'])).toEqual(['› Ask Codex to do anything', '  ? for shortcuts']);
    expect(rowsBelowTranscript(['╭────╮', '│ > Type your message │', '╰────╯'])).toEqual(['│ > Type your message │', '╰────╯']);
  });

  it('keeps a prompt drawn in place of the input box: a cursor on a numbered option is no input row', () => {
    const picker = ['❯ set up the tests', '──', 'Which framework?', '❯ 1. Vitest', '  2. Jest', 'Enter to select · Esc to cancel'];
    expect(rowsBelowTranscript(picker)).toEqual(picker);
    expect(rowsBelowTranscript(['Pick one', '› 2) o3', '  3) gpt-5'])).toEqual(['Pick one', '› 2) o3', '  3) gpt-5']);
  });

  it('keeps the cursor row of an unnumbered dialog and what is under it', () => {
    expect(rowsBelowTranscript(['Do you trust this folder?', '❯ Yes, proceed', '  No, exit', 'Enter to confirm · Esc to cancel'])).toEqual(['❯ Yes, proceed', '  No, exit', 'Enter to confirm · Esc to cancel']);
  });
});
