/**
 * Terminal sizes are bounded where they enter (issue 12, item 7): a 76-byte recording that
 * resizes to 10000x10000 made `specterm replay` allocate a 100-million-cell screen (2.4 GB of
 * RSS, 32 s) and report nothing wrong. It must be refused at once, naming the line, the value
 * and the limit.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(root, 'bin/specterm.js');
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('specterm replay of a recording with a huge resize', () => {
  it('refuses it quickly, naming the line, the size and the limit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-replay-size-'));
    dirs.push(dir);
    const file = path.join(dir, 'huge-resize.cast');
    fs.writeFileSync(file, '{"version":2,"width":80,"height":24}\n[0.1,"r","10000x10000"]\n[0.2,"o","hi"]\n');
    // A heap far below the 2.4 GB the screen took: allocating it would die out of memory instead
    // of refusing the line (a size bound, not a time bound, which a loaded machine breaks).
    const r = spawnSync(process.execPath, ['--max-old-space-size=256', CLI, 'replay', file, '--spec', 'demo-agent'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/huge-resize\.cast: line 2: resize to "10000x10000" is larger than specterm supports: at most 1000 columns and 500 rows/);
  }, 70_000);
});
