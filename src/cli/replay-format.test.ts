import { describe, expect, it } from 'vitest';
import { formatChangeJson, formatChangeTable } from './replay-format.js';

describe('formatChangeJson', () => {
  it('writes the keys in the contract order whatever the record order', () => {
    const line = formatChangeJson({
      modal: { kind: 'approval', buttons: [{ label: 'Yes', index: 1 } as { index: number; label: string }], title: 'Bash command' },
      status: 'approval',
      state: 'approval',
      t: 2.5,
    } as never);
    expect(line).toBe('{"t":2.5,"state":"approval","status":"approval","modal":{"title":"Bash command","buttons":[{"index":1,"label":"Yes"}],"kind":"approval"}}');
  });

  it('writes modal null when there is none', () => {
    expect(formatChangeJson({ t: 0, state: 'starting', status: 'idle', modal: null })).toBe('{"t":0,"state":"starting","status":"idle","modal":null}');
  });
});

describe('formatChangeTable', () => {
  it('prints one aligned row per change with a modal summary', () => {
    const table = formatChangeTable([
      { t: 0, state: 'starting', status: 'idle', modal: null },
      { t: 12.25, state: 'approval', status: 'approval', modal: { title: 'Bash command', kind: 'approval', buttons: [{ index: 1, label: 'Yes', current: true }, { index: 3, label: 'No', current: false }] } },
    ]);
    expect(table.split('\n')).toEqual([
      ' t (s)  state     status    modal',
      ' 0.000  starting  idle      -',
      '12.250  approval  approval  "Bash command" — 1 Yes · 3 No (approval)',
      '',
    ]);
  });
});
