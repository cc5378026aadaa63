/** Types for lab/opencode/lab.mjs (the parts tests import). */
export declare const PINNED_VERSION: string;
export declare const OPENCODE: {
  id: string;
  pkg: string;
  bin: string;
  pinnedVersion: string;
  /** Whether a streamed chat request is OpenCode's own side call (its session-title request). */
  isSideCall(body: Record<string, unknown>): boolean;
};
export declare function main(args: string[]): Promise<number>;
