/** Types of paint-probe.mjs for the browser test that uses it. */
export interface PaintStamp { sessionId: string; n: number; lagMs: number }
export interface PaintProbe { renderLog: Array<{ atMs: number; text: string }>; renders: number; stamps: PaintStamp[]; wsOpenMs: number | null; snapshotMs: number | null }
export function installPaintProbe(): void;
