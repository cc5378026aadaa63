import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPrivateFileOnce, writePrivateFile } from './private-file.js';

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-private-file-')); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

/** Names in `dir` other than the ones given: a temp file left behind shows up here. */
const others = (...known: string[]): string[] => fs.readdirSync(dir).filter((n) => !known.includes(n));
const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

describe('writePrivateFile', () => {
  it('writes a new file with mode 0600 and leaves no temp file', () => {
    const file = path.join(dir, 'state.json');
    writePrivateFile(file, '{"a":1}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(modeOf(file)).toBe(0o600);
    expect(others('state.json')).toEqual([]);
  });

  it('makes a replaced file private even when the old one was not', () => {
    const file = path.join(dir, 'state.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writePrivateFile(file, Buffer.from([1, 2, 3]));
    expect([...fs.readFileSync(file)]).toEqual([1, 2, 3]);
    expect(modeOf(file)).toBe(0o600);
  });

  it('replaces by rename: a reader holding the old file keeps the old bytes whole', () => {
    const file = path.join(dir, 'state.json');
    fs.writeFileSync(file, 'old contents', { mode: 0o600 });
    const oldInode = fs.statSync(file).ino;
    const held = fs.openSync(file, 'r');
    try {
      writePrivateFile(file, 'new contents');
      expect(fs.readFileSync(file, 'utf8')).toBe('new contents');
      // An in-place write would have truncated the inode the reader holds.
      expect(fs.statSync(file).ino).not.toBe(oldInode);
      expect(fs.readFileSync(held, 'utf8')).toBe('old contents');
    } finally {
      fs.closeSync(held);
    }
  });

  it('a failed rename throws, leaves what was at the path intact and removes its temp file', () => {
    // The target is a non-empty directory: the rename over it fails (EISDIR), even as root.
    const target = path.join(dir, 'state.json');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside'), 'kept');
    expect(() => writePrivateFile(target, 'new')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(fs.readFileSync(path.join(target, 'inside'), 'utf8')).toBe('kept');
    expect(others('state.json')).toEqual([]);
  });

  it('a temp file that cannot be made throws and leaves nothing behind', () => {
    // The parent is missing: the temp file beside the target cannot be created.
    const file = path.join(dir, 'missing', 'state.json');
    expect(() => writePrivateFile(file, 'new')).toThrow(/ENOENT/);
    expect(others()).toEqual([]);
  });
});

describe('createPrivateFileOnce', () => {
  it('creates the file with mode 0600 and says so', () => {
    const file = path.join(dir, 'admin-token');
    expect(createPrivateFileOnce(file, 'secret\n')).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('secret\n');
    expect(modeOf(file)).toBe(0o600);
    expect(others('admin-token')).toEqual([]);
  });

  it('keeps a file that exists (the first creator wins) and leaves no temp file', () => {
    const file = path.join(dir, 'admin-token');
    fs.writeFileSync(file, 'first\n', { mode: 0o600 });
    expect(createPrivateFileOnce(file, 'second\n')).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('first\n');
    expect(others('admin-token')).toEqual([]);
  });

  it('an error other than "exists" is thrown, with no temp file left', () => {
    const target = path.join(dir, 'sub');
    expect(() => createPrivateFileOnce(path.join(target, 'key'), 'x')).toThrow(/ENOENT/);
    expect(others()).toEqual([]);
  });
});
