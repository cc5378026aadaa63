/**
 * The two outputs of `specterm replay`: the JSON-lines contract scripts depend on, and the
 * readable table.
 *
 * @module
 */
import type { StateChangeRecord } from '../harness/replay-session.js';
import { summarizeModal } from '../harness/explain.js';

/**
 * One `--json` line. Keys are written in exactly this order, whatever the record's own order:
 * `{"t", "state", "status", "modal": null | {"title", "buttons": [{"index", "label"}], "kind"}}`.
 */
export function formatChangeJson(rec: StateChangeRecord): string {
  const modal = rec.modal === null
    ? null
    : {
      title: rec.modal.title,
      buttons: rec.modal.buttons.map((b) => ({ index: b.index, label: b.label })),
      kind: rec.modal.kind,
    };
  return JSON.stringify({ t: rec.t, state: rec.state, status: rec.status, modal });
}

/** The readable table: time, state, status, modal summary. */
export function formatChangeTable(changes: readonly StateChangeRecord[]): string {
  const rows = changes.map((c) => [c.t.toFixed(3), c.state, c.status, summarizeModal(c.modal)]);
  const header = ['t (s)', 'state', 'status', 'modal'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
