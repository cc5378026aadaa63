/**
 * This package's version, read from its package.json (`unknown` when it cannot be read).
 * @module
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../catalog/builtin.js';

export function packageVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
