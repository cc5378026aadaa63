/**
 * Pre-launch trust goes where the CLI will look: under the HOME the child is started with (a
 * session's own `HOME` override), not the daemon's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../core/spec/types.js';
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
    // The Demo Agent's trust store, as its spec names it.
    const spec = { id: 'trusting', binary: process.execPath, spawn_args: [], states: [{ id: 'idle', initial: true }], transitions: [], pre_launch_trust: { settings_path: '~/.demo-agent/settings.json', key: 'trustedFolders' } } as unknown as CliSpecV4;
    const events: unknown[] = [];
    const plan = planLaunch(spec, { workingDir: work, extraEnv: { HOME: home } } as never, { cols: 80, rows: 24 }, 'linux', (e) => events.push(e));
    expect(plan?.env.HOME).toBe(home);
    const store = JSON.parse(fs.readFileSync(path.join(home, '.demo-agent', 'settings.json'), 'utf8')) as { trustedFolders: string[] };
    expect(store.trustedFolders).toContain(work);
  });
});
