import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeAll, writePrivateTempFile } from './private-temp.js';

let parent: string;

beforeEach(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-pt-test-'));
});
afterEach(() => {
  removeAll();
  fs.rmSync(parent, { recursive: true, force: true });
});

describe('writePrivateTempFile', () => {
  it('writes the bytes to a 0600 file inside a 0700 specterm- directory', () => {
    const f = writePrivateTempFile(new Uint8Array([1, 2, 3, 255]), '.png', { dir: parent });
    expect([...fs.readFileSync(f.path)]).toEqual([1, 2, 3, 255]);
    expect(fs.statSync(f.path).mode & 0o777).toBe(0o600);
    const dir = path.dirname(f.path);
    expect(path.dirname(dir)).toBe(path.resolve(parent));
    expect(path.basename(dir)).toMatch(/^specterm-/);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('names files with 32 random hex characters plus the extension, never repeating', () => {
    const names = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const f = writePrivateTempFile(new Uint8Array([i]), '.jpg', { dir: parent });
      expect(path.basename(f.path)).toMatch(/^[0-9a-f]{32}\.jpg$/);
      names.add(path.basename(f.path));
    }
    expect(names.size).toBe(50);
    expect(path.basename(writePrivateTempFile(new Uint8Array(), '', { dir: parent }).path)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('reuses one private directory per parent within the process', () => {
    const a = writePrivateTempFile(new Uint8Array([1]), '.bin', { dir: parent });
    const b = writePrivateTempFile(new Uint8Array([2]), '.bin', { dir: parent });
    expect(path.dirname(a.path)).toBe(path.dirname(b.path));
  });

  it('remove() deletes the file, is idempotent and removes the private directory with the last file', () => {
    const f = writePrivateTempFile(new Uint8Array([1]), '.gif', { dir: parent });
    const g = writePrivateTempFile(new Uint8Array([2]), '.gif', { dir: parent });
    const dir = path.dirname(f.path);
    f.remove();
    expect(fs.existsSync(f.path)).toBe(false);
    expect(fs.existsSync(g.path)).toBe(true);
    expect(() => f.remove()).not.toThrow();
    g.remove();
    expect(fs.existsSync(dir)).toBe(false);
    const h = writePrivateTempFile(new Uint8Array([3]), '.gif', { dir: parent });
    expect(fs.readFileSync(h.path)[0]).toBe(3);
    expect(fs.statSync(path.dirname(h.path)).mode & 0o777).toBe(0o700);
  });

  it('removeAll() deletes the private directories and a later write creates a fresh one', () => {
    const f = writePrivateTempFile(new Uint8Array([1]), '.webp', { dir: parent });
    const dir = path.dirname(f.path);
    removeAll();
    expect(fs.existsSync(dir)).toBe(false);
    expect(() => f.remove()).not.toThrow();
    const g = writePrivateTempFile(new Uint8Array([2]), '.webp', { dir: parent });
    expect(path.dirname(g.path)).not.toBe(dir);
    expect(fs.existsSync(g.path)).toBe(true);
  });

  it('rejects an extension that could escape the directory or hide a second suffix', () => {
    for (const bad of ['png', '.', '../x', '.p/g', '.tar.gz', '.' + 'a'.repeat(17)]) {
      expect(() => writePrivateTempFile(new Uint8Array(), bad, { dir: parent })).toThrow(/ext must be/);
    }
  });
});
