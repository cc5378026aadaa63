import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { staleBuildReason } from '../scripts/build-freshness.mjs';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-build-freshness-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, atMs: number): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), 'x');
  fs.utimesSync(path.join(root, file), atMs / 1000, atMs / 1000);
}

describe('staleBuildReason (npm start rebuilds only when it must)', () => {
  it('asks for a build when an output is missing, and none when every source is older than it', () => {
    write('src/daemon/a.ts', 1_000_000);
    write('package.json', 1_000_000);
    expect(staleBuildReason(root)).toBe('dist/index.js is missing');
    write('dist/index.js', 2_000_000);
    write('dist/dashboard/index.html', 2_000_000);
    expect(staleBuildReason(root)).toBeNull();
  });

  it('asks for a build when a source deep in src/ or the package file is newer than the build', () => {
    write('src/dashboard/deep/b.tsx', 3_000_000);
    expect(staleBuildReason(root)).toBe('src changed since the last build');
    write('dist/index.js', 4_000_000);
    write('dist/dashboard/index.html', 4_000_000);
    write('package.json', 5_000_000);
    expect(staleBuildReason(root)).toBe('package.json changed since the last build');
  });
});
