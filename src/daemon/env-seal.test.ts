import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEnvSeal } from './env-seal.js';

const dirs: string[] = [];
function stateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envseal-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

describe('openEnvSeal', () => {
  it('round-trips an env map through a private key file, with the value nowhere in the blob', () => {
    const dir = stateDir();
    const sealed = openEnvSeal(dir).seal('s_1', { API_KEY: 'v-secret-1' });
    expect(sealed.includes('v-secret-1')).toBe(false);
    expect(fs.statSync(path.join(dir, 'env-key')).mode & 0o777).toBe(0o600);
    // A second daemon on the same state dir reads the same key.
    expect(openEnvSeal(dir).open('s_1', sealed)).toEqual({ API_KEY: 'v-secret-1' });
  });

  it('refuses a blob of another session, a tampered one, and one sealed with another key', () => {
    const dir = stateDir();
    const seal = openEnvSeal(dir);
    const sealed = seal.seal('s_1', { A: 'b' });
    expect(() => seal.open('s_2', sealed)).toThrow(expect.objectContaining({ code: 'ENV_UNSEALABLE' }));
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => seal.open('s_1', tampered)).toThrow(/cannot be opened/);
    expect(() => openEnvSeal(stateDir()).open('s_1', sealed)).toThrow(expect.objectContaining({ code: 'ENV_UNSEALABLE' }));
  });

  it('refuses a key file others can read, naming the fix', () => {
    const dir = stateDir();
    openEnvSeal(dir);
    fs.chmodSync(path.join(dir, 'env-key'), 0o644);
    expect(() => openEnvSeal(dir)).toThrow(/chmod 600/);
  });
});
