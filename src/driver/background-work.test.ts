/**
 * Reading background work off the live screen (spec `background_work`): the rows the rules match
 * in their section, counted by the number a row shows or one per row, and said in words.
 */
import { describe, expect, it } from 'vitest';
import { RowCache, resolveSections } from '../core/eval/index.js';
import type { BackgroundWorkRule, SectionDef } from '../core/spec/index.js';
import { BackgroundWorkReader } from './background-work.js';

const SECTIONS: Record<string, SectionDef> = { box: { anchor: '^─{10,}$', anchor_last: true, anchor_miss: 'empty' } };
const SHELL: BackgroundWorkRule = { id: 'shell', section: 'box', pattern: '(?:^|[ ·])(\\d+) shells? · ', count_group: 1, noun: 'background shell' };
const AGENT: BackgroundWorkRule = { id: 'agent', pattern: '^\\s*◯ agent: .* running$' };

function read(reader: BackgroundWorkReader, rows: string[]) {
  return reader.read(resolveSections(SECTIONS, rows, rows.join('\n')), rows);
}

const screen = (footer: string, above: string[] = []) => ['● The watcher runs in the background.', '✻ Baked for 9s · done · 1 shell still running', ...above, '──────────────────', '❯', '──────────────────', footer];

describe('BackgroundWorkReader', () => {
  it('reads the count a row shows, in its section only, and says it in words', () => {
    const reader = new BackgroundWorkReader([SHELL], new RowCache());
    expect(read(reader, screen('  ⏸ manual mode on · 1 shell · ↓ to manage'))).toEqual({ count: 1, what: '1 background shell', items: [{ id: 'shell', count: 1 }] });
    expect(read(reader, screen('  2 shells · esc to interrupt · ↓ to manage'))).toEqual({ count: 2, what: '2 background shells', items: [{ id: 'shell', count: 2 }] });
  });

  it('reports null when no rule matches: a transcript line above the section does not count', () => {
    const reader = new BackgroundWorkReader([SHELL], new RowCache());
    expect(read(reader, screen('  ⏸ manual mode on · ? for shortcuts'))).toBeNull();
  });

  it('counts one per matching row without a count group, and sums the kinds', () => {
    const reader = new BackgroundWorkReader([SHELL, AGENT], new RowCache());
    const rows = screen('  1 shell · ↓ to manage', ['  ◯ agent: explore the repo running', '  ◯ agent: write the tests running', '  ◯ agent: lint done']);
    expect(read(reader, rows)).toEqual({ count: 3, what: '1 background shell, 2 background agents', items: [{ id: 'shell', count: 1 }, { id: 'agent', count: 2 }] });
  });

  it('keeps the same object while the work stays the same (no new view per frame)', () => {
    const reader = new BackgroundWorkReader([SHELL], new RowCache());
    const a = read(reader, screen('  1 shell · ↓ to manage'));
    const b = read(reader, screen('  1 shell · esc to interrupt · ↓ to manage'));
    expect(b).toBe(a);
  });

  it('a count group that captured no whole number counts the row as one', () => {
    const reader = new BackgroundWorkReader([{ id: 'job', pattern: '(\\w+) jobs? running', count_group: 1 }], new RowCache());
    expect(read(reader, ['two jobs running'])).toEqual({ count: 1, what: '1 background job', items: [{ id: 'job', count: 1 }] });
  });

  it('does nothing for a spec without rules', () => {
    const reader = new BackgroundWorkReader(undefined, new RowCache());
    expect(reader.isEmpty).toBe(true);
    expect(read(reader, screen('  1 shell · ↓ to manage'))).toBeNull();
  });
});

