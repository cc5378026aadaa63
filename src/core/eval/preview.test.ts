import { describe, expect, it } from 'vitest';
import type { Condition } from '../spec/types.js';
import { evaluateConditionPreview } from './preview.js';

describe('evaluateConditionPreview', () => {
  it('reports real regex matches against sections resolved over the screen', () => {
    const r = evaluateConditionPreview({ section: 'footer', matches: 'for shortcuts' }, { footer: { from_bottom: 1 } }, 'hi\r\n? for shortcuts\r');
    expect(r).toEqual({ kind: 'regex', result: true, detail: 'footer~/for shortcuts/', matchedText: 'for shortcuts' });
  });

  it('reports time leaves as false with their full countdown', () => {
    expect(evaluateConditionPreview({ elapsed_ms: 4000 }, undefined, '')).toEqual({
      kind: 'elapsed',
      result: false,
      detail: 'elapsed 0ms / 4000ms',
      remainingMs: 4000,
    });
    expect(evaluateConditionPreview({ stable_ms: 1500, cursor_above: 4 }, undefined, '').remainingMs).toBe(1500);
    expect(evaluateConditionPreview({ elapsed_ms: 0 }, undefined, '').result).toBe(true);
  });

  it('reports changed as false (no previous frame)', () => {
    expect(evaluateConditionPreview({ cursor_above: 2, changed: false }, undefined, 'a\nb', { row: 1, col: 0 }).result).toBe(false);
  });

  it('applies cursor bounds when a cursor is given', () => {
    const cond: Condition = { matches: 'x', cursor_row_min: 1 };
    expect(evaluateConditionPreview(cond, undefined, 'x', { row: 0, col: 0 }).result).toBe(false);
    expect(evaluateConditionPreview(cond, undefined, 'x').result).toBe(true);
  });

  it('never throws on garbage', () => {
    expect(evaluateConditionPreview(null as unknown as Condition, 5 as never, 7 as unknown as string).result).toBe(false);
  });
});
