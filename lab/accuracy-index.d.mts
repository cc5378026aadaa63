/** Types of the pure parts of lab/accuracy-index.mjs, for the TypeScript tests. */

export interface ReplayChange { t: number; state: string; status: string; modal: { title: string | null; kind: string | null; buttons: Array<{ index: number; label: string }> } | null }
export interface LabelInterval { from_ms: number; to_ms: number; status: string }

export function scoreLabels(changes: ReplayChange[], intervals: LabelInterval[]): { labelled: number; right: number; latency: Array<{ status: string; ms: number | null }> };
export function countFlaps(changes: Array<{ t: number; status: string }>): number;
export function scoreModals(
  expect: { sequence?: Array<{ state?: string; status?: string; modal?: { title?: string | null; kind?: string | null; buttons?: Array<string | { index: number; label: string }> } | null }> },
  changes: ReplayChange[],
): { buttons: [number, number]; kinds: [number, number] };
export function recordedVersion(description: string | undefined): string | null;
