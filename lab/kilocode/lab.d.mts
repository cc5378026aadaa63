/** Types for lab/kilocode/lab.mjs (the parts tests import). */
export declare const PINNED_VERSION: string;
export declare const KILOCODE: {
  id: string;
  pkg: string;
  bin: string;
  pinnedVersion: string;
  /** Whether a streamed chat request is Kilo Code's own side call (its session-title request). */
  isSideCall(body: Record<string, unknown>): boolean;
};
export declare function main(args: string[]): Promise<number>;
