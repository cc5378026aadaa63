/**
 * Installs a pinned agent CLI from the npm registry into a cache OUTSIDE the repository
 * (`$SPECTERM_LAB_CACHE`, else `$XDG_CACHE_HOME/specterm-lab`, else `~/.cache/specterm-lab`), once
 * per version, and returns the path of its bin. Nothing downloaded ever lands in the repo.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

export function labCacheDir() {
  return process.env.SPECTERM_LAB_CACHE || join(process.env.XDG_CACHE_HOME || join(os.homedir(), '.cache'), 'specterm-lab');
}

/**
 * @param {string} pkg - npm package, e.g. "@anthropic-ai/claude-code"
 * @param {string} version - exact version, e.g. "2.1.12"
 * @param {string} bin - the bin name inside the package, e.g. "claude"
 * @returns {{ binPath: string, prefix: string, version: string }}
 */
export function ensureCli(pkg, version, bin) {
  const prefix = join(labCacheDir(), `${pkg.replace('/', '__')}@${version}`);
  const binPath = join(prefix, 'node_modules', '.bin', bin);
  if (!existsSync(binPath)) {
    mkdirSync(prefix, { recursive: true, mode: 0o700 });
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `${pkg}@${version}`], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 });
  }
  const manifest = JSON.parse(readFileSync(join(prefix, 'node_modules', ...pkg.split('/'), 'package.json'), 'utf8'));
  return { binPath, prefix, version: manifest.version };
}
