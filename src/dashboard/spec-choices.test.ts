import { describe, expect, it } from 'vitest';
import { checkSpecRef, listSpecChoices } from './spec-choices.js';

describe('spec choices', () => {
  it('lists recent, then in use, then built-in specs, each once', () => {
    expect(listSpecChoices(['/tmp/my.json', 'codex'], ['codex', 'demo-agent'], ['codex', 'demo-agent', 'gemini'])).toEqual([
      { id: '/tmp/my.json', note: 'recent' }, { id: 'codex', note: 'recent' }, { id: 'demo-agent', note: 'in use' }, { id: 'gemini', note: 'built-in' },
    ]);
  });

  it('refuses an unknown id in words, once, and lets paths and known ids through', () => {
    const text = checkSpecRef('nope', ['codex', 'demo-agent'])!;
    expect(text).toContain('"nope"');
    expect(text.match(/built-in/g)).toHaveLength(1);
    expect(checkSpecRef('codex', ['codex'])).toBeNull();
    expect(checkSpecRef('./mine.json', ['codex'])).toBeNull();
    expect(checkSpecRef('nope', null)).toBeNull();
    expect(checkSpecRef('', ['codex'])).toMatch(/pick one/);
  });
});
