import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTrustedFolder, isFolderTrusted, readTrustedFolders, resolveSettingsPath } from './trust-store.js';

let dir: string;
let settings: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'demo-trust-'));
  settings = join(dir, 'nested', 'settings.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('trust store', () => {
  it('treats a missing file as an empty store and creates it on the first trust', () => {
    expect(readTrustedFolders(settings)).toEqual({ ok: true, folders: [] });
    expect(addTrustedFolder(settings, '/work/a')).toEqual({ ok: true, added: true });
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ trustedFolders: ['/work/a'] });
    expect(isFolderTrusted(settings, '/work/a')).toBe(true);
    expect(isFolderTrusted(settings, '/work/b')).toBe(false);
  });

  it('keeps every other key and existing entry, and does not add a folder twice', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, JSON.stringify({ theme: 'dark', nested: { a: 1 }, trustedFolders: ['/x', 42] }));
    expect(addTrustedFolder(path, '/y')).toEqual({ ok: true, added: true });
    expect(addTrustedFolder(path, '/y')).toEqual({ ok: true, added: false });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ theme: 'dark', nested: { a: 1 }, trustedFolders: ['/x', 42, '/y'] });
  });

  it('leaves an unparsable file untouched and reports it', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{ not json');
    const result = addTrustedFolder(path, '/y');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/settings\.json: not valid JSON .*; fix or delete the file$/);
    expect(readFileSync(path, 'utf8')).toBe('{ not json');
    expect(isFolderTrusted(path, '/y')).toBe(false);
  });

  it('refuses to overwrite a non-object root or a non-array trustedFolders', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '[1]');
    expect(addTrustedFolder(path, '/y')).toMatchObject({ ok: false, error: expect.stringMatching(/top level must be a JSON object, got an array/) });
    writeFileSync(path, '{"trustedFolders": "/x"}');
    expect(addTrustedFolder(path, '/y')).toMatchObject({ ok: false, error: expect.stringMatching(/trustedFolders must be an array .* got string/) });
    expect(readFileSync(path, 'utf8')).toBe('{"trustedFolders": "/x"}');
  });

  it('resolves the settings path: --settings, then DEMO_AGENT_HOME, then the home folder', () => {
    expect(resolveSettingsPath('/s.json', { DEMO_AGENT_HOME: '/h' }, '/home/u')).toBe('/s.json');
    expect(resolveSettingsPath(undefined, { DEMO_AGENT_HOME: '/h' }, '/home/u')).toBe(join('/h', 'settings.json'));
    expect(resolveSettingsPath(undefined, {}, '/home/u')).toBe(join('/home/u', '.demo-agent', 'settings.json'));
  });
});
