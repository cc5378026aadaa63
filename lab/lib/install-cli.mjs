/**
 * Installs a pinned agent CLI from the npm registry into a cache OUTSIDE the repository
 * (`$SPECTERM_LAB_CACHE`, else `$XDG_CACHE_HOME/specterm-lab`, else `~/.cache/specterm-lab`), once
 * per version, and returns the path of its bin. Nothing downloaded ever lands in the repo.
 *
 * The canary (`npm run lab -- <cli> --latest`, lab/run.mjs) sets `SPECTERM_LAB_LATEST=1`: then
 * the newest version on the registry is installed instead of the one asked for (under its own
 * version dir, never globally), and labs report each scenario's verdict with `recordVerdict`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

export function labCacheDir() {
  return process.env.SPECTERM_LAB_CACHE || join(process.env.XDG_CACHE_HOME || join(os.homedir(), '.cache'), 'specterm-lab');
}

const newestSeen = new Map();

/** The newest version of `pkg` on the registry (`npm view`, the ordinary client; asked once per process). */
export function latestVersion(pkg) {
  if (newestSeen.has(pkg)) return newestSeen.get(pkg);
  const out = execFileSync('npm', ['view', pkg, 'version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 120_000 }).trim();
  if (!/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/.test(out)) throw new Error(`npm view ${pkg} version printed ${JSON.stringify(out)}, not a version`);
  newestSeen.set(pkg, out);
  return out;
}

/** Every `ensureCli` of this process: the canary reads which versions the labs ran. */
export const installed = [];

/**
 * @param {string} pkg - npm package, e.g. "@anthropic-ai/claude-code"
 * @param {string} version - exact version, e.g. "2.1.12" (replaced by the registry's newest under the canary)
 * @param {string} bin - the bin name inside the package, e.g. "claude"
 * @returns {{ binPath: string, prefix: string, version: string }}
 */
export function ensureCli(pkg, version, bin) {
  const wanted = process.env.SPECTERM_LAB_LATEST === '1' ? latestVersion(pkg) : version;
  const prefix = join(labCacheDir(), `${pkg.replace('/', '__')}@${wanted}`);
  const binPath = join(prefix, 'node_modules', '.bin', bin);
  if (!existsSync(binPath)) {
    mkdirSync(prefix, { recursive: true, mode: 0o700 });
    // npm 11 runs a dependency's install scripts only with a warning and is moving to skip them;
    // the CLI's own (Claude Code's postinstall puts its native binary in place) is approved here,
    // as a user's project would approve it, and nothing else.
    writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true, description: `specterm lab cache: ${pkg}@${wanted}`, allowScripts: { [pkg]: true } }, null, 2)}\n`, { mode: 0o600 });
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `${pkg}@${wanted}`], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 });
  }
  const manifest = JSON.parse(readFileSync(join(prefix, 'node_modules', ...pkg.split('/'), 'package.json'), 'utf8'));
  installed.push({ pkg, version: manifest.version });
  return { binPath, prefix, version: manifest.version };
}

/** Verdicts reported by the labs of this process, in order (read by the canary). */
export const verdicts = [];

/**
 * A lab reports one scenario's outcome (the canary diffs them between versions).
 * @param {string} scenario
 * @param {boolean} passed
 */
export function recordVerdict(scenario, passed) {
  verdicts.push({ scenario, verdict: passed ? 'pass' : 'fail' });
}
