import { describe, expect, it } from 'vitest';
import type { ExtractButtons, FsmState, SectionDef } from '../spec/types.js';
import { splitScreenLines } from '../screen/lines.js';
import { deriveModal, extractButtons, mapKeyToken } from './extract.js';
import { extractTitle } from './extract-title.js';
import { resolveSections } from './sections.js';

const D = '─'.repeat(30);
const NUMBERED: ExtractButtons = {
  section: 'modal',
  pattern: '^\\s*(?:[❯›>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$',
  flags: 'gm',
  key_for_index: '{index}\r',
  min_count: 2,
};
const CLAUDE_SECTIONS: Record<string, SectionDef> = {
  footer: { anchor: '^[❯›>]', anchor_last: true },
  modal: {
    anchor: ['^[─╌]+$', '\\S'],
    anchor_last: true,
    anchor_context: [{ next: '^(?![─╌]+$)' }, { next: '^\\s*[❯›>➜]?\\s*1\\.\\s' }],
    until: '^\\s*[❯›>➜](?!\\s*\\d+\\.)',
  },
  body: { from_top: 0, until: 'modal' },
};

function frame(text: string, defs: Record<string, SectionDef> = CLAUDE_SECTIONS) {
  const lines = splitScreenLines(text);
  return { sections: resolveSections(defs, lines), screen: lines.join('\n') };
}

describe('extractTitle', () => {
  const f = frame(['body', D, '', ' Allow Bash(rm -rf build)?', ' ❯ 1. Yes', '   2. No'].join('\n'), {
    modal: { anchor: '^─+$' },
  });

  it('first_line: the first line that is neither blank nor a box rule, trimmed', () => {
    expect(extractTitle({ section: 'modal', first_line: true }, f.sections, f.screen)).toBe('Allow Bash(rm -rf build)?');
    expect(extractTitle({ first_line: true }, f.sections, ' ═══ \n')).toBeNull();
  });

  it('first_line takes precedence over regex', () => {
    expect(extractTitle({ section: 'modal', first_line: true, regex: 'Yes' }, f.sections, f.screen)).toBe('Allow Bash(rm -rf build)?');
  });

  it('regex: group 1 when it participated, else the whole match, trimmed; flags default i', () => {
    expect(extractTitle({ section: 'modal', regex: 'allow (.+)\\?' }, f.sections, f.screen)).toBe('Bash(rm -rf build)');
    expect(extractTitle({ section: 'modal', regex: 'allow bash' }, f.sections, f.screen)).toBe('Allow Bash');
    expect(extractTitle({ section: 'modal', regex: 'Allow( x)?' }, f.sections, f.screen)).toBe('Allow');
    expect(extractTitle({ section: 'modal', regex: 'Allow()' }, f.sections, f.screen)).toBe('');
    expect(extractTitle({ section: 'modal', regex: 'allow', flags: '' }, f.sections, f.screen)).toBeNull();
  });

  it('is null for an empty section, an unknown section, a bad regex or no rule kind', () => {
    expect(extractTitle({ section: 'ghost', first_line: true }, f.sections, f.screen)).toBeNull();
    expect(extractTitle({ section: 'modal', regex: '(' }, f.sections, f.screen)).toBeNull();
    expect(extractTitle({ section: 'modal' }, f.sections, f.screen)).toBeNull();
  });
});

