/** Types of lab.mjs (the Claude Code conformance lab), for the parts tests import. */

/** A ground-truth point of a live run: when (ms, `Date.now()` scale), what, and the status/kind expected from then on (null: a note). */
export interface LabMark {
  atAbs: number;
  label: string;
  expect: { status: string; kind?: string } | null;
}

/** One labelled interval of `<name>.labels.json` before rounding: ms from the recording's start. */
export interface LabelInterval {
  from: number;
  to: number;
  status: string;
}

export const PINNED_VERSION: string;
export function labelIntervals(marks: LabMark[], startAbs: number): LabelInterval[];
export function main(args: string[]): Promise<number>;
