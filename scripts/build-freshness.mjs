/**
 * Whether dist/ is older than what it is built from, so `npm start` rebuilds only when it must
 * (a rebuild is ~30 s on 2 cores; `npm test` already builds). The build's last outputs are the
 * dashboard's index.html (Vite runs after tsc) and dist/index.js; any source file newer than the
 * older of the two makes the build stale, and so does a missing output.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';

/** What a build reads: the sources, the package's build settings. */
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.build.json'];
const OUTPUTS = ['dist/index.js', 'dist/dashboard/index.html'];

function newestMtimeMs(file) {
  let stat;
  try { stat = fs.statSync(file); } catch { return 0; }
  if (!stat.isDirectory()) return stat.mtimeMs;
  // Files only: a folder's own time moves when anything inside it is added, e.g. by an editor's swap file.
  let newest = 0;
  for (const entry of fs.readdirSync(file)) newest = Math.max(newest, newestMtimeMs(path.join(file, entry)));
  return newest;
}

/**
 * The first input newer than the build, or the missing output; null when dist/ is current.
 * @param {string} root the repository
 * @returns {string | null}
 */
export function staleBuildReason(root) {
  let builtAt = Infinity;
  for (const output of OUTPUTS) {
    try { builtAt = Math.min(builtAt, fs.statSync(path.join(root, output)).mtimeMs); } catch { return `${output} is missing`; }
  }
  for (const input of INPUTS) {
    if (newestMtimeMs(path.join(root, input)) > builtAt) return `${input} changed since the last build`;
  }
  return null;
}