describe('extractButtons — numbered mode', () => {
  it('extracts index, trimmed label, key and the current row', () => {
    const hay = ' Do you want to proceed?\n ❯ 1. Yes\n   2. Yes, and don\'t ask again  \n   3. No';
    expect(extractButtons(NUMBERED, hay)).toEqual([
      { index: 1, label: 'Yes', key: '1\r', current: true },
      { index: 2, label: "Yes, and don't ask again", key: '2\r', current: false },
      { index: 3, label: 'No', key: '3\r', current: false },
    ]);
  });

  it('adds g when the flags lack it and skips rows with index ≤ 0 or an empty label', () => {
    const rule = { ...NUMBERED, flags: 'm' };
    expect(extractButtons(rule, '0. zero\n1. one\n2.   \n2. two').map((b) => b.index)).toEqual([1, 2]);
  });

  it('keeps only the bottom-most contiguous numbered block: stray body lists never become buttons (§13.12)', () => {
    const hay = ['1. First, read the file', '2. Then patch it', '3. Run tests', '', 'Proceed?', '❯ 1. Yes', '  2. No'].join('\n');
    expect(extractButtons(NUMBERED, hay).map((b) => [b.index, b.label, b.current])).toEqual([
      [1, 'Yes', true],
      [2, 'No', false],
    ]);
    expect(extractButtons(NUMBERED, '3. c\n1. a\n2. b').map((b) => b.label)).toEqual(['a', 'b']);
  });

  it('does not let a stray "> 1." blockquote above the block claim the cursor row', () => {
    const hay = ['> 1. quoted step', '> 2. quoted step', 'Pick one', '  1. Opus', '❯ 2. Sonnet', '  3. Haiku'].join('\n');
    const buttons = extractButtons(NUMBERED, hay);
    expect(buttons.filter((b) => b.current).map((b) => b.label)).toEqual(['Sonnet']);
    expect(buttons).toHaveLength(3);
  });

  it('continuation_lines: appends indented follow-up lines to the label and consumes them', () => {
    const rule: ExtractButtons = {
      pattern: '^\\s*(?:[❯›>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$',
      continuation_lines: true,
      key_for_index: '{index}',
    };
    const hay = ['› 1. Yes, proceed', '  2. Yes, and don\'t ask again for', '     commands that start with `git`', '  3. No', 'not indented'].join('\n');
    expect(extractButtons(rule, hay)).toEqual([
      { index: 1, label: 'Yes, proceed', key: '1', current: true },
      { index: 2, label: "Yes, and don't ask again for commands that start with `git`", key: '2', current: false },
      { index: 3, label: 'No', key: '3', current: false },
    ]);
  });

  it('continuation_lines: removes g from the flags', () => {
    const rule: ExtractButtons = { pattern: '^(\\d+)\\. (.+)$', flags: 'gm', continuation_lines: true };
    expect(extractButtons(rule, '1. a\n2. b').map((b) => b.label)).toEqual(['a', 'b']);
  });

  it('uses {index} as the key template when key_for_index is absent', () => {
    expect(extractButtons({ pattern: '(\\d+)\\. (\\w+)' }, '1. a 2. b').map((b) => b.key)).toEqual(['1', '2']);
  });

  it('returns [] for an invalid pattern or a missing pattern', () => {
    expect(extractButtons({ pattern: '(' }, '1. a')).toEqual([]);
    expect(extractButtons({} as ExtractButtons, '1. a')).toEqual([]);
  });

  it('terminates on a pattern that can match the empty string', () => {
    expect(extractButtons({ pattern: '(\\d*)\\.?(\\w*)' }, '1.a\n2.b').map((b) => b.index)).toEqual([1, 2]);
  });
});

describe('extractButtons — cursor_marker', () => {
  const rule: ExtractButtons = { pattern: '^\\s*(?:[●○>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$', cursor_marker: '●' };

  it('marks the row that starts with a custom glyph', () => {
    expect(extractButtons(rule, '○ 1. a\n● 2. b').map((b) => b.current)).toEqual([false, true]);
  });

  it('falls back to the default glyphs when exactly one row carries one', () => {
    expect(extractButtons(rule, '  1. a\n> 2. b').map((b) => b.current)).toEqual([false, true]);
  });

  it('marks nothing when the fallback is ambiguous', () => {
    expect(extractButtons({ ...rule, pattern: '^\\s*(?:>\\s*)?(\\d+)\\.\\s*(.+)$' }, '> 1. a\n> 2. b').map((b) => b.current)).toEqual([false, false]);
  });

  it('marks nothing when two rows carry the cursor glyph: a press would start from a guess', () => {
    // Claude Code's /memory: the Auto-memory toggle keeps its ❯ while the focus is on the list below.
    const lists = '❯ 1. Auto-memory: on\n❯ 2. User instructions\n  3. Project instructions';
    expect(extractButtons({ pattern: '^\\s*(?:❯\\s*)?(\\d+)\\.\\s*(.+?)\\s*$', flags: 'm' }, lists).map((b) => b.current)).toEqual([false, false, false]);
    expect(extractButtons(rule, '● 1. a\n● 2. b').map((b) => b.current)).toEqual([false, false]);
  });

  it('escapes class metacharacters in the marker', () => {
    const r: ExtractButtons = { pattern: '^\\S*\\s*(\\d+)\\. (.+)$', cursor_marker: ']^-' };
    expect(extractButtons(r, '] 1. a\nx 2. b').map((b) => b.current)).toEqual([true, false]);
  });
});

