/**
 * The OSC numbers a spec's guards read (`osc` leaves): what the terminal must track for it.
 */
import { classifyCondition } from './condition-kind.js';
import type { CliSpecV4 } from './types.js';
import { MAX_CONDITION_DEPTH } from './validate-condition.js';

/** Every OSC number an `osc` leaf of `spec` names, ascending, each once. */
export function oscNumbersOf(spec: CliSpecV4): number[] {
  const found = new Set<number>();
  const visit = (cond: unknown, depth: number): void => {
    if (depth > MAX_CONDITION_DEPTH || typeof cond !== 'object' || cond === null) return;
    const c = cond as Record<string, unknown>;
    const kind = classifyCondition(cond);
    switch (kind) {
      case 'all':
      case 'any': {
        const children = c[kind];
        if (Array.isArray(children)) for (const child of children as unknown[]) visit(child, depth + 1);
        return;
      }
      case 'not':
        return visit(c.not, depth + 1);
      case 'osc':
        if (typeof c.osc === 'number' && Number.isInteger(c.osc)) found.add(c.osc);
        return;
      default:
        return;
    }
  };
  for (const t of Array.isArray(spec.transitions) ? spec.transitions : []) visit(t?.when, 1);
  return [...found].sort((a, b) => a - b);
}
