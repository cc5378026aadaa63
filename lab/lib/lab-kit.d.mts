/** Types of the pure parts of lab/lib/lab-kit.mjs, for the TypeScript tests. */

export interface DriverChange { t: number; state: string; status: string }
export interface LabAction { t: number; what: string }
export interface LabInterval { from: number; to: number; status: string }

export function measureSession(opts: {
  startedAt: number;
  endedAt: number;
  changes: DriverChange[];
  log: Array<{ t: number; event: string; [k: string]: unknown }>;
  actions: LabAction[];
}): { labelledMs: number; rightMs: number; flaps: number; intervals: LabInterval[] };

export function percentile(values: number[], p: number): number | null;