describe('extractButtons — ordinal mode', () => {
  const rule: ExtractButtons = {
    pattern: '^\\s*(→)?\\s*([A-Za-z][^()\\n]*?)\\s*\\(([^)]+)\\)\\s*$',
    label_group: 2,
    key_group: 3,
    cursor_marker: '→',
  };

  it('numbers rows 1..N in match order and maps key tokens', () => {
    const hay = ['→ Yes, allow once (y)', '  Allow for this session (tab)', '  Always (shift+tab)', '  No (esc or n)', '  Submit (enter)', '  Cancel (esc)'].join('\n');
    expect(extractButtons(rule, hay)).toEqual([
      { index: 1, label: 'Yes, allow once', key: 'y', current: true },
      { index: 2, label: 'Allow for this session', key: '\t', current: false },
      { index: 3, label: 'Always', key: '\u001b[Z', current: false },
      { index: 4, label: 'No', key: 'n', current: false },
      { index: 5, label: 'Submit', key: '\r', current: false },
      { index: 6, label: 'Cancel', key: '\u001b', current: false },
    ]);
  });

  it('drops a row whose key token is unknown (fail closed) without consuming an ordinal', () => {
    const hay = ['  Yes (y)', '  Danger (ctrl+alt+del)', '  No (n)'].join('\n');
    expect(extractButtons(rule, hay).map((b) => [b.index, b.label, b.key])).toEqual([
      [1, 'Yes', 'y'],
      [2, 'No', 'n'],
    ]);
  });

  it('uses key_for_index with the ordinal when no key_group is given', () => {
    const r: ExtractButtons = { pattern: '^- (.+)$', label_group: 1, key_for_index: '{index}\r' };
    expect(extractButtons(r, '- a\n- b').map((b) => [b.index, b.key])).toEqual([
      [1, '1\r'],
      [2, '2\r'],
    ]);
  });
});

describe('mapKeyToken', () => {
  it('maps letters, named keys and alternatives; rejects unknown tokens', () => {
    expect(mapKeyToken('Y')).toBe('Y');
    expect(mapKeyToken(' TAB ')).toBe('\t');
    expect(mapKeyToken('esc or n')).toBe('n');
    expect(mapKeyToken('y/n')).toBe('y');
    expect(mapKeyToken('esc or enter')).toBe('\u001b');
    expect(mapKeyToken('ctrl+c')).toBeNull();
    expect(mapKeyToken(undefined)).toBeNull();
  });
});

