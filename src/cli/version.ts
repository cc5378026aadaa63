/**
 * This package's version, read from its package.json (`unknown` when it cannot be read). Read
 * by path, not through the catalog: `specterm --version` loads nothing else.
 * @module
 */
import * as fs from 'node:fs';

export function packageVersion(): string {
  try {
    // dist/cli/version.js and src/cli/version.ts both sit two levels under the package root.
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
