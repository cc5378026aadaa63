import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSpec } from './validate.js';

function spec(state: Record<string, unknown>, when: unknown): unknown {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 'kinds',
    binary: 'x',
    send_message: { submit_key: '\r' },
    states: [{ id: 'starting', label: 'Starting', initial: true }, { modal: true, label: 'Gate', ...state }],
    transitions: [{ from: 'starting', to: state.id, when }],
  };
}

const kindWarnings = (raw: unknown) => validateSpec(raw).issues.filter((i) => i.code === 'SPEC_KIND_MISMATCH');

describe('the kinds rule (SPEC_KIND_MISMATCH)', () => {
  it('warns on a trust gate declared approval, or approval by default', () => {
    const declared = kindWarnings(spec({ id: 'gate', modal_kind: 'approval' }, { matches: 'Do you trust the files in this folder\\?' }));
    expect(declared.map((i) => i.path)).toEqual(['states[1].modal_kind']);
    expect(declared[0].message).toMatch(/"confirm"/);
    expect(kindWarnings(spec({ id: 'trust' }, { matches: 'x' }))).toHaveLength(1);
    expect(kindWarnings(spec({ id: 'gate' }, { all: [{ matches: 'Bypass Permissions mode' }] }))).toHaveLength(1);
  });

  it('is quiet for a confirm gate, a picker, and an approval that asks to run something', () => {
    expect(kindWarnings(spec({ id: 'gate', modal_kind: 'confirm' }, { matches: 'Do you trust' }))).toEqual([]);
    expect(kindWarnings(spec({ id: 'menu', modal_kind: 'picker' }, { matches: 'Trust level' }))).toEqual([]);
    expect(kindWarnings(spec({ id: 'approval', modal_kind: 'approval' }, { matches: 'Would you like to run the following command\\?' }))).toEqual([]);
  });

  it('holds for the demo agent and Codex specs (their trust gates are confirm)', () => {
    for (const id of ['demo-agent', 'codex']) {
      const raw: unknown = JSON.parse(readFileSync(join(import.meta.dirname, `../../../specs/${id}/spec.json`), 'utf8'));
      expect(kindWarnings(raw), id).toEqual([]);
    }
  });
});
