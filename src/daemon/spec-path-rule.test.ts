import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DaemonError } from './errors.js';
import { checkSpecPath, resolveUserSpecsDir, type SpecPathPlaces } from './spec-path-rule.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spec-path-rule-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const dir = (name: string) => { const d = path.join(root, name); fs.mkdirSync(d, { recursive: true }); return d; };
const places: SpecPathPlaces = { builtinDir: dir('pkg/specs'), userSpecsDir: dir('config/specterm/specs'), privateDirs: [dir('state'), dir('runtime')] };
const project = dir('project');

function refusal(run: () => unknown): DaemonError {
  try { run(); } catch (error) { if (error instanceof DaemonError) return error; throw error; }
  throw new Error('expected a refusal');
}

describe('checkSpecPath', () => {
  it('passes a built-in id as it is, and resolves a relative path from the session\'s cwd to its real path', () => {
    expect(checkSpecPath('demo-agent', project, places, false)).toBe('demo-agent');
    fs.writeFileSync(path.join(project, 'mine.json'), '{}');
    expect(checkSpecPath('mine.json', project, places, true)).toBe(path.join(project, 'mine.json'));
    expect(refusal(() => checkSpecPath('mine.json', project, places, false)).code).toBe('SPEC_PATH_NOT_ALLOWED');
  });

  it('refuses the private dirs even through ../ or a symlinked parent, without opening anything', () => {
    const sneaky = path.join(places.userSpecsDir, '..', '..', '..', 'state', 'x.json');
    expect(refusal(() => checkSpecPath(sneaky, project, places, true)).message).toMatch(/state or runtime dir/);
    fs.symlinkSync(places.privateDirs[0]!, path.join(places.userSpecsDir, 'linked'));
    fs.writeFileSync(path.join(places.privateDirs[0]!, 'y.json'), '{}');
    const viaLink = refusal(() => checkSpecPath(path.join(places.userSpecsDir, 'linked', 'y.json'), project, places, false));
    expect(viaLink.message).toMatch(/symbolic link to a place that is not allowed/);
    expect(viaLink.message).not.toContain(places.privateDirs[0]!);
  });

  it('says SPEC_NOT_FOUND only for a missing file in an allowed place', () => {
    expect(refusal(() => checkSpecPath(path.join(places.userSpecsDir, 'absent.json'), project, places, false)).code).toBe('SPEC_NOT_FOUND');
    expect(refusal(() => checkSpecPath(path.join(project, 'absent.json'), project, places, false)).code).toBe('SPEC_PATH_NOT_ALLOWED');
  });
});

describe('resolveUserSpecsDir', () => {
  it('is $SPECTERM_SPECS_DIR, else $XDG_CONFIG_HOME/specterm/specs, else ~/.config/specterm/specs', () => {
    expect(resolveUserSpecsDir({ SPECTERM_SPECS_DIR: '/s', XDG_CONFIG_HOME: '/c', HOME: '/h' })).toBe('/s');
    expect(resolveUserSpecsDir({ XDG_CONFIG_HOME: '/c', HOME: '/h' })).toBe('/c/specterm/specs');
    expect(resolveUserSpecsDir({ HOME: '/h' })).toBe('/h/.config/specterm/specs');
  });
});
