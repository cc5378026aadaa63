import { describe, expect, it } from 'vitest';
import schema from '../../schema/spec-v4.schema.json' with { type: 'json' };
import { completeAt, schemasAt, stateIdsIn } from './json-completion.js';

const S = schema as Record<string, unknown>;
/** The text with `|` marking the caret. */
function at(marked: string) {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  return { text, offset, result: completeAt(text, offset, S) };
}
const labels = (r: ReturnType<typeof at>) => r.result?.items.map((i) => i.label) ?? [];

describe('schema completion on half-written spec text', () => {
  it('lists the top-level keys the spec lacks, not the ones it has', () => {
    const r = at('{\n  "id": "my-agent",\n  |\n}');
    expect(r.result?.kind).toBe('key');
    expect(r.result?.path).toEqual([]);
    expect(labels(r)).toEqual(expect.arrayContaining(['states', 'transitions', 'sections']));
    expect(labels(r)).not.toContain('id');
  });

  it('completes a key being typed inside its quotes, with the key a later line already has left out', () => {
    const r = at('{"states": [{"id": "idle", "mod|"}], "modal": 1}');
    expect(r.result?.path).toEqual(['states', 0]);
    expect(labels(r)).toEqual(['modal', 'modal_kind']);
    // The whole `"mod"` token is replaced, and a colon is added because none follows.
    const pick = r.result!.items.find((i) => i.label === 'modal_kind')!;
    expect(r.text.slice(0, r.result!.from) + pick.insert + r.text.slice(r.result!.to)).toBe('{"states": [{"id": "idle", "modal_kind": }], "modal": 1}');
    expect(pick.detail).toMatch(/approval: consent prompt/);
  });

  it('does not add a second colon when one follows the key', () => {
    const r = at('{"states": [{"id": "a", "stat|": "idle"}]}');
    const pick = r.result!.items.find((i) => i.label === 'status')!;
    expect(pick.insert).toBe('"status"');
  });

  it('replaces only the word of a string still being typed, not what follows it', () => {
    const r = at('{"states": [{"id": "a", "lab|}]}');
    const pick = r.result!.items.find((i) => i.label === 'label')!;
    expect(r.text.slice(0, r.result!.from) + pick.insert + r.text.slice(r.result!.to)).toBe('{"states": [{"id": "a", "label": }]}');
  });

  it('offers the enum values of the value at the caret', () => {
    const r = at('{"states": [{"id": "a", "modal_kind": |}]}');
    expect(r.result?.kind).toBe('value');
    expect(r.result?.path).toEqual(['states', 0, 'modal_kind']);
    expect(labels(r)).toEqual(['approval', 'picker', 'confirm']);
    expect(r.result!.items[0].insert).toBe('"approval"');
  });

  it('filters values by what is typed, inside the string', () => {
    expect(labels(at('{"states": [{"id": "a", "status": "gen|"}]}'))).toEqual(['generating']);
  });

  it('offers booleans, and the spec\'s own state ids where a state id belongs', () => {
    const text = '{"states": [{"id": "idle", "initial": true}, {"id": "busy"}], "transitions": [{"from": "idle", "to": |}]}';
    const r = at(text);
    expect(labels(r)).toEqual(['idle', 'busy']);
    expect(labels(at('{"states": [{"id": "a", "modal": t|}]}'))).toEqual(['true']);
  });

  it('says nothing where nothing fits (after a key, before its colon)', () => {
    expect(at('{"id"| "x"}').result).toBeNull();
  });

  it('follows $ref and anyOf into nested objects', () => {
    const kinds = schemasAt(S, ['states', 0]);
    expect(kinds.some((s) => (s.properties as Record<string, unknown> | undefined)?.modal_kind)).toBe(true);
  });

  it('reads state ids from text that does not parse yet', () => {
    expect(stateIdsIn('{"states": [{"id": "idle"}, {"id": "busy", ')).toEqual(['idle', 'busy']);
  });
});
