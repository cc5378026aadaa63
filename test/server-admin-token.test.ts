/** The admin token file and the private directories, on real files in a fresh temp dir. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureAdminToken, ensurePrivateDir, resolveRuntimeDir, resolveStateDir } from '../src/server/index.js';

let root: string;
beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-adm-')); });
afterEach(() => { fs.rmSync(root, { recursive: true, force: true }); });

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('ensureAdminToken', () => {
  it('creates a 256-bit token in a 0600 file inside a 0700 dir, and returns the same one next time', () => {
    const dir = path.join(root, 'state');
    const first = ensureAdminToken(dir);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.token, 'base64url')).toHaveLength(32);
    expect(mode(dir)).toBe(0o700);
    expect(mode(first.path)).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['admin-token']); // no temp file left behind
    expect(ensureAdminToken(dir)).toEqual({ ...first, created: false });
  });

  it('refuses a token file others can read, without touching it', () => {
    const dir = ensurePrivateDir(path.join(root, 'state'));
    const file = path.join(dir, 'admin-token');
    fs.writeFileSync(file, 'A'.repeat(43), { mode: 0o644 });
    expect(() => ensureAdminToken(dir)).toThrow(expect.objectContaining({ code: 'ADMIN_TOKEN_NOT_PRIVATE', message: expect.stringMatching(/chmod 600/) }));
    expect(fs.readFileSync(file, 'utf8')).toBe('A'.repeat(43));
  });

  it('refuses a token file that holds no token, without overwriting it', () => {
    const dir = ensurePrivateDir(path.join(root, 'state'));
    fs.writeFileSync(path.join(dir, 'admin-token'), 'my notes', { mode: 0o600 });
    expect(() => ensureAdminToken(dir)).toThrow(expect.objectContaining({ code: 'ADMIN_TOKEN_INVALID' }));
    expect(fs.readFileSync(path.join(dir, 'admin-token'), 'utf8')).toBe('my notes');
  });
});

describe('private directories', () => {
  it('refuses an existing directory with group or world bits and says how to fix it', () => {
    const dir = path.join(root, 'open');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    expect(() => ensurePrivateDir(dir)).toThrow(expect.objectContaining({ code: 'DIR_NOT_PRIVATE', message: expect.stringMatching(/chmod 700/) }));
    expect(mode(dir)).toBe(0o755);
  });

  it('refuses a symlink in place of the directory', () => {
    fs.mkdirSync(path.join(root, 'real'), { mode: 0o700 });
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
    expect(() => ensurePrivateDir(path.join(root, 'link'))).toThrow(expect.objectContaining({ code: 'DIR_NOT_A_DIRECTORY' }));
  });

  it('resolves the runtime and state dirs from the environment, in order', () => {
    expect(resolveRuntimeDir({ SPECTERM_RUNTIME_DIR: '/r', XDG_RUNTIME_DIR: '/x' })).toBe('/r');
    expect(resolveRuntimeDir({ XDG_RUNTIME_DIR: '/x' })).toBe('/x/specterm');
    expect(resolveRuntimeDir({})).toBe(`/tmp/specterm-${process.getuid!()}`);
    expect(resolveStateDir({ SPECTERM_STATE_DIR: '/s', XDG_STATE_HOME: '/x' })).toBe('/s');
    expect(resolveStateDir({ XDG_STATE_HOME: '/x' })).toBe('/x/specterm');
    expect(resolveStateDir({})).toBe(path.join(os.homedir(), '.local/state/specterm'));
  });
});
