/**
 * Pre-launch trust goes where the CLI will look: under the HOME the child is started with (a
 * session's own `HOME` override), not the daemon's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpecRef } from '../catalog/builtin.js';
import { planLaunch } from './launch-plan.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

describe('planLaunch', () => {
  it('writes the trust store under the child\'s HOME when the session sets one', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-launch-')));
    dirs.push(root);
    const home = path.join(root, 'home');
    const work = path.join(root, 'work');
    fs.mkdirSync(home);
    fs.mkdirSync(work);
    const loaded = loadSpecRef('demo-agent', { redos: 'cached' });
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const events: unknown[] = [];
    const plan = planLaunch(loaded.spec, { workingDir: work, extraEnv: { HOME: home } } as never, { cols: 80, rows: 24 }, 'linux', (e) => events.push(e));
    expect(plan?.env.HOME).toBe(home);
    const store = JSON.parse(fs.readFileSync(path.join(home, '.demo-agent', 'settings.json'), 'utf8')) as { trustedFolders: string[] };
    expect(store.trustedFolders).toContain(work);
  });
});
