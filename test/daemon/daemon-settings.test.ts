/**
 * A settings.json the daemon cannot use stops `specterm serve` with a code and the place to fix,
 * never with the file's text (it holds webhook secrets) nor as an "internal error".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirs, REPO, stopAll } from './daemon-harness.js';

afterAll(stopAll, 60_000);

function serveWith(settings: string): { status: number | null; stderr: string } {
  const dirs = makeDirs();
  fs.writeFileSync(path.join(dirs.stateDir, 'settings.json'), settings, { mode: 0o600 });
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin/specterm.js'), 'serve', '--port', '0', '--no-pair'], { env: dirs.env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('specterm serve with a settings.json it cannot use', () => {
  it('names the line and column of a syntax error without quoting the file', () => {
    const r = serveWith('{"webhooks": [{"secret": "hunter2-do-not-print-this-0123456789", "url": "http://127.0.0.1:9/x",}]}');
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^specterm serve: SETTINGS_INVALID: \S+settings\.json is not valid JSON at line 1, column \d+: .+; fix it or remove the file$/m);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toContain('internal error');
  });

  it('says what the file must hold when it is not an object', () => {
    const r = serveWith('[1, 2]');
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/SETTINGS_INVALID: \S+settings\.json must hold a JSON object .*not an array/);
  });
});