describe('deriveModal', () => {
  const approval: FsmState = {
    id: 'approval',
    label: 'Approval',
    modal: true,
    extract: { title: { section: 'modal', first_line: true }, buttons: NUMBERED },
  };

  it('returns title, buttons and the modal kind', () => {
    const f = frame(['⏺ Bash(ls)', '', D, ' Bash command', '', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', D, ' Esc to cancel'].join('\n'));
    expect(deriveModal(approval, f.sections, f.screen)).toEqual({
      title: 'Do you want to proceed?',
      buttons: [
        { index: 1, label: 'Yes', key: '1\r', current: true },
        { index: 2, label: 'No', key: '2\r', current: false },
      ],
      kind: 'approval',
    });
    expect(deriveModal({ ...approval, modal_kind: 'picker' }, f.sections, f.screen)?.kind).toBe('picker');
  });

  it('keeps the buttons when a closing divider sits below the choices (topmost-anchor rule, §13.10)', () => {
    const f = frame(['history', D, ' Allow edit?', ' ❯ 1. Yes', '   2. No', D, '  ? for shortcuts'].join('\n'));
    // The question line (2) wins over the closing divider (5) that anchor_last alone would pick.
    expect(f.sections.find((s) => s.id === 'modal')!.fromLine).toBe(2);
    expect(deriveModal(approval, f.sections, f.screen)?.buttons.map((b) => b.label)).toEqual(['Yes', 'No']);
  });

  it('does not stop the modal at a wrapped shell redirect line (redirect wedge, §13.11)', () => {
    const f = frame([D, ' Bash command', '   make build', ' >/dev/null 2>&1', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No'].join('\n'));
    expect(deriveModal(approval, f.sections, f.screen)?.buttons).toHaveLength(2);
  });

  it('re-extracts on the whole screen when the section yields fewer than min_count buttons (§13.11)', () => {
    const defs: Record<string, SectionDef> = { modal: { anchor: 'Do you want', lines: 2 } };
    const f = frame(['Do you want to proceed?', '❯ 1. Yes', '  2. No'].join('\n'), defs);
    expect(f.sections[0]!.text).not.toContain('2. No');
    expect(deriveModal(approval, f.sections, f.screen)?.buttons.map((b) => b.index)).toEqual([1, 2]);
  });

  it('is null below min_count (default 2) or without a buttons rule', () => {
    const f = frame(' ❯ 1. Only choice');
    expect(deriveModal(approval, f.sections, f.screen)).toBeNull();
    const one = { ...approval, extract: { buttons: { ...NUMBERED, min_count: 1 } } };
    expect(deriveModal(one, f.sections, f.screen)?.buttons).toHaveLength(1);
    expect(deriveModal({ ...approval, extract: { buttons: { ...NUMBERED, min_count: undefined } } }, f.sections, f.screen)).toBeNull();
    expect(deriveModal({ id: 'idle', label: 'Idle' }, f.sections, f.screen)).toBeNull();
  });

  it('reports display indices, not array positions, after block reduction (§13.14)', () => {
    const picker: FsmState = { id: 'picker', label: 'Picker', modal: true, modal_kind: 'picker', extract: { buttons: { ...NUMBERED, section: undefined } } };
    const buttons = deriveModal(picker, [], ['9. stray', '', '  2. Sonnet', '❯ 3. Haiku', '  4. Opus'].join('\n'))!.buttons;
    expect(buttons.map((b) => [b.index, b.key])).toEqual([
      [2, '2\r'],
      [3, '3\r'],
      [4, '4\r'],
    ]);
  });

  it('never throws on malformed states', () => {
    for (const s of [null, {}, { extract: 5 }, { extract: { buttons: 'x' } }]) {
      expect(deriveModal(s as unknown as FsmState, [], '1. a\n2. b')).toBeNull();
    }
  });
});

describe('extractButtons memo', () => {
  it('hands out copies and re-reads a rule edited in place', () => {
    const rule: ExtractButtons = { pattern: '^\\s*(\\d+)\\.\\s*(\\S.*)$', flags: 'gm' };
    const hay = '1. Yes\n2. No';
    const first = extractButtons(rule, hay);
    first[0]!.label = 'mutated';
    expect(extractButtons(rule, hay).map((b) => b.label)).toEqual(['Yes', 'No']);
    rule.key_for_index = '{index}\r';
    expect(extractButtons(rule, hay).map((b) => b.key)).toEqual(['1\r', '2\r']);
    rule.pattern = '^\\s*(\\d+)\\)\\s*(\\S.*)$';
    expect(extractButtons(rule, hay)).toEqual([]);
  });
});
