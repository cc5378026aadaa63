/**
 * The docs a new user reads first say what the product does: the README's usage names every
 * command `specterm --help` lists, and no doc describes `npm start` as something it does not run.
 * (Issue 27 item 15: the usage block had lost the daemon verbs, docs/cli.md said `npm start` was
 * `specterm run demo-agent` although scripts/start.mjs runs `specterm serve`.)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../src/cli/main.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

function usageBlock(readme: string): string {
  const section = /^## Usage\n([\s\S]*?)^## /m.exec(readme);
  const block = section ? /```\n([\s\S]*?)```/.exec(section[1]!) : null;
  if (!block) throw new Error('README.md has no fenced block under "## Usage"');
  return block[1]!;
}

describe('the docs agree with the product', () => {
  it("lists every command of `specterm --help` in the README's usage block", () => {
    const usage = usageBlock(read('README.md'));
    const listed = new Set([...usage.matchAll(/^specterm ([a-z]+)/gm)].map((m) => m[1]));
    const missing = COMMANDS.map((c) => c.name).filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });

  it('describes `npm start` as the daemon and dashboard that scripts/start.mjs runs', () => {
    const start = read('scripts/start.mjs') + read('scripts/start-daemon.mjs');
    expect(start).toMatch(/'serve'/);
    const docs = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const wrong = docs.flatMap((file) => read(file).split('\n')
      .filter((line) => /`npm start`\s*(?:=|runs|is)\s*`specterm run\b/.test(line))
      .map((line) => `${file}: ${line.trim()}`));
    expect(wrong).toEqual([]);
  });

  it('names the dashboard views by the paths the dashboard routes', async () => {
    // state.ts reads the location and listens to popstate at load; the router itself is pure.
    vi.stubGlobal('location', { pathname: '/' });
    vi.stubGlobal('addEventListener', () => {});
    const { routeOf } = await import('../src/dashboard/state.js');
    const pagePaths = [...read('docs/dashboard.md').matchAll(/(?:at|route|page) `(\/[a-z][^`\s]*)`/g)]
      .map((m) => m[1]!).filter((p) => !p.startsWith('/api/')).map((p) => p.replace(/\[[^\]]*\]/g, ''));
    expect(pagePaths.length).toBeGreaterThan(0);
    const unrouted = pagePaths.filter((p) => routeOf(p.replace(/<[a-z]+>/g, 's_example')).view === 'overview');
    expect(unrouted).toEqual([]);
  });
});
